/**
 * The bridge's downstream server: an `McpServer` (both eras, listen and subscribe, logging
 * level, the transports' set-up) whose tools, prompts, resources, templates and completions are
 * the upstream's. Those requests are answered by asking the upstream (pages passed through as
 * they come); tool results and prompt messages go through the profile's rewriter.
 */
import type { McpClient, Progress } from '../client/index.js';
import { cancelledIdOf, errorResponse, resultResponse } from '../protocol/jsonrpc.js';
import type {
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResponse,
  RequestId,
} from '../protocol/jsonrpc.js';
import type { Era, ServerCapabilities, Tool } from '../protocol/index.js';
import { McpServer } from '../server/index.js';
import { DEFAULT_READ_TOOL_BYTES } from '../content/readable-links.js';
import type { HandleExtra, Peer, PeerOptions } from '../server/transport.js';
import { rewritePromptResult, rewriteToolResult, type RewriteContext } from './rewrite/index.js';
import { DECISIONS, logDecisions } from './decision-log.js';
import { forwardable, hostCapabilities, logSink } from './forward-request.js';
import { forwardParked } from './forward-input.js';
import { hostError, hostResult, upstreamParams } from './forward-shape.js';
import { OwnTools } from './own-tools.js';
import type { ParkedCall } from './parked-call.js';
import { callerOf, INPUT_METHODS, ParkedInputs } from './parked-inputs.js';
import { SpillStore } from './spill-store.js';
import { ToolSchemas } from './tool-schemas.js';
import type { Upstream } from './upstream.js';
import { UpstreamChanges } from './upstream-changes.js';
import type { BridgeOptions } from './bridge-options.js';

type Obj = Record<string, unknown>;

export const DEFAULT_MAX_LINK_BYTES = 256 * 1024;

export type { BridgeOptions } from './bridge-options.js';

/** A host connection that may be asked for input, and where its request's messages go. */
export interface Asker {
  peer: Peer;
  send: (message: JSONRPCMessage) => void;
}

export class BridgeServer extends McpServer {
  private own: OwnTools | undefined;
  private readonly changes: UpstreamChanges;
  private readonly downstream = new Set<Peer>();
  /** Which host request asked, by the signal its upstream request carries (input requests). */
  private readonly askers = new WeakMap<AbortSignal, Asker>();
  private readonly schemas = new ToolSchemas();
  /** Forwarded requests in flight per host connection, for its `notifications/cancelled`. */
  private readonly inflight = new WeakMap<Peer, Map<RequestId, AbortController>>();
  /**
   * Forwarded requests in flight (of every host): who asked, where its logs go, and where its
   * server-to-client requests go (its own stream: a 2025-11-25 POST's SSE stream over HTTP).
   */
  private readonly live = new Map<
    AbortController,
    [peer: Peer, notify: (message: JSONRPCMessage) => void, caller: string, asker: Asker]
  >();
  private readonly timeoutMs: number;
  private readonly spill: SpillStore;
  /** 2026-07-28 hosts' calls waiting for their input to a 2025-11-25 upstream's requests. */
  private readonly parking: ParkedInputs | undefined;

  constructor(
    private readonly upstream: Upstream,
    private readonly bridge: BridgeOptions,
  ) {
    const client = upstream.client;
    const info = client.serverInfo ?? { name: 'mcpkit-bridge', version: '0' };
    super({
      ...info,
      ...(client.instructions !== undefined ? { instructions: client.instructions } : {}),
      ...(bridge.onWarning ? { onWarning: bridge.onWarning } : {}),
    });
    this.timeoutMs = bridge.requestTimeoutMs ?? 60_000;
    this.spill = new SpillStore(bridge.maxSpillBytes, bridge.maxSpillCount);
    this.parking = bridge.forwardInput
      ? new ParkedInputs({
          timeoutMs: this.timeoutMs,
          ...(bridge.maxParkedInputs !== undefined ? { maxParked: bridge.maxParkedInputs } : {}),
          ...(bridge.inputTtlMs !== undefined ? { ttlMs: bridge.inputTtlMs } : {}),
        })
      : undefined;
    this.changes = new UpstreamChanges(() => this.upstream.client, {
      listChanged: (kind) => {
        if (kind === 'tools') void this.nameOwnTools().catch(() => undefined);
        this.notifyListChanged(kind);
      },
      resourceUpdated: (uri) => this.notifyResourceUpdated(uri),
      warn: (message) => this.warnLine(message),
    });
    this.onAttach({
      attach: (uri) => void this.changes.attach(uri),
      detach: (uri) => this.changes.detach(uri),
    });
  }

  /** Names the own tools and starts forwarding changes; call once the upstream is connected. */
  async start(): Promise<void> {
    await this.nameOwnTools();
    await this.changes.open();
  }

  /** After an upstream restart: everything may have changed. */
  async restarted(): Promise<void> {
    await this.nameOwnTools().catch(() => undefined);
    await this.changes.open();
    for (const kind of ['tools', 'prompts', 'resources'] as const) this.notifyListChanged(kind);
  }

  /** The name of the read tool the rewriter points to (`read_resource`, or prefixed). */
  get readToolName(): string {
    return this.own?.readName ?? 'read_resource';
  }

  override capabilities(): ServerCapabilities {
    const upstream = (this.upstream.client.serverCapabilities ?? {}) as ServerCapabilities;
    const caps: ServerCapabilities = structuredClone(upstream);
    if (this.own) caps.tools = { listChanged: true, ...(caps.tools ?? {}) };
    return caps;
  }

  override toolInputSchema(name: string): Readonly<Tool['inputSchema']> | undefined {
    return this.own?.inputSchema(name) ?? this.schemas.get(name);
  }

  override connect(options: PeerOptions): Peer {
    const peer = super.connect(options);
    this.downstream.add(peer);
    peer.onClose(() => {
      this.downstream.delete(peer);
      this.parking?.drop(peer);
      for (const cancel of this.inflight.get(peer)?.values() ?? []) cancel.abort();
    });
    const inner = peer.handle.bind(peer);
    peer.handle = (raw: unknown, extra: HandleExtra = {}) => {
      this.cancelled(peer, raw);
      const request = forwardable(peer, raw, extra, this.options.maxDepth);
      return request ? this.forward(peer, request.message, request.era, extra) : inner(raw, extra);
    };
    return peer;
  }

  override close(): void {
    this.changes.close();
    this.parking?.close();
    super.close();
  }

  /** The 2026-07-28 host's call a 2025-11-25 upstream's input request belongs to, if one. */
  inputCall(): ParkedCall | undefined {
    return this.parking?.owner(this.live.size, this.oneHost());
  }

  /**
   * Whether every upstream request open (forwarded ones in flight, parked calls not ended) is
   * one host's: one connection and one caller. Only then can a 2025-11-25 upstream's request or
   * log, which names no request, be given to a host.
   */
  private oneHost(): boolean {
    const hosts = new Set<string>();
    const ids = new Map<Peer, number>();
    const key = (peer: Peer, caller: string): string => {
      if (!ids.has(peer)) ids.set(peer, ids.size);
      return `${ids.get(peer)}\u0000${caller}`;
    };
    for (const [peer, , caller] of this.live.values()) hosts.add(key(peer, caller));
    for (const call of this.parking?.openCalls() ?? [])
      hosts.add(key(call.peer, call.binding.caller));
    return hosts.size <= 1;
  }

  /**
   * The host connection an upstream input request belongs to (its request's signal), and where
   * to send it: on that request's own stream when there is one.
   */
  askerOf(signal: AbortSignal | undefined): Asker | undefined {
    const asker = signal ? this.askers.get(signal) : undefined;
    if (asker) return asker;
    // A 2025-11-25 upstream's own request names no request. It asks while the request that needs
    // the input is in flight: with one forwarded request in flight, it is that one's host;
    // otherwise only a single host is unambiguous. A parked call's upstream request is open too.
    if (this.live.size === 1 && this.oneHost()) return [...this.live.values()][0]?.[3];
    const peer = this.downstream.size === 1 ? [...this.downstream][0] : undefined;
    return peer ? { peer, send: peer.send } : undefined;
  }

  /**
   * Upstream log notifications. An upstream sends a request's own logs before its answer, so a
   * log that comes while exactly one forwarded request is in flight (of any host) is that
   * request's or the upstream's own: it goes on that request's stream. Otherwise it goes to a
   * single host connection, and with several it is dropped: never to another host's.
   */
  upstreamNotification(note: { method: string; params?: Obj }): void {
    if (note.method !== 'notifications/message') return;
    const message: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: note.method,
      params: note.params ?? {},
    };
    if (this.live.size === 1 && this.oneHost()) {
      const [peer, notify] = [...this.live.values()][0] as [
        Peer,
        (m: JSONRPCMessage) => void,
        ...unknown[],
      ];
      if (!peer.isClosed) notify(message);
      return;
    }
    const peer = this.downstream.size === 1 ? [...this.downstream][0] : undefined;
    // A 2026-07-28 host gets logs only on a request that named a level.
    if (peer?.session && !peer.isClosed) peer.send(message);
  }

  private async nameOwnTools(): Promise<void> {
    if (this.bridge.profile.readsResources !== false) return;
    const client = this.upstream.client;
    const tools = client.serverCapabilities?.tools ? await client.listTools() : [];
    this.schemas.setAll(tools);
    const before = this.own?.readName;
    this.own = new OwnTools(new Set(tools.map((t) => t.name)), {
      read: async (uri) =>
        this.spill.read(uri) ??
        (await this.upstream.send(this.timeoutMs, (c) =>
          c.readResource(uri, { timeoutMs: this.timeoutMs }),
        )),
      // As read, it waits for an upstream restart under way (as forwarded requests do).
      list: async (cursor) =>
        (await this.upstream.send(this.timeoutMs, (c) =>
          c.request('resources/list', cursor === undefined ? {} : { cursor }, {
            timeoutMs: this.timeoutMs,
          }),
        )) as never,
      maxBytes: this.bridge.maxReadBytes ?? DEFAULT_READ_TOOL_BYTES,
    });
    if (before !== undefined && before !== this.own.readName) this.notifyListChanged('tools');
  }

  private inflightOf(peer: Peer): Map<RequestId, AbortController> {
    let map = this.inflight.get(peer);
    if (!map) this.inflight.set(peer, (map = new Map()));
    return map;
  }

  /** A host's `notifications/cancelled` aborts the forwarded request (and so the upstream's). */
  private cancelled(peer: Peer, raw: unknown): void {
    const id = cancelledIdOf(raw);
    if (id !== undefined && peer.cancelById) this.inflight.get(peer)?.get(id)?.abort();
  }

  private async forward(
    peer: Peer,
    request: JSONRPCRequest,
    era: Era,
    extra: HandleExtra,
  ): Promise<JSONRPCResponse | undefined> {
    const { id, method } = request;
    const params = request.params ?? {};
    const cancel = new AbortController();
    const outer = typeof extra.signal === 'function' ? extra.signal() : extra.signal;
    if (outer?.aborted) cancel.abort();
    else outer?.addEventListener('abort', () => cancel.abort(), { once: true });
    const inflight = this.inflightOf(peer);
    inflight.set(id, cancel);
    const asker: Asker = { peer, send: extra.notify ?? peer.send };
    this.askers.set(cancel.signal, asker);
    this.live.set(cancel, [
      peer,
      logSink(era, params, asker.send),
      callerOf(extra.authInfo),
      asker,
    ]);
    try {
      const result = await this.answer(peer, method, params, cancel.signal, extra, era);
      if (cancel.signal.aborted) return undefined;
      return resultResponse(id, hostResult(method, result, era, this.info));
    } catch (error) {
      if (cancel.signal.aborted) return undefined;
      const e = hostError(method, error);
      return errorResponse(id, e.code, e.message, e.data);
    } finally {
      if (inflight.get(id) === cancel) inflight.delete(id);
      this.live.delete(cancel);
    }
  }

  private async answer(
    peer: Peer,
    method: string,
    params: Obj,
    signal: AbortSignal,
    extra: HandleExtra,
    era: Era,
  ): Promise<Obj> {
    if (method === 'tools/call' && this.own?.has(params['name']))
      return (await this.own.call(String(params['name']), params['arguments'])) as unknown as Obj;
    let client = await this.upstream.ready(this.timeoutMs);
    // An upstream without tools still gets the bridge's own two.
    if (method === 'tools/list' && this.own && !client.serverCapabilities?.tools)
      return { tools: structuredClone(this.own.tools) };
    const meta = params['_meta'] as Obj | undefined;
    const token = meta?.['progressToken'];
    const notify = extra.notify ?? peer.send;
    const onProgress =
      typeof token === 'string' || typeof token === 'number'
        ? (p: Progress) =>
            notify({
              jsonrpc: '2.0',
              method: 'notifications/progress',
              params: { progressToken: token, ...p },
            })
        : undefined;
    const progress = onProgress ? { onProgress } : {};
    if (this.parking && era === 'modern' && client.era === 'legacy' && INPUT_METHODS.has(method)) {
      const parked = await forwardParked(
        {
          parking: this.parking,
          upstream: this.upstream,
          timeoutMs: this.timeoutMs,
          laneFor: this.bridge.laneFor,
        },
        { peer, method, params, signal, authInfo: extra.authInfo, onProgress },
      );
      const result = parked.result;
      if (result['resultType'] === 'input_required') return result;
      client = parked.client ?? client;
      return this.finish(method, params, result, client, signal);
    }
    const result = await this.upstream.send(this.timeoutMs, (c) =>
      (client = c).request(method, upstreamParams(params), {
        signal,
        // A 2026-07-28 host answers the upstream's input_required itself and retries through here.
        ...(era === 'modern' && c.era === 'modern'
          ? { inputRequired: 'return' as const, clientCapabilities: hostCapabilities(params) }
          : {}),
        // 2025-11-25 sessions log by default (or from their level); a 2026-07-28 upstream logs
        // only at the level a request names.
        ...(peer.session && c.era === 'modern'
          ? { meta: { 'io.modelcontextprotocol/logLevel': peer.session.logLevel ?? 'debug' } }
          : {}),
        timeoutMs: this.timeoutMs,
        cache: false,
        ...progress,
      }),
    );
    return this.finish(method, params, result, client, signal);
  }

  /** The upstream's final result as the host gets it (own tools added, rewritten). */
  private async finish(
    method: string,
    params: Obj,
    result: Obj,
    client: McpClient,
    signal: AbortSignal,
  ): Promise<Obj> {
    if (method === 'tools/list') return this.withOwnTools(result);
    // The upstream's own _meta decisions (if any) are not the bridge's: only new ones are logged.
    const before = (result['_meta'] as Obj | undefined)?.[DECISIONS];
    const ctx = (): RewriteContext => this.context(client, signal);
    const rewritten =
      method === 'tools/call'
        ? await rewriteToolResult(result as never, ctx())
        : method === 'prompts/get'
          ? await rewritePromptResult(result as never, ctx())
          : undefined;
    if (!rewritten) return result;
    return logDecisions(this.bridge.onDecision, method, params, before, rewritten);
  }

  private context(client: McpClient, signal: AbortSignal): RewriteContext {
    return {
      profile: this.bridge.profile,
      upstream: client,
      maxLinkBytes: this.bridge.maxLinkBytes ?? DEFAULT_MAX_LINK_BYTES,
      maxResultChars: this.bridge.maxResultChars,
      readToolName: this.readToolName,
      signal,
      // Only the bridge's own read_resource serves what was kept.
      spill: this.own ? (text, mimeType) => this.spill.keep(text, mimeType) : undefined,
      pdf: this.bridge.pdf,
    };
  }

  /** A page of tools; the last one also lists the bridge's own. */
  private withOwnTools(page: Obj): Obj {
    const tools = Array.isArray(page['tools']) ? (page['tools'] as Tool[]) : [];
    this.schemas.setAll(tools);
    if (!this.own || page['nextCursor'] !== undefined) return page;
    return { ...page, tools: [...tools, ...structuredClone(this.own.tools)] };
  }

  private warnLine(message: string): void {
    (this.bridge.onWarning ?? ((m: string) => console.warn(m)))(`mcpkit bridge: ${message}`);
  }
}
