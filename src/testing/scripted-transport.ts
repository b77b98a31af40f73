// Test support only: a ClientTransport whose answers each test scripts, with a record of
// everything the client sent (headers included) and helpers to push what a server would.
import { McpKitError } from '../errors/index.js';
import type { ClientTransport, ClientTransportSink, SendOptions } from '../client/transport.js';
import type {
  Era,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  RequestId,
} from '../protocol/index.js';

type Obj = Record<string, unknown>;

/** What a scripted server does with one request. */
export type Reply =
  | { result: Obj }
  | { error: { code: number; message: string; data?: unknown } }
  /** A transport failure for this request (`sink.requestFailed`), e.g. an HTTP status. */
  | { fail: McpKitError }
  /** Messages pushed before the answer (notifications, a server request), then `then`. */
  | { before: JSONRPCMessage[]; then: Reply }
  /** No answer at all. */
  | { silence: true };

export type Script = (
  request: JSONRPCRequest,
  transport: ScriptedTransport,
) => Reply | Promise<Reply>;

export const result = (value: Obj): Reply => ({ result: value });
export const rpcError = (code: number, message = `error ${code}`, data?: unknown): Reply =>
  data === undefined ? { error: { code, message } } : { error: { code, message, data } };
export const silence: Reply = { silence: true };
/** An HTTP answer with no JSON-RPC body, as the HTTP transport reports it (`status` on it). */
export function httpStatus(status: number): Reply {
  const error = new McpKitError('HTTP_ERROR', `POST answered ${status}`);
  return { fail: Object.assign(error, { status }) };
}

export interface SentRecord {
  kind: 'request' | 'notify' | 'respond';
  message: JSONRPCMessage;
  headers: Record<string, string>;
  longLived: boolean;
}

/** A well-formed 2026-07-28 DiscoverResult, fields overridable. */
export function discoverResult(extra: Obj = {}): Obj {
  return {
    supportedVersions: ['2026-07-28'],
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, prompts: {} },
    resultType: 'complete',
    ttlMs: 0,
    cacheScope: 'public',
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '1.0.0' } },
    ...extra,
  };
}

/** A well-formed 2025-11-25 InitializeResult. */
export function initializeResult(extra: Obj = {}): Obj {
  return {
    protocolVersion: '2025-11-25',
    capabilities: { tools: {}, resources: { subscribe: true } },
    serverInfo: { name: 'scripted-legacy', version: '0.9.0' },
    ...extra,
  };
}

export class ScriptedTransport implements ClientTransport {
  readonly kind: 'stdio' | 'http';
  readonly maxMessageBytes: number;
  readonly sent: SentRecord[] = [];
  readonly cancelled: { id: RequestId; reason?: string }[] = [];
  readonly eras: [Era, string][] = [];
  readonly serverStreams: (Record<string, string> | undefined)[] = [];
  starts = 0;
  closes = 0;
  resets = 0;
  private sink: ClientTransportSink | undefined;
  private readonly scripts = new Map<string, Script>();
  private fallback: Script = (m) => rpcError(-32601, `Method not found: ${m.method}`);

  constructor(options: { kind?: 'stdio' | 'http'; maxMessageBytes?: number } = {}) {
    this.kind = options.kind ?? 'stdio';
    this.maxMessageBytes = options.maxMessageBytes ?? 1_048_576;
  }

  /** Scripts the answer to every `method` request (replacing an earlier script). */
  onRequest(method: string, script: Script | Reply): this {
    this.scripts.set(method, typeof script === 'function' ? script : () => script);
    return this;
  }

  /** Answers to the next requests of `method`, one per request; the last one repeats. */
  onRequests(method: string, replies: (Script | Reply)[]): this {
    let n = 0;
    return this.onRequest(method, (m, t) => {
      const next = replies[Math.min(n++, replies.length - 1)] as Script | Reply;
      return typeof next === 'function' ? next(m, t) : next;
    });
  }

  /** What an unscripted method gets; default: a -32601 error. */
  otherwise(script: Script | Reply): this {
    this.fallback = typeof script === 'function' ? script : () => script;
    return this;
  }

  /** Scripts a modern server: `server/discover` answered with `discoverResult(extra)`. */
  modern(extra: Obj = {}): this {
    return this.onRequest('server/discover', result(discoverResult(extra)));
  }

  /** Scripts a legacy server: discover is unknown, `initialize` answered. */
  legacy(extra: Obj = {}): this {
    this.onRequest('server/discover', rpcError(-32601, 'Method not found'));
    return this.onRequest('initialize', result(initializeResult(extra)));
  }

  // ---- records ---------------------------------------------------------------------------

  /** Requests sent, optionally of one method. */
  requests(method?: string): (JSONRPCRequest & { params: Obj })[] {
    return this.sent
      .filter(
        (s) => s.kind === 'request' && (!method || (s.message as JSONRPCRequest).method === method),
      )
      .map((s) => s.message as JSONRPCRequest & { params: Obj });
  }

  /** The record of the last request of `method`. */
  last(method: string): SentRecord {
    const found = this.sent.filter(
      (s) => s.kind === 'request' && (s.message as JSONRPCRequest).method === method,
    );
    const record = found[found.length - 1];
    if (!record) throw new Error(`no ${method} request was sent`);
    return record;
  }

  notifications(method?: string): JSONRPCNotification[] {
    return this.sent
      .filter(
        (s) =>
          s.kind === 'notify' && (!method || (s.message as JSONRPCNotification).method === method),
      )
      .map((s) => s.message as JSONRPCNotification);
  }

  responses(): JSONRPCResponse[] {
    return this.sent.filter((s) => s.kind === 'respond').map((s) => s.message as JSONRPCResponse);
  }

  // ---- what a server does unasked ----------------------------------------------------------

  /** Delivers any message, as if the server had sent it. */
  push(message: JSONRPCMessage): void {
    this.live().message(message);
  }

  pushNotification(method: string, params?: Obj): void {
    this.push(
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params },
    );
  }

  /** Answers request `id` now (for requests scripted with silence). */
  answer(id: RequestId, reply: Reply): void {
    this.deliver(id, reply);
  }

  failRequest(id: RequestId | undefined, error: McpKitError): void {
    this.live().requestFailed(id, error);
  }

  /** The connection dies (`sink.closed`). */
  closeWithError(
    error: McpKitError = new McpKitError('SERVER_EXITED', 'the server exited with code 1'),
  ): void {
    this.live().closed(error);
  }

  warnClient(code: string, message: string): void {
    this.live().warn(code, message);
  }

  // ---- ClientTransport ---------------------------------------------------------------------

  start(sink: ClientTransportSink): Promise<void> {
    this.starts++;
    this.sink = sink;
    return Promise.resolve();
  }

  setEra(era: Era, protocolVersion: string): void {
    this.eras.push([era, protocolVersion]);
  }

  request(message: JSONRPCRequest, options: SendOptions = {}): Promise<void> {
    this.record('request', message, options);
    const script = this.scripts.get(message.method) ?? this.fallback;
    void (async () => {
      await Promise.resolve();
      const reply = await script(message, this);
      this.deliver(message.id, reply);
    })();
    return Promise.resolve();
  }

  notify(message: JSONRPCNotification, options: SendOptions = {}): Promise<void> {
    this.record('notify', message, options);
    return Promise.resolve();
  }

  respond(message: JSONRPCResponse, options: SendOptions = {}): Promise<void> {
    this.record('respond', message, options);
    return Promise.resolve();
  }

  cancel(id: RequestId, reason?: string): void {
    this.cancelled.push(reason === undefined ? { id } : { id, reason });
  }

  openServerStream(headers?: Record<string, string>): Promise<void> {
    this.serverStreams.push(headers);
    return Promise.resolve();
  }

  resetSession(): void {
    this.resets++;
  }

  close(): Promise<void> {
    this.closes++;
    this.sink?.closed(new McpKitError('PEER_CLOSED', 'closed by the client'));
    this.sink = undefined;
    return Promise.resolve();
  }

  private deliver(id: RequestId, reply: Reply): void {
    if (!this.sink) return;
    if ('silence' in reply) return;
    if ('before' in reply) {
      for (const m of reply.before) this.sink.message(m);
      this.deliver(id, reply.then);
    } else if ('fail' in reply) this.sink.requestFailed(id, reply.fail);
    else if ('error' in reply) this.sink.message({ jsonrpc: '2.0', id, error: reply.error });
    else this.sink.message({ jsonrpc: '2.0', id, result: reply.result });
  }

  private record(kind: SentRecord['kind'], message: JSONRPCMessage, options: SendOptions): void {
    this.sent.push({
      kind,
      message,
      headers: { ...(options.headers ?? {}) },
      longLived: options.longLived === true,
    });
  }

  private live(): ClientTransportSink {
    if (!this.sink) throw new Error('the scripted transport is not started');
    return this.sink;
  }
}

/** Lets queued microtasks and the scripted replies run. */
export function settle(ms = 0): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
