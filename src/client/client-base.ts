/**
 * The engine under `McpClient`: connecting (era detection), the per-request envelope, checked
 * results, input requests, the cache, sessions that expire, and notification routing. The typed
 * methods live in `client.ts`.
 */
import { McpKitError } from '../errors/index.js';
import type {
  ClientCapabilities,
  Era,
  Implementation,
  JSONRPCNotification,
  ServerCapabilities,
  Tool,
} from '../protocol/index.js';
import { ClientCache } from './cache.js';
import { Connection, type SendRequestOptions } from './connection.js';
import { envelopeOf, standardHeaders, withMeta, type Envelope } from './envelope.js';
import type { ServerIdentity } from './era-detect.js';
import { handshake, initialize, type HandshakeDeps } from './handshake.js';
import { capabilitiesFromHandlers } from './input-handlers.js';
import { inputContext, withInputs } from './mrtr.js';
import { ListenRegistry } from './listen-registry.js';
import { listLimitsOf, paginate, type ListMethod } from './lists.js';
import {
  DEFAULT_DISCOVER_TIMEOUT_MS,
  DEFAULT_MAX_INPUT_REQUESTS,
  checkClientLimits,
  clientCacheOf,
  DEFAULT_MAX_INPUT_ROUNDS,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from './options.js';
import type { ClientWarning, McpClientOptions, RequestOptions } from './options.js';
import { checkResult } from './result-check.js';
import { isCacheable, mayRequireInput } from '../protocol/methods.js';
import { listenerThrew, tellRaw, type NotificationListener } from './notification-listener.js';
import { Emitter } from '../protocol/emitter.js';
import { WarningLog } from './warning-log.js';
import { ServerRequestGate } from './server-request-gate.js';
import { timeLeft, ToolHeaderTable, type CallLimit } from './tool-headers.js';
import type { ClientTransport } from './transport.js';

type Obj = Record<string, unknown>;
type HeaderSet = Record<string, string>;

export type { RequestOptions };

const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcpkit', version: '0.1.0' };

export abstract class ClientBase {
  readonly transport: ClientTransport;
  private readonly conn: Connection;
  private readonly capabilities: ClientCapabilities;
  private readonly clientInfo: Implementation;
  protected readonly cacheStore: ClientCache | undefined;
  private readonly credential: string;
  protected readonly warningLog = new WarningLog(() => this.options.onWarning);
  /** Listeners that see every notification; one that throws is a warning, never stops the rest. */
  protected readonly noteListeners = new Emitter<Parameters<NotificationListener>[0]>((error) =>
    this.warningLog.add(listenerThrew(error)),
  );
  private identity: ServerIdentity | undefined;
  private pinnedEra: Era | undefined;
  private state: 'idle' | 'connecting' | 'open' | 'closed' = 'idle';
  protected readonly toolHeaders = new ToolHeaderTable(() => this.listTools());
  protected readonly listens: ListenRegistry;
  private reinitializing: Promise<void> | undefined;
  /** Counts the 2025-11-25 sessions this client re-created. */
  private sessionEpoch = 0;
  private connecting: Promise<this> | undefined;
  private envelopeHeld: [ServerIdentity, Envelope] | undefined;

  /** Every tool of every page (the header table needs it). */
  abstract listTools(options?: RequestOptions): Promise<Tool[]>;

  constructor(protected readonly options: McpClientOptions) {
    checkClientLimits(options);
    this.transport = options.transport;
    this.clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
    this.capabilities = options.capabilities ?? capabilitiesFromHandlers(options.handlers);
    this.pinnedEra = options.era === 'auto' ? undefined : options.era;
    [this.credential, this.cacheStore] = clientCacheOf(options.cache);
    this.conn = new Connection(this.transport, {
      notification: (note) => this.onNotification(note),
      serverRequest: new ServerRequestGate(() => ({
        transport: this.transport,
        handlers: this.options.handlers,
        serverInfo: this.serverInfo,
        era: this.era ?? this.pinnedEra,
        protocolVersion: this.protocolVersion,
        warn: this.warningLog.add,
      })).take,
      warn: (code, message) => this.warningLog.add({ code, message }),
      closed: (error) => this.onClosed(error),
    });
    this.listens = new ListenRegistry({
      conn: this.conn,
      prepare: (filter, meta) => {
        const params = withMeta(this.envelope(), { notifications: filter }, meta);
        return { params, headers: this.headersFor('subscriptions/listen', params) ?? {} };
      },
      subscribe: (uri) => this.once('resources/subscribe', { uri }, {}),
      unsubscribe: (uri) => this.once('resources/unsubscribe', { uri }, {}),
      connected: () => this.connected,
      warn: this.warningLog.add,
    });
  }

  /** `modern` (2026-07-28) or `legacy` (2025-11-25); undefined before `connect()`. */
  get era(): Era | undefined {
    return this.identity?.era;
  }
  get protocolVersion(): string | undefined {
    return this.identity?.protocolVersion;
  }
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.identity?.capabilities;
  }
  get serverInfo(): Implementation | undefined {
    return this.identity?.serverInfo;
  }
  get instructions(): string | undefined {
    return this.identity?.instructions;
  }
  /** The `server/discover` or `initialize` result the era was found from. */
  get handshakeResult(): Obj | undefined {
    return this.identity?.result;
  }
  /** The last warnings (repairs, dropped tools and icons, odd messages), oldest first. */
  get warnings(): readonly ClientWarning[] {
    return this.warningLog.kept;
  }
  get connected(): boolean {
    return this.state === 'open';
  }

  /** `close()` may run while `open()` awaits: read the state afresh. */
  protected isClosed(): boolean {
    return this.state === 'closed';
  }

  /** Starts the transport and finds the server's era (probing unless it was pinned). */
  connect(): Promise<this> {
    if (this.state === 'open') return Promise.resolve(this);
    // Concurrent calls share one handshake instead of starting the transport twice.
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<this> {
    this.state = 'connecting';
    try {
      await this.conn.start();
      const identity = await handshake(this.handshakeDeps(this.pinnedEra));
      if (this.isClosed()) {
        throw new McpKitError('PEER_CLOSED', 'the client was closed while it connected');
      }
      this.identity = identity;
      this.state = 'open';
      return this;
    } catch (error) {
      if (!this.isClosed()) this.state = 'idle';
      await this.transport.close().catch(() => undefined);
      throw error;
    }
  }

  /** Starts the server (or the HTTP connection) again, in the era found the first time. */
  async reconnect(): Promise<this> {
    if (this.identity) this.pinnedEra = this.identity.era;
    this.conn.failAll(new McpKitError('PEER_CLOSED', 'the client reconnected'));
    await this.transport.close().catch(() => undefined);
    this.state = 'idle';
    this.toolHeaders.forget();
    return this.connect();
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.listens.endAll();
    this.conn.failAll(new McpKitError('PEER_CLOSED', 'the client was closed'));
    await this.transport.close();
  }

  /**
   * Sends any request and returns its checked result (input requests answered through the
   * handlers, cacheable answers cached).
   */
  async request(method: string, params: Obj = {}, options: RequestOptions = {}): Promise<Obj> {
    this.requireOpen(method);
    const cache =
      this.cacheStore !== undefined && options.cache !== false && isCacheable(method)
        ? this.cacheStore
        : undefined;
    if (cache) {
      const hit = cache.get(this.credential, method, params);
      if (hit) {
        for (const name of hit.dropped) this.toolHeaders.drop(name);
        return hit.result;
      }
    }
    const stamp = cache?.stamp();
    const dropped: string[] = [];
    let result = await this.once(method, params, options, dropped);
    let rounds = 0;
    if (
      result['resultType'] === 'input_required' &&
      this.era === 'modern' &&
      options.inputRequired !== 'return' &&
      mayRequireInput(method)
    ) {
      ({ result, rounds } = await withInputs(
        method,
        params,
        (p) => this.once(method, p, options, dropped),
        this.options.handlers,
        inputContext(method, params, this.serverInfo, options.signal),
        this.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
        this.options.maxInputRequests ?? DEFAULT_MAX_INPUT_REQUESTS,
        result,
      ));
    }
    // A result that answers input responses is not the answer to the plain request.
    if (cache && rounds === 0) {
      cache.put(this.credential, method, params, result, { stamp: stamp as number, dropped });
    }
    return result;
  }

  private handshakeDeps(era: Era | undefined): HandshakeDeps {
    const deps: HandshakeDeps = {
      conn: this.conn,
      era,
      capabilities: this.capabilities,
      clientInfo: this.clientInfo,
      envelopeFor: (e, v) => this.envelopeFor(e, v),
      probeTimeoutMs:
        this.transport.kind === 'stdio'
          ? (this.options.discoverTimeoutMs ?? DEFAULT_DISCOVER_TIMEOUT_MS)
          : this.timeoutOf({}),
      timeoutMs: this.timeoutOf({}),
      warn: this.warningLog.add,
    };
    const cache = this.cacheStore;
    if (cache) deps.discovered = (r) => cache.put(this.credential, 'server/discover', {}, r);
    return deps;
  }

  private envelopeFor(era: Era, protocolVersion: string): Envelope {
    return envelopeOf({
      era,
      protocolVersion,
      clientInfo: this.clientInfo,
      capabilities: this.capabilities,
      maxMessageBytes: this.transport.maxMessageBytes,
    });
  }

  private envelope(): Envelope {
    const id = this.identity as ServerIdentity;
    // One envelope per identity, so that its shared `_meta` is built once.
    if (this.envelopeHeld?.[0] !== id)
      this.envelopeHeld = [id, this.envelopeFor(id.era, id.protocolVersion)];
    return this.envelopeHeld[1];
  }

  private headersFor(
    method: string,
    params: Obj,
    extra?: Record<string, string>,
  ): Record<string, string> | undefined {
    // Headers are HTTP's; over stdio they would only be built to be dropped.
    if (this.transport.kind !== 'http') return undefined;
    const headers = standardHeaders(this.protocolVersion, method, params);
    return extra ? Object.assign(headers, extra) : headers;
  }

  protected timeoutOf(options: RequestOptions): number {
    return options.timeoutMs ?? this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  protected requireOpen(method: string): void {
    if (this.state !== 'open') {
      throw new McpKitError(
        'NOT_CONNECTED',
        `${method}: the client is ${this.state === 'closed' ? 'closed' : 'not connected'}; call connect() first`,
      );
    }
  }

  /** One request, one answer, checked; a lost 2025-11-25 session is re-initialized once. */
  private async once(
    method: string,
    params: Obj,
    options: RequestOptions,
    dropped?: string[],
    retried = false,
  ): Promise<Obj> {
    // A 2025-11-25 session being re-created: nothing goes out under the old one meanwhile.
    if (this.reinitializing) await this.reinitializing;
    const epoch = this.sessionEpoch;
    const sendParams = withMeta(this.envelope(), params, options.meta);
    // A proxy speaks for its own client: that client's capabilities, not this one's.
    if (options.clientCapabilities && this.era === 'modern')
      sendParams['_meta'] = {
        ...(sendParams['_meta'] as Obj),
        ['io.modelcontextprotocol/clientCapabilities']: options.clientCapabilities,
      };
    let extra: Record<string, string> | undefined;
    const budgetMs = this.timeoutOf(options);
    let timeoutMs = budgetMs;
    if (method === 'tools/call') {
      this.toolHeaders.refuseDropped(String(params['name']));
      const started = performance.now();
      extra = await this.paramHeaders(params, { timeoutMs, signal: options.signal });
      timeoutMs = timeLeft(timeoutMs, started); // the tool list it waited for took part of it
    }
    const send: SendRequestOptions = { timeoutMs, budgetMs };
    const headers = this.headersFor(method, sendParams, extra);
    if (headers) send.headers = headers;
    if (options.signal) send.signal = options.signal;
    if (options.maxResponseBytes) send.maxResponseBytes = options.maxResponseBytes;
    if (options.onProgress) send.onProgress = options.onProgress;
    try {
      const raw = await this.conn.send(method, sendParams, send).done;
      if (options.onRawResult) tellRaw(options.onRawResult, raw, this.warningLog.add);
      const drop =
        method === 'tools/list'
          ? (name: string): void => {
              this.toolHeaders.drop(name);
              dropped?.push(name);
            }
          : undefined;
      const checked = checkResult(this.era as Era, method, raw, this.warningLog.add, drop);
      // Most results are checked synchronously: no extra turn for them.
      return checked instanceof Promise ? await checked : checked;
    } catch (error) {
      if (!retried && error instanceof McpKitError && error.code === 'SESSION_EXPIRED') {
        // Only the first request to see the old session expire starts a new one.
        if (epoch === this.sessionEpoch) await this.reinitialize();
        return this.once(method, params, options, dropped, true);
      }
      throw error;
    }
  }

  private reinitialize(): Promise<void> {
    this.reinitializing ??= (async () => {
      this.transport.resetSession();
      this.identity = await initialize(this.handshakeDeps('legacy'));
      this.sessionEpoch++;
    })().finally(() => {
      this.reinitializing = undefined;
    });
    return this.reinitializing;
  }

  /** The `Mcp-Param` headers of a modern `tools/call` over HTTP (from the tool's schema). */
  private async paramHeaders(params: Obj, limit: CallLimit): Promise<HeaderSet | undefined> {
    if (this.transport.kind !== 'http' || this.era !== 'modern') return undefined;
    const args = params['arguments'] as Obj | undefined;
    return this.toolHeaders.headersFor(String(params['name']), args, limit);
  }

  protected async *iterate<T>(method: ListMethod, options: RequestOptions = {}): AsyncGenerator<T> {
    yield* paginate<T>(
      method,
      (cursor) => this.request(method, cursor === undefined ? {} : { cursor }, options),
      listLimitsOf(this.options),
    );
  }

  private onNotification(note: JSONRPCNotification): void {
    this.cacheStore?.invalidate(note as { method: string; params?: Obj });
    this.noteListeners.emit(note as { method: string; params?: Obj });
    if (note.method === 'notifications/tools/list_changed') this.toolHeaders.forget();
    if (this.listens.route(note)) return;
    try {
      this.options.onNotification?.(note);
    } catch (error) {
      this.warningLog.add({
        code: 'HANDLER_FAILED',
        message: `onNotification threw: ${String(error)}`,
      });
    }
  }

  private onClosed(error: McpKitError): void {
    this.listens.endAll(error.code === 'PEER_CLOSED' ? undefined : error);
    if (this.state === 'open') this.state = 'idle';
  }
}
