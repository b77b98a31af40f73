import type { JSONRPCMessage } from '../../../protocol/jsonrpc.js';
import { DEFAULT_MAX_LISTEN_QUEUE_BYTES, type Peer } from '../../../server/transport.js';
import type { McpServer } from '../../../server/index.js';
import type { SseSink } from './exchange.js';
import { failUnsent } from '../../oversize.js';
import { sseEvent } from './sse.js';

/** One 2025-11-25 session: its peer, its GET stream, and when it was last used. */
export interface LegacyHttpSession {
  id: string;
  peer: Peer;
  stream: SseSink | undefined;
  /** Ends the GET stream with its cleanup (set while one is open). */
  endStream?: (() => void) | undefined;
  lastSeen: number;
  /** Its POSTs being answered now. */
  busy: number;
  /** Who opened it (auth's caller key): nobody else may use it. */
  caller?: string | undefined;
}

/** Idle: nothing of the client's is open on it, so dropping it interrupts nothing. */
function isIdle(session: LegacyHttpSession): boolean {
  return session.stream === undefined && session.busy === 0;
}

/**
 * The table of legacy HTTP sessions, bounded in count and idle time. 2025-11-25 clients often
 * never DELETE their session, so a full table evicts the least recently used idle session rather
 * than refusing every new client until the idle sweep (sessionIdleMs) catches up.
 */
export class SessionTable {
  /** Committed sessions, least recently used first (`touch` moves one to the end). */
  private readonly sessions = new Map<string, LegacyHttpSession>();
  /** Sessions whose `initialize` is being answered: they count against maxSessions too. */
  private readonly opening = new Set<LegacyHttpSession>();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly server: McpServer,
    private readonly idleMs: number,
    private readonly maxSessions: number,
    private readonly maxMessageBytes: number,
  ) {}

  /**
   * Writes to a session's GET stream. A client that stops reading would make the stream buffer
   * without bound: past `maxListenQueueBytes` it is ended (the client may open it again).
   */
  private sendOnStream(session: LegacyHttpSession, message: JSONRPCMessage): void {
    const stream = session.stream;
    if (!stream) return;
    const limit = this.server.options.maxListenQueueBytes ?? DEFAULT_MAX_LISTEN_QUEUE_BYTES;
    if (stream.congested && stream.bufferedBytes > limit) {
      const warn = this.server.options.onWarning ?? ((m: string) => console.warn(m));
      warn(
        `mcpkit: ended the GET stream of session ${session.id}: its client is not reading and ${stream.bufferedBytes} bytes are queued, more than maxListenQueueBytes (${limit})`,
      );
      // Ended with its own cleanup (keep-alive, close handler); the session counts as used now,
      // so that its client can open the stream again.
      session.stream = undefined;
      this.touch(session);
      if (session.endStream) session.endStream();
      else stream.end();
      return;
    }
    const event = sseEvent(message, this.maxMessageBytes, (t) => console.error(t));
    if (!event) return failUnsent(message, this.maxMessageBytes);
    for (const part of event) stream.write(part);
  }

  /**
   * Reserves a place and makes a peer for a new session, evicting the least recently used idle
   * one when maxSessions are open or opening; undefined when none can go (all busy, streaming or
   * initializing). Then exactly one of `commit` (once `initialize` succeeded) or `discard`.
   */
  create(caller?: string): LegacyHttpSession | undefined {
    if (this.full && !this.evictOne()) return undefined;
    const session: LegacyHttpSession = {
      id: crypto.randomUUID(),
      peer: undefined as unknown as Peer,
      stream: undefined,
      lastSeen: Date.now(),
      busy: 0,
      caller,
    };
    session.peer = this.server.connect({
      transport: 'http',
      maxMessageBytes: this.maxMessageBytes,
      send: (message: JSONRPCMessage) => this.sendOnStream(session, message),
      // Answers to a session's POSTs go through the endpoint's writers, which stream blobs.
      streamsBodies: true,
    });
    this.opening.add(session);
    return session;
  }

  get full(): boolean {
    return this.sessions.size + this.opening.size >= this.maxSessions;
  }

  commit(session: LegacyHttpSession): void {
    if (!this.opening.delete(session)) {
      // Closed meanwhile (closeAll): nothing to keep.
      session.peer.close();
      return;
    }
    session.lastSeen = Date.now();
    this.sessions.set(session.id, session);
    if (!this.sweeper) {
      this.sweeper = setInterval(() => this.sweep(), Math.min(this.idleMs, 60_000));
      (this.sweeper as { unref?: () => void }).unref?.();
    }
  }

  /** Drops a session that was not committed, and closes its peer. */
  discard(session: LegacyHttpSession): void {
    this.opening.delete(session);
    session.peer.close();
  }

  /** The session `id` of `caller` (another caller's session is not found). */
  get(id: string, caller?: string): LegacyHttpSession | undefined {
    const session = this.sessions.get(id);
    if (!session || session.caller !== caller) return undefined;
    this.touch(session);
    return session;
  }

  /** Marks a session used now: the most recently used, last to be evicted. */
  touch(session: LegacyHttpSession): void {
    if (this.sessions.get(session.id) !== session) return;
    session.lastSeen = Date.now();
    this.sessions.delete(session.id);
    this.sessions.set(session.id, session);
  }

  /** Runs one of the session's requests; meanwhile the session is not idle. */
  async busyWhile<T>(session: LegacyHttpSession, run: () => Promise<T>): Promise<T> {
    session.busy++;
    try {
      return await run();
    } finally {
      session.busy--;
      this.touch(session);
    }
  }

  /** A client's DELETE: only the caller that opened the session may end it. */
  delete(id: string, caller?: string): boolean {
    const session = this.sessions.get(id);
    if (!session || session.caller !== caller) return false;
    this.drop(session);
    return true;
  }

  /** Ends a session whoever opened it (the table's own sweeps, evictions and close). */
  private drop(session: LegacyHttpSession): true {
    this.sessions.delete(session.id);
    session.stream?.end();
    session.peer.close();
    return true;
  }

  closeAll(): void {
    for (const session of [...this.sessions.values()]) this.drop(session);
    for (const session of [...this.opening]) this.discard(session);
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** Drops the least recently used idle session; false when there is none. */
  private evictOne(): boolean {
    for (const s of this.sessions.values()) {
      if (isIdle(s)) return this.drop(s);
    }
    return false;
  }

  private sweep(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const s of [...this.sessions.values()]) {
      if (s.lastSeen < cutoff && isIdle(s)) this.drop(s);
    }
  }
}
