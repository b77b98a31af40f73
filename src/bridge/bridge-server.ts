/**
 * The bridge's downstream server: an `McpServer` (both eras, listen and subscribe, logging
 * level, the transports' set-up) whose tools, prompts, resources, templates and completions are
 * the upstream's. Those requests are answered by asking the upstream (pages passed through as
 * they come); tool results and prompt messages go through the profile's rewriter.
 */
import type { McpClient } from '../client/index.js';
import { DEFAULT_MAX_DEPTH, deepField } from '../protocol/depth.js';
import { requestEra } from '../protocol/era.js';
import { classify, errorResponse, resultResponse } from '../protocol/jsonrpc.js';
import type {
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResponse,
  RequestId,
} from '../protocol/jsonrpc.js';
import type {
  CallToolResult,
  Era,
  GetPromptResult,
  ServerCapabilities,
  Tool,
} from '../protocol/index.js';
import { validateParams } from '../protocol/validate.js';
import { isModernVersion } from '../protocol/versions.js';
import { checkModernMeta } from '../server/transport.js';
import { McpServer } from '../server/index.js';
import { DEFAULT_READ_TOOL_BYTES } from '../content/readable-links.js';
import type { HandleExtra, Peer, PeerOptions } from '../server/transport.js';
import type { HostProfile } from './profiles/index.js';
import type { PdfExtractOptions } from './pdf/pdf-text.js';
import { rewritePromptResult, rewriteToolResult, type RewriteContext } from './rewrite/index.js';
import { FORWARDED_METHODS, hostError, hostResult, upstreamParams } from './forward-shape.js';
import { OwnTools } from './own-tools.js';
import { SpillStore } from './spill-store.js';
import type { Upstream } from './upstream.js';
import { UpstreamChanges } from './upstream-changes.js';

type Obj = Record<string, unknown>;

export const DEFAULT_MAX_LINK_BYTES = 256 * 1024;

export interface BridgeOptions {
  profile: HostProfile;
  /** `--max-link-bytes`: the most one resolved link brings (default 256 KiB). */
  maxLinkBytes?: number;
  /** `--max-result-chars`: the most text one result carries (default: the profile's). */
  maxResultChars?: number;
  /** Each upstream request's time (default 60 s): a hung upstream fails the host's request then. */
  requestTimeoutMs?: number;
  /** Most bytes one `read_resource` call returns (default 4 MiB). */
  maxReadBytes?: number;
  /**
   * The rest of results cut to the host's limit is kept for `read_resource` (when the bridge adds
   * it) up to these bounds, oldest evicted first (default 8 MiB, 32 texts; 0 keeps none).
   */
  maxSpillBytes?: number;
  maxSpillCount?: number;
  /** `--extract-pdf`: the text of PDFs the host would not see, within these limits (off by default). */
  pdf?: PdfExtractOptions;
  /** Each decision of a rewritten result (`_meta["dev.mcpkit/decisions"]`), for `--log`. */
  onDecision?: (entry: Obj) => void;
  onWarning?: (message: string) => void;
}

const DECISIONS = 'dev.mcpkit/decisions';

/** The capabilities a 2026-07-28 host declared on its request (it answers input_required itself). */
function hostCapabilities(params: Obj): Obj {
  const caps = (params['_meta'] as Obj | undefined)?.['io.modelcontextprotocol/clientCapabilities'];
  return typeof caps === 'object' && caps !== null && !Array.isArray(caps) ? (caps as Obj) : {};
}

export class BridgeServer extends McpServer {
  private own: OwnTools | undefined;
  private readonly changes: UpstreamChanges;
  private readonly downstream = new Set<Peer>();
  /** Which host connection asked, by the signal its upstream request carries (input requests). */
  private readonly askers = new WeakMap<AbortSignal, Peer>();
  private readonly schemas = new Map<string, Tool['inputSchema']>();
  /** Forwarded requests in flight per host connection, for its `notifications/cancelled`. */
  private readonly inflight = new WeakMap<Peer, Map<RequestId, AbortController>>();
  /** Where each forwarded request's own notifications go (its response stream, over HTTP). */
  /** Forwarded requests in flight (of every host): who asked, and where its notifications go. */
  private readonly live = new Map<
    AbortController,
    [peer: Peer, notify: (message: JSONRPCMessage) => void]
  >();
  private readonly timeoutMs: number;
  private readonly spill: SpillStore;

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
      for (const cancel of this.inflight.get(peer)?.values() ?? []) cancel.abort();
    });
    const inner = peer.handle.bind(peer);
    peer.handle = (raw: unknown, extra: HandleExtra = {}) => {
      this.cancelled(peer, raw);
      const request = this.forwardable(peer, raw, extra);
      return request ? this.forward(peer, request.message, request.era, extra) : inner(raw, extra);
    };
    return peer;
  }

  override close(): void {
    this.changes.close();
    super.close();
  }

  /** The host connection an upstream input request belongs to (its request's signal). */
  askerOf(signal: AbortSignal | undefined): Peer | undefined {
    const peer = signal ? this.askers.get(signal) : undefined;
    if (peer) return peer;
    // A 2025-11-25 upstream's own request names no request. It asks while the request that needs
    // the input is in flight: with one forwarded request in flight, it is that one's host;
    // otherwise only a single host is unambiguous.
    if (this.live.size === 1) return [...this.live.values()][0]?.[0];
    return this.downstream.size === 1 ? [...this.downstream][0] : undefined;
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
    if (this.live.size === 1) {
      const [[peer, notify]] = [...this.live.values()] as [[Peer, (m: JSONRPCMessage) => void]];
      if (!peer.isClosed) notify(message);
      return;
    }
    if (this.downstream.size !== 1) return;
    const peer = [...this.downstream][0] as Peer;
    if (!peer.isClosed) peer.send(message);
  }

  private async nameOwnTools(): Promise<void> {
    if (this.bridge.profile.readsResources !== false) return;
    const client = this.upstream.client;
    const tools = client.serverCapabilities?.tools ? await client.listTools() : [];
    for (const t of tools) this.schemas.set(t.name, t.inputSchema);
    const before = this.own?.readName;
    this.own = new OwnTools(new Set(tools.map((t) => t.name)), {
      read: async (uri) =>
        this.spill.read(uri) ??
        (await this.upstream.send(this.timeoutMs, (c) =>
          c.readResource(uri, { timeoutMs: this.timeoutMs }),
        )),
      list: async (cursor) =>
        (await this.upstream.client.request(
          'resources/list',
          cursor === undefined ? {} : { cursor },
          {
            timeoutMs: this.timeoutMs,
          },
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
    const note = raw as { method?: unknown; id?: unknown; params?: { requestId?: unknown } };
    if (note?.method !== 'notifications/cancelled' || note.id !== undefined || !peer.cancelById)
      return;
    const id = note.params?.requestId;
    if (typeof id === 'string' || typeof id === 'number') this.inflight.get(peer)?.get(id)?.abort();
  }

  /** The request, when the bridge forwards it: well-formed, in a known era; else the engine answers. */
  private forwardable(
    peer: Peer,
    raw: unknown,
    extra: HandleExtra,
  ): { message: JSONRPCRequest; era: Era } | undefined {
    const c = classify(raw);
    if (c.kind !== 'request' || !FORWARDED_METHODS.has(c.message.method)) return undefined;
    const { method } = c.message;
    const params = c.message.params ?? {};
    if (deepField(c.message, this.options.maxDepth ?? DEFAULT_MAX_DEPTH) !== undefined)
      return undefined;
    const era = extra.era ?? requestEra({ method, params, inSession: peer.session !== undefined });
    if (era === 'modern') {
      if (checkModernMeta(params['_meta'], method)) return undefined;
      const meta = params['_meta'] as Obj;
      if (!isModernVersion(meta['io.modelcontextprotocol/protocolVersion'])) return undefined;
    } else if (!peer.session) return undefined;
    if (validateParams(era, method, params)) return undefined;
    return { message: c.message, era };
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
    this.askers.set(cancel.signal, peer);
    this.live.set(cancel, [peer, extra.notify ?? peer.send]);
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
        ...(typeof token === 'string' || typeof token === 'number'
          ? {
              onProgress: (p) =>
                notify({
                  jsonrpc: '2.0',
                  method: 'notifications/progress',
                  params: { progressToken: token, ...p },
                }),
            }
          : {}),
      }),
    );
    if (method === 'tools/list') return this.withOwnTools(result);
    // The upstream's own _meta decisions (if any) are not the bridge's: only new ones are logged.
    const before = (result['_meta'] as Obj | undefined)?.[DECISIONS];
    const ctx = (): RewriteContext => this.context(client, signal);
    if (method === 'tools/call')
      return this.logged(method, params, before, await rewriteToolResult(result as never, ctx()));
    if (method === 'prompts/get')
      return this.logged(method, params, before, await rewritePromptResult(result as never, ctx()));
    return result;
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
    for (const t of tools) this.schemas.set(t.name, t.inputSchema);
    if (!this.own || page['nextCursor'] !== undefined) return page;
    return { ...page, tools: [...tools, ...structuredClone(this.own.tools)] };
  }

  private logged(
    method: string,
    params: Obj,
    before: unknown,
    result: CallToolResult | GetPromptResult,
  ): Obj {
    const decisions = (result._meta as Obj | undefined)?.[DECISIONS];
    if (this.bridge.onDecision && Array.isArray(decisions) && decisions !== before) {
      const at = new Date().toISOString();
      // The upstream's own decisions (an mcpkit upstream writes the same key) are not logged.
      for (const decision of decisions)
        if ((decision as Obj)['by'] === 'bridge')
          this.bridge.onDecision({ at, method, name: params['name'], ...(decision as Obj) });
    }
    return result as unknown as Obj;
  }

  private warnLine(message: string): void {
    (this.bridge.onWarning ?? ((m: string) => console.warn(m)))(`mcpkit bridge: ${message}`);
  }
}
