import { ProtocolError } from '../errors/protocol-error.js';
import type { Cancellation } from './cancellation.js';
import type { AnswerLease } from './answer-budget.js';
import type { ChannelFlow } from './channel-flow.js';
import { isMcpKitError, McpKitError } from '../errors/mcpkit-error.js';
import type { JSONRPCMessage, JSONRPCResponse, RequestId } from '../protocol/jsonrpc.js';
import { validateClientResult } from '../protocol/validate.js';
import type { ClientCapabilities, Implementation } from '../protocol/types.js';
import type { Era } from '../protocol/versions.js';
import { KeyTable } from '../protocol/key-table.js';

/** What a 2025-11-25 client established with `initialize`. */
export interface LegacySession {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: string | undefined;
  subscriptions: Set<string>;
  initialized: boolean;
  /**
   * Whether the caller that last subscribed may read `uri` (its read scopes): a subscription
   * covers sub-resources that may need more, whose updates it is then not sent. Absent: any.
   */
  mayRead?: ((uri: string) => boolean) | undefined;
}

export type TransportKind = 'stdio' | 'http' | 'memory';

export interface PeerOptions {
  transport: TransportKind;
  /** Where messages not tied to a request go: stdout on stdio, the GET stream on legacy HTTP. */
  send: (message: JSONRPCMessage) => void;
  /**
   * Whether `notifications/cancelled` may cancel requests by id (default true). Off for stateless
   * HTTP, where the ids of different clients collide and closing the stream cancels instead.
   */
  cancelById?: boolean;
  /** Largest message the transport carries; results are kept under it (stdio line cap, HTTP body cap). */
  maxMessageBytes?: number;
  /** Time a legacy client gets to answer a server-to-client request (default 60 s). */
  requestTimeoutMs?: number;
  /** The backpressure of `send`'s channel (stdout), so that listen streams hold rather than pile up. */
  flow?: ChannelFlow;
  /**
   * Whether this connection's writer sends streamed blobs (content/streamed-body.ts), read from
   * their source as the client takes them (default false). The HTTP endpoint's are; stdio's is
   * not: a line cannot be taken back once started, so a file that changes mid-read must be
   * read whole first. Read handlers see it as `ctx.streamsBodies`.
   */
  streamsBodies?: boolean;
}

/** Per-message extras a transport supplies. */
export interface HandleExtra {
  /** Where this request's notifications go (an SSE stream); default: the peer's `send`. */
  notify?: (message: JSONRPCMessage) => void;
  /** The backpressure of `notify`'s channel, when the transport can tell (an SSE sink). */
  flow?: ChannelFlow;
  /** Aborted when the client goes away (HTTP stream closed); a getter keeps it lazy. */
  signal?: AbortSignal | (() => AbortSignal);
  /**
   * The request's era, when the transport classified it at its edge (HTTP, from headers and the
   * route); otherwise the peer classifies it from `_meta` and its session (`requestEra`).
   */
  era?: Era;
  /** Whatever an auth hook established for this message. */
  authInfo?: unknown;
  /**
   * This answer's share of the server's `answerBudget`, released by the transport once the
   * answer is written (or dropped); without it the engine makes one and releases it when the
   * response is handed over.
   */
  answer?: AnswerLease;
}

interface Pending {
  method: string;
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
  /** Removes the abort listener of the request's signal. */
  off: (() => void) | undefined;
}

/**
 * The server's view of one connection: a stdio process, a legacy HTTP session, or stateless HTTP.
 * A transport uses `handle`, `onClose`, `close` and `isClosed`; members marked internal are the
 * engine's.
 */
export class Peer {
  readonly transport: TransportKind;
  readonly maxMessageBytes: number | undefined;
  readonly cancelById: boolean;
  readonly send: (message: JSONRPCMessage) => void;
  /** The backpressure of `send`'s channel. */
  readonly flow: ChannelFlow | undefined;
  /** Whether answers may carry streamed blobs ({@link PeerOptions.streamsBodies}). */
  readonly streamsBodies: boolean;
  /** @internal The 2025-11-25 session, set by `initialize` (the engine's, not the transport's). */
  session: LegacySession | undefined;
  /** @internal In-flight requests by id, for `notifications/cancelled`. */
  readonly inflight = new KeyTable<Cancellation, RequestId>();
  /**
   * In-flight requests whose id a later one took over in `inflight` (stateless HTTP reuses ids):
   * still aborted by `close`. Empty unless ids repeat.
   */
  private readonly shadowed = new Set<Cancellation>();
  private readonly pending = new Map<RequestId, Pending>();
  private readonly requestTimeoutMs: number;
  private nextId = 0;
  private closed = false;
  private readonly closeHandlers: Array<() => void> = [];

  constructor(
    options: PeerOptions,
    private readonly dispatch: (
      peer: Peer,
      raw: unknown,
      extra: HandleExtra,
    ) => Promise<JSONRPCResponse | undefined>,
  ) {
    this.transport = options.transport;
    this.maxMessageBytes = options.maxMessageBytes;
    this.cancelById = options.cancelById ?? true;
    this.send = options.send;
    this.flow = options.flow;
    this.streamsBodies = options.streamsBodies ?? false;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
  }

  /** Handles one decoded message; resolves with the response to send, if any. */
  handle(raw: unknown, extra: HandleExtra = {}): Promise<JSONRPCResponse | undefined> {
    return this.dispatch(this, raw, extra);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * @internal Tracks an in-flight request until `finish`, so that `close` and
   * `notifications/cancelled` by its id abort it.
   */
  begin(id: RequestId, cancel: Cancellation): void {
    const earlier = this.inflight.get(id);
    if (earlier !== undefined) this.shadowed.add(earlier);
    this.inflight.set(id, cancel);
  }

  /** @internal */
  finish(id: RequestId, cancel: Cancellation): void {
    if (this.inflight.get(id) === cancel) this.inflight.delete(id);
    else this.shadowed.delete(cancel);
  }

  /** @internal Sends a request to a legacy client and waits for its answer. */
  request(
    method: string,
    params: Record<string, unknown>,
    notify: (message: JSONRPCMessage) => void,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    if (this.closed)
      return Promise.reject(
        new McpKitError('PEER_CLOSED', `cannot send ${method}: the connection is closed`),
      );
    const cancelled = () => new McpKitError('REQUEST_CANCELLED', `${method} was cancelled`);
    // Cancelled before it was sent (the request that asks was cancelled): nothing goes out.
    if (signal?.aborted) return Promise.reject(cancelled());
    const id = `mcpkit-${++this.nextId}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const why = `${method} got no answer from the client in ${this.requestTimeoutMs} ms`;
        this.settle(id, new McpKitError('REQUEST_TIMEOUT', why));
      }, this.requestTimeoutMs);
      const onAbort = () => this.settle(id, cancelled());
      signal?.addEventListener('abort', onAbort, { once: true });
      const off = signal && (() => signal.removeEventListener('abort', onAbort));
      this.pending.set(id, { method, resolve, reject, timer, off });
      try {
        notify({ jsonrpc: '2.0', id, method, params });
      } catch (error) {
        // The transport could not send it (over its cap): no answer can come, fail at once.
        this.settle(
          id,
          isMcpKitError(error)
            ? error
            : new McpKitError('REQUEST_UNSENDABLE', `${method} could not be sent`, {
                cause: error,
              }),
        );
      }
    });
  }

  /** @internal Routes a client's response to the request we sent. Unknown ids are ignored; never throws. */
  receiveResponse(message: JSONRPCResponse): void {
    if (message.id === null) return;
    const id = message.id;
    const entry = this.pending.get(id);
    if (!entry) return;
    try {
      if ('error' in message) {
        const e = message.error;
        this.settle(id, new ProtocolError(e.code, e.message, e.data));
        return;
      }
      const issue = validateClientResult(entry.method, message.result);
      const why = issue && `the client's ${entry.method} result is invalid: ${issue.message}`;
      this.settle(id, why ? ProtocolError.invalidParams(why) : message.result);
    } catch (error) {
      const why = `the client's answer to ${entry.method} failed`;
      this.settle(id, new McpKitError('INVALID_RESPONSE', why, { cause: error }));
    }
  }

  /** @internal Fails the request a malformed response answered (if ours), rather than wait for its timeout. */
  receiveMalformedResponse(id: RequestId, reason: string): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    const why = `the client's answer to ${entry.method} is malformed: ${reason}`;
    this.settle(id, new McpKitError('INVALID_RESPONSE', why));
  }

  /** A client's result is parsed JSON, never an Error: an Error fails the request. */
  private settle(id: RequestId, outcome: Record<string, unknown> | Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    entry.off?.();
    if (outcome instanceof Error) entry.reject(outcome);
    else entry.resolve(outcome);
  }

  /** Runs `handler` when the peer closes; returns a function that removes it. */
  onClose(handler: () => void): () => void {
    this.closeHandlers.push(handler);
    let registered = true;
    return () => {
      if (!registered) return;
      registered = false;
      const at = this.closeHandlers.indexOf(handler);
      if (at >= 0) this.closeHandlers.splice(at, 1);
    };
  }

  /** Aborts in-flight work and fails pending server-to-client requests. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    // Requests that share an id are all aborted: the shadowed ones too.
    for (const cancel of [...this.inflight.snapshot(), ...this.shadowed]) cancel.abort();
    this.shadowed.clear();
    this.inflight.clear();
    for (const id of [...this.pending.keys()])
      this.settle(id, new McpKitError('PEER_CLOSED', 'the connection closed'));
    for (const handler of this.closeHandlers.splice(0)) handler();
  }
}
