import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type {
  ClientTransport,
  ClientTransportSink,
  SendOptions,
} from '../../../client/transport.js';
import { McpKitError } from '../../../errors/index.js';
import { DEFAULT_MAX_DEPTH } from '../../../protocol/depth.js';
import type { Era } from '../../../protocol/versions.js';
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  RequestId,
} from '../../../protocol/jsonrpc.js';
import { childEnv, exitDescription, positive, shutdownChild, spawnChild } from './client-child.js';
import type { ReplyPacer } from './client-reply-pacer.js';
import { AnswerCaps, capErrors, type CapPassed } from './client-answer-caps.js';
import { readStdout } from './client-stdout.js';
import {
  DEFAULT_STDERR_BUFFER_BYTES,
  escapeForMessage,
  StderrRing,
  stderrTail,
} from './client-stderr.js';

/** Default `maxLineBytes` of the stdio client: 32 MiB of JSON per line, the newline not counted. */
export const DEFAULT_CLIENT_MAX_LINE_BYTES = 33_554_432;
/** Default `closeTimeoutMs`: each of the two waits of `close()` (after EOF, after SIGTERM). */
export const DEFAULT_CLOSE_TIMEOUT_MS = 2000;

/** After the child exits, how long its last stdout bytes may still take to arrive. */
const EXIT_FLUSH_MS = 100;

export interface StdioClientOptions {
  /** The server's executable, run without a shell. */
  command: string;
  args?: readonly string[];
  /**
   * Variables over a safe default environment (`DEFAULT_INHERITED_ENV_VARS`: PATH, HOME
   * and the like, never the host's secrets); `undefined` removes one. To pass everything:
   * `env: { ...process.env }`.
   */
  env?: Record<string, string | undefined>;
  /** Working directory of the child (default: ours). */
  cwd?: string;
  /**
   * The child's stderr (default `'capture'`): `'capture'` keeps its last `stderrBufferBytes` for
   * {@link StdioClientTransport.stderrText} and exit errors; `'inherit'` passes it to ours;
   * `'ignore'` drops it; a function receives it as text, chunk by chunk.
   */
  stderr?: 'inherit' | 'capture' | 'ignore' | ((chunk: string) => void);
  /** How much stderr `'capture'` keeps, in bytes (default 65,536): older output is dropped. */
  stderrBufferBytes?: number;
  /**
   * The longest line accepted from the server, in bytes of JSON, the newline not counted (a CR
   * before it is); default 32 MiB. A longer line is discarded as it streams in and fails the
   * request it answers with RESPONSE_TOO_LARGE. Also `maxMessageBytes`.
   */
  maxLineBytes?: number;
  /**
   * Nesting allowed below a message's `params`, `result` or `error` (default 64, as the
   * server's `maxDepth`): a deeper answer fails its request with INVALID_RESPONSE.
   */
  maxDepth?: number;
  /** Each wait of `close()`: after closing stdin, then after SIGTERM (default 2000 ms). */
  closeTimeoutMs?: number;
}

/** One spawned child and what belongs to it. */
interface Connection {
  child: ChildProcess;
  stdin: Writable;
  stdout: Readable;
  exited: boolean;
  /** Resolves at the child's exit. */
  exit: Promise<void>;
  /** Resolves once `sink.closed` has been told. */
  done: Promise<void>;
  closing: Promise<void> | undefined;
  /** Stops reading stdout while replies to the server's requests wait unwritten. */
  pacer: ReplyPacer | undefined;
  /** The answer limits requests set (`SendOptions.maxResponseBytes`). */
  caps: AnswerCaps;
  /** Why the client ended the connection itself, when an answer passed its request's limit. */
  cut: McpKitError | undefined;
}

/**
 * The stdio client transport: spawns the server and speaks one JSON-RPC message per line over
 * its stdin and stdout. Memory stays bounded whatever the child writes (lines over
 * `maxLineBytes` are never held; captured stderr is a fixed ring).
 *
 * @example
 * const transport = new StdioClientTransport({ command: 'npx', args: ['-y', 'some-server'] });
 */
export class StdioClientTransport implements ClientTransport {
  readonly kind = 'stdio' as const;
  readonly maxMessageBytes: number;
  private readonly maxDepth: number;
  private readonly closeTimeoutMs: number;
  private readonly stderrBufferBytes: number;
  private readonly label: string;
  private conn: Connection | undefined;
  private starting: Promise<unknown> | undefined;
  // The last child exited on its own: sends fail with PEER_CLOSED until the next start.
  private lost = false;
  /** Lines written in the current tick (the second one corks stdin until the next tick). */
  private writesThisTick = 0;
  // The last child's captured stderr, kept after it exits until the next start.
  private ring: StderrRing | undefined;
  // 2026-07-28 has no server requests: the transport's own refusals are not sent either.
  private era: Era | undefined;

  constructor(private readonly options: StdioClientOptions) {
    if (typeof options.command !== 'string' || options.command.length === 0) {
      throw new TypeError('StdioClientTransport: command must be a non-empty string');
    }
    const { maxLineBytes, closeTimeoutMs } = options;
    this.maxMessageBytes = positive('maxLineBytes', maxLineBytes, DEFAULT_CLIENT_MAX_LINE_BYTES);
    this.maxDepth = positive('maxDepth', options.maxDepth, DEFAULT_MAX_DEPTH);
    this.closeTimeoutMs = positive('closeTimeoutMs', closeTimeoutMs, DEFAULT_CLOSE_TIMEOUT_MS);
    this.stderrBufferBytes = positive(
      'stderrBufferBytes',
      options.stderrBufferBytes,
      DEFAULT_STDERR_BUFFER_BYTES,
    );
    this.label = `server ${escapeForMessage(options.command)}`;
  }

  /** The running child's process id. */
  get pid(): number | undefined {
    return this.conn?.child.pid;
  }

  /** What `'capture'` kept of the (last) child's stderr; empty in the other modes. */
  stderrText(): string {
    return this.ring?.text() ?? '';
  }

  async start(sink: ClientTransportSink): Promise<void> {
    if (this.conn || this.starting) {
      throw new Error('StdioClientTransport: already started; close() it before starting again');
    }
    const { stderr = 'capture' } = this.options;
    // `starting` covers the attach too: a close() waiting on it then finds the connection.
    const starting = spawnChild({
      command: this.options.command,
      args: this.options.args ?? [],
      env: childEnv(this.options.env),
      cwd: this.options.cwd,
      stderr: stderr === 'inherit' || stderr === 'ignore' ? stderr : 'pipe',
    }).then((child) => this.attach(child, sink));
    this.starting = starting;
    this.lost = false;
    try {
      await starting;
    } finally {
      this.starting = undefined;
    }
  }

  /** stdio has no sessions or resumption: only the refusals of server requests depend on it. */
  setEra(era: Era, _protocolVersion: string): void {
    this.era = era;
  }

  /** Server-to-client messages share stdout: there is no stream to open. */
  openServerStream(_headers?: Record<string, string>): Promise<void> {
    return Promise.resolve();
  }

  resetSession(): void {}

  request(message: JSONRPCRequest, options?: SendOptions): Promise<void> {
    const cap = options?.maxResponseBytes;
    this.conn?.caps.sent(
      message.id,
      cap !== undefined && cap < this.maxMessageBytes ? cap : undefined,
      options?.longLived,
    );
    return this.send(message);
  }

  notify(message: JSONRPCNotification, _options?: SendOptions): Promise<void> {
    return this.send(message);
  }

  /** Counted until written: too many unwritten, and stdout is no longer read (ReplyPacer). */
  respond(message: JSONRPCResponse, _options?: SendOptions): Promise<void> {
    const pacer = this.conn?.pacer;
    const sent = this.send(message);
    if (pacer) {
      pacer.replyQueued();
      sent.then(pacer.replyDone, pacer.replyDone);
    }
    return sent;
  }

  cancel(id: RequestId, reason?: string): void {
    this.conn?.caps.settled(id);
    if (!this.conn || this.conn.closing) return;
    const params = reason === undefined ? { requestId: id } : { requestId: id, reason };
    // Best effort: a child that is gone has nothing left to cancel.
    this.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params }).catch(() => undefined);
  }

  /** Closes stdin, waits, SIGTERM, waits, SIGKILL; resolves when the child is gone. */
  async close(): Promise<void> {
    // A child being spawned is closed too, once it runs: never left behind.
    if (this.starting) await this.starting.catch(() => undefined);
    const conn = this.conn;
    if (!conn) return;
    return this.shutdown(conn);
  }

  private shutdown(conn: Connection): Promise<void> {
    return (conn.closing ??= shutdownChild(conn.child, conn.exit, this.closeTimeoutMs).then(
      () => conn.done,
    ));
  }

  private attach(child: ChildProcess, sink: ClientTransportSink): void {
    const stdin = child.stdin as Writable;
    const stdout = child.stdout as Readable;
    const stderrStream = child.stderr;
    let markExit!: () => void;
    let markDone!: () => void;
    const conn: Connection = {
      child,
      stdin,
      stdout,
      exited: false,
      exit: new Promise((resolve) => (markExit = resolve)),
      done: new Promise((resolve) => (markDone = resolve)),
      closing: undefined,
      pacer: undefined,
      caps: new AnswerCaps(),
      cut: undefined,
    };
    this.conn = conn;
    // Write failures reach each write's callback; these only keep stray errors from crashing us.
    stdin.on('error', () => undefined);
    stdout.on('error', () => undefined);
    stderrStream?.on('error', () => undefined);

    const pacer = readStdout({
      stdout,
      sink,
      caps: conn.caps,
      label: this.label,
      maxLineBytes: this.maxMessageBytes,
      maxDepth: this.maxDepth,
      answer: (response) => {
        if (this.era !== 'modern') this.respond(response).catch(() => undefined);
      },
      passed: (passed) => this.cut(conn, sink, passed),
    });
    conn.pacer = pacer;

    const { stderr = 'capture' } = this.options;
    const ring = stderr === 'capture' ? new StderrRing(this.stderrBufferBytes) : undefined;
    this.ring = ring;
    if (ring) stderrStream?.on('data', (chunk: Buffer) => ring.push(chunk));
    else if (typeof stderr === 'function' && stderrStream) {
      stderrStream.setEncoding('utf8');
      stderrStream.on('data', (chunk: string) => {
        try {
          stderr(chunk);
        } catch (error) {
          sink.warn('STDERR_HANDLER_FAILED', `the stderr callback threw: ${String(error)}`);
        }
      });
    }

    let finished = false;
    // Deliberate when close() began before the child exited (a crash is reported as one).
    let byClient: boolean | undefined;
    let flushTimer: NodeJS.Timeout | undefined;
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (finished) return;
      finished = true;
      clearTimeout(flushTimer);
      // Answers held while stdout was paused still reach their requests.
      pacer.flush();
      stdout.destroy();
      stderrStream?.destroy();
      stdin.destroy();
      if (this.conn === conn) this.conn = undefined;
      if (conn.cut) sink.closed(conn.cut);
      else if (byClient ?? conn.closing !== undefined) sink.closed(closedByClient());
      else {
        this.lost = true;
        sink.closed(this.exitError(code, signal, ring));
      }
      markDone();
    };
    child.once('exit', (code, signal) => {
      conn.exited = true;
      byClient = conn.closing !== undefined;
      markExit();
      // Normally 'close' follows once stdout is drained; a grandchild holding the pipe open
      // must not keep the connection alive.
      flushTimer = setTimeout(() => finish(code, signal), EXIT_FLUSH_MS);
    });
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) =>
      finish(code, signal),
    );
  }

  /**
   * An answer passed the limit its request set: that request fails, and since the rest of its
   * line cannot be skipped without reading it, the connection ends (the child is shut down).
   */
  private cut(conn: Connection, sink: ClientTransportSink, passed: CapPassed): void {
    const { request, connection } = capErrors(this.label, passed);
    conn.cut = connection;
    conn.stdout.destroy();
    sink.requestFailed(passed.id, request);
    this.lost = true;
    void this.shutdown(conn);
  }

  private exitError(
    code: number | null,
    signal: NodeJS.Signals | null,
    ring: StderrRing | undefined,
  ): McpKitError {
    const text = ring?.text().trim() ?? '';
    const tail = text === '' ? '' : `; its last stderr: ${stderrTail(text)}`;
    return new McpKitError(
      'SERVER_EXITED',
      `${this.label} ${exitDescription(code, signal)}${tail}`,
    );
  }

  private send(message: JSONRPCMessage): Promise<void> {
    const conn = this.conn;
    const what = 'method' in message ? message.method : 'a response';
    if (!conn && this.lost) return Promise.reject(this.peerClosed(what));
    if (!conn || conn.closing) {
      return Promise.reject(
        new McpKitError(
          'NOT_CONNECTED',
          `cannot send ${what}: the stdio transport to ${this.label} is ${conn ? 'closing' : 'not started'}`,
        ),
      );
    }
    if (conn.exited || !conn.stdin.writable) return Promise.reject(this.peerClosed(what));
    let line: string;
    try {
      line = `${JSON.stringify(message)}\n`;
    } catch (error) {
      return Promise.reject(
        new McpKitError(
          'REQUEST_UNSENDABLE',
          `cannot send ${what} to ${this.label}: it cannot be encoded as JSON (${(error as Error).message})`,
          { cause: error },
        ),
      );
    }
    const stdin = conn.stdin;
    // A burst (50 requests in one tick) goes to the pipe in one writev; a lone line at once.
    if (++this.writesThisTick === 1) {
      process.nextTick(() => {
        if (this.writesThisTick > 1) stdin.uncork();
        this.writesThisTick = 0;
      });
    } else if (this.writesThisTick === 2) {
      stdin.cork();
    }
    return new Promise((resolve, reject) => {
      // The callback runs once the line was handed to the pipe: awaiting it is the backpressure.
      stdin.write(line, (error) => (error ? reject(this.peerClosed(what, error)) : resolve()));
    });
  }

  private peerClosed(what: string, cause?: unknown): McpKitError {
    return new McpKitError('PEER_CLOSED', `cannot send ${what}: ${this.label} is gone`, { cause });
  }
}

function closedByClient(): McpKitError {
  return new McpKitError('PEER_CLOSED', 'closed by the client');
}
