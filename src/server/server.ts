import type { RequestId } from '../protocol/jsonrpc.js';
import type {
  Implementation,
  Prompt,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '../protocol/types.js';
import { isTemplate } from '../uri/index.js';
import type { ServerCore } from './core.js';
import type {
  PromptDefinition,
  PromptHandler,
  ReadHandler,
  ResourceTemplateDefinition,
  ToolDefinition,
  ToolHandler,
} from './definitions.js';
import { dispatch } from './dispatch.js';
import { EncodedReads } from './encoded-reads.js';
import { TemplateMatches } from './template-matches.js';
import type { PromptEntry, ResourceEntry, TemplateEntry, ToolEntry } from './entries.js';
import { MemoryLinkStore, type LinkStore } from './link-store.js';
import { ListenHub } from './listen-hub.js';
import { deliverChange, resyncSessions } from './change-delivery.js';
import { AttachTracker, type AttachHook } from './attach-tracker.js';
import { MemoryBus, type ChangeBus, type ChangeEvent } from './change-bus.js';
import { interestSyncFor, type InterestSync } from './interest-sync.js';
import { interestLimitsOf, pageSizeOf, type ServerOptions } from './options.js';
import { Peer, type PeerOptions } from './peer.js';
import { Registry, type ListKind } from './registry.js';
import { RequestStateSigner } from './request-state.js';
import {
  checkPromptDefinition,
  checkResourceDefinition,
  checkToolDefinition,
} from './definition-checks.js';
import type { PromptArgs, TemplateVariables, ToolArgs, ToolStructured } from './inferred-types.js';
import { promptEntry } from './prompt-entry.js';
import { resourceEntry, templateEntry } from './resource-entry.js';
import { toolEntry } from './tool-entry.js';
import { declaredScopes, scopesFor } from './message-scopes.js';
import { Emitter } from '../protocol/emitter.js';
import { META } from '../protocol/meta-keys.js';
import { AnswerBudget } from './answer-budget.js';
import { ArtifactBytes } from './artifact-read.js';
import { registerReadableLinks, type ReadableLinksHost } from './readable-links-register.js';

/** What a server has registered, as its list methods show it. */
export interface Registered {
  tools: readonly Tool[];
  prompts: readonly Prompt[];
  resources: readonly Resource[];
  resourceTemplates: readonly ResourceTemplate[];
}

/**
 * An MCP server: registries plus an I/O-free message handler that transports drive.
 *
 * @example
 * const server = createServer({ name: 'notes', version: '1.0.0' });
 * server.tool('echo', { input: { type: 'object', properties: { text: { type: 'string' } } } },
 *   ({ text }) => String(text));
 * await serveStdio(server);
 */
export class McpServer {
  readonly info: Implementation;
  readonly options: ServerOptions;
  /** Where ephemeral artifacts live so that links to them resolve. */
  readonly linkStore: LinkStore;
  private readonly tools: Registry<ToolEntry, Tool>;
  private readonly resources: Registry<ResourceEntry, Resource>;
  private readonly templates: Registry<TemplateEntry, ResourceTemplate>;
  private readonly prompts: Registry<PromptEntry, Prompt>;
  private readonly attachments = new AttachTracker((message) => this.warn(message));
  private readonly changeHandlers = new Emitter<ChangeEvent>((error) =>
    console.warn(`mcpkit: an onChange handler threw: ${String(error)}`),
  );
  private readonly listen: ListenHub;
  private readonly bus: ChangeBus;
  /** Ends this server's subscriptions to the bus (a shared bus outlives it). */
  private readonly unsubscribe: Array<() => void>;
  /** What other instances on a shared bus listen to, and telling them what this one does. */
  private readonly interest: InterestSync | undefined;
  private readonly peers = new Set<Peer>();
  /** What the engine sees of this server (never the class itself). */
  private readonly core: ServerCore;
  private readonly handle: ReturnType<typeof dispatch>;
  private capabilityCache: ServerCapabilities | undefined;
  /** Set by the first registration that asks for scopes (see ServerCore.hasScopedEntries). */
  private scoped = false;
  /**
   * Bytes of answers being produced or waiting to be written over all connections
   * (`maxResponseTotalBytes`): transports lease from it per answer (see answer-budget.ts).
   */
  readonly answerBudget: AnswerBudget;

  constructor(options: ServerOptions) {
    this.options = options;
    pageSizeOf(options);
    this.answerBudget = new AnswerBudget(options.maxResponseTotalBytes);
    const info: Implementation = { name: options.name, version: options.version };
    if (options.title !== undefined) info.title = options.title;
    if (options.description !== undefined) info.description = options.description;
    if (options.websiteUrl !== undefined) info.websiteUrl = options.websiteUrl;
    if (options.icons !== undefined) info.icons = options.icons;
    this.info = info;
    const changed = (kind: ListKind) => () => this.notifyListChanged(kind);
    this.tools = new Registry('tool', (e) => e.tool, changed('tools'));
    this.prompts = new Registry('prompt', (e) => e.prompt, changed('prompts'));
    this.resources = new Registry('resource', (e) => e.resource, changed('resources'));
    this.templates = new Registry('resource template', (e) => e.template, changed('resources'));
    this.linkStore = options.linkStore ?? new MemoryLinkStore();
    // Checks the listen bounds (a RangeError naming the option) before anything is wired.
    this.listen = new ListenHub({
      attachments: this.attachments,
      limits: options,
      warn: (message) => this.warn(message),
    });
    const interestLimits = interestLimitsOf(options);
    this.bus = options.bus ?? new MemoryBus();
    this.unsubscribe = [
      this.bus.subscribe((event) => this.deliver(event)),
      this.bus.onGap((why) => this.gap(why)),
    ];
    this.interest = interestSyncFor(this.bus, {
      ...interestLimits,
      tracker: this.attachments,
      warn: (message) => this.warn(message),
    });
    this.core = {
      info: this.info,
      options,
      tools: this.tools,
      resources: this.resources,
      templates: this.templates,
      templateMatches: new TemplateMatches(() => this.templates.list()),
      prompts: this.prompts,
      listen: this.listen,
      signer: new RequestStateSigner(
        options.requestStateSecret,
        options.requestStateTtlMs ?? 600_000,
      ),
      linkStore: this.linkStore,
      artifactBytes: new ArtifactBytes(),
      encodedReads: new EncodedReads(options.maxEncodedReadBytes),
      answers: this.answerBudget,
      resultMeta: Object.freeze({ [META.serverInfo]: this.info }),
      capabilities: () => this.capabilities(),
      hasScopedEntries: () => this.scoped,
    };
    this.handle = dispatch(this.core);
    if (options.readableLinks) registerReadableLinks(this as unknown as ReadableLinksHost);
  }

  /** Registers a tool; returns a function that removes it. */
  tool<const D extends ToolDefinition, A = ToolArgs<D>>(
    name: string,
    typed: D,
    handler: ToolHandler<A, ToolStructured<D>>,
  ): () => void {
    const definition: ToolDefinition = typed;
    checkToolDefinition(name, definition, handler);
    this.noteScopes(definition.scopes);
    return this.tools.add(name, toolEntry(name, definition, handler as ToolHandler<never>));
  }

  /**
   * Registers a resource (a URI) or a resource template (a URI template, RFC 6570); returns a
   * function that removes it. Template variables reach `read` decoded and checked: no `..`,
   * no NUL, no backslash, no encoded separator in a simple variable.
   */
  resource<const T extends string>(
    uriOrTemplate: T,
    definition: ResourceTemplateDefinition,
    handler: ReadHandler<TemplateVariables<T>>,
  ): () => void {
    checkResourceDefinition(uriOrTemplate, definition, handler);
    this.noteScopes(definition.scopes);
    const read = handler as unknown as ReadHandler;
    if (isTemplate(uriOrTemplate))
      return this.templates.add(uriOrTemplate, templateEntry(uriOrTemplate, definition, read));
    return this.resources.add(uriOrTemplate, resourceEntry(uriOrTemplate, definition, read));
  }

  private noteScopes(scopes: readonly string[] | undefined): void {
    if (scopes !== undefined && scopes.length > 0) this.scoped = true;
  }

  /** Registers a prompt; returns a function that removes it. */
  prompt<const D extends PromptDefinition>(
    name: string,
    typedDefinition: D,
    typed: PromptHandler<PromptArgs<D>>,
  ): () => void {
    const definition: PromptDefinition = typedDefinition;
    checkPromptDefinition(name, definition, typed);
    this.noteScopes(definition.scopes);
    const handler = typed as unknown as PromptHandler;
    return this.prompts.add(name, promptEntry(name, definition, handler));
  }

  /**
   * The capabilities this server advertises: one fixed set (tools, prompts, resources with
   * subscribe, completions, logging) whatever is registered, since registrations may come and go
   * while clients are connected; `options.capabilities` is merged over it.
   */
  capabilities(): ServerCapabilities {
    return (this.capabilityCache ??= {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
      logging: {},
      ...(this.options.capabilities as ServerCapabilities | undefined),
    });
  }

  /**
   * Creates the server side of a connection: for transports, which call it once per connection
   * and feed the peer every decoded message (see `mcpkit/server/transport`).
   */
  connect(options: PeerOptions): Peer {
    const peer = new Peer(options, this.handle);
    this.peers.add(peer);
    peer.onClose(() => this.peers.delete(peer));
    return peer;
  }

  /**
   * The input schema of the tool registered as `name`, as `tools/list` shows it: for transports
   * that check arguments a client mirrors elsewhere (HTTP's `Mcp-Param-*` headers). Not a copy
   * (it is read on every call): do not change it.
   */
  toolInputSchema(name: string): Readonly<Tool['inputSchema']> | undefined {
    return this.tools.get(name)?.tool.inputSchema;
  }

  /** Every OAuth scope a tool, prompt, resource or template asks for (PRM `scopes_supported`). */
  declaredScopes(): readonly string[] {
    return declaredScopes(this.core);
  }

  /**
   * The OAuth scopes a JSON-RPC message needs (a `tools/call` its tool's), for transports that
   * refuse it before it runs (HTTP's 403 `insufficient_scope`); undefined when it needs none.
   */
  scopesFor(message: unknown): readonly string[] | undefined {
    return scopesFor(this.core, message);
  }

  /** Tells listening clients that a list changed (also done on every registration change). */
  notifyListChanged(kind: ListKind): void {
    this.bus.publish({ type: 'list-changed', list: kind });
  }

  /** Tells subscribers that a resource changed (on every instance sharing the bus). */
  notifyResourceUpdated(uri: string): void {
    this.bus.publish({ type: 'resource-updated', uri });
  }

  /**
   * Registers per-URI interest hooks: `attach(uri)` when the first listen stream or legacy
   * subscription naming `uri` opens, `detach(uri)` after the last one closes (refcounted across
   * both, and with a shared bus across every instance on it: the first listener anywhere, the
   * last one gone everywhere). A hook registered late is told at once of what is attached
   * already; one that throws is reported through `onWarning` and never breaks the listen.
   * Returns the unregister.
   *
   * @example
   * server.onAttach({ attach: (uri) => watch(uri), detach: (uri) => unwatch(uri) });
   */
  onAttach(hook: AttachHook): () => void {
    // One registration, one entry: the same hook registered twice is unregistered once each.
    return this.attachments.onAttach({
      attach: (uri) => hook.attach(uri),
      detach: (uri) => hook.detach(uri),
    });
  }

  /** Whether some listen stream or legacy subscription covers `uri`, here or on a shared bus. */
  isAttached(uri: string): boolean {
    return this.attachments.isAttached(uri);
  }

  /**
   * Sees every change event this instance delivers, its own and other instances' (through a
   * shared bus): a provider that does not watch for itself drops its caches on them.
   */
  onChange(handler: (event: ChangeEvent) => void): () => void {
    return this.changeHandlers.on(handler);
  }

  private deliver(event: ChangeEvent): void {
    this.changeHandlers.emit(event);
    deliverChange(this.listen, this.peers, event);
  }

  /**
   * The bus may have lost events: every listen stream ends with an error its client sees (so it
   * listens again and re-reads); a 2025-11-25 session, which has no stream to end, is told that
   * everything it follows may have changed.
   */
  private gap(why: string): void {
    const ended = this.listen.gap(why);
    const sessions = resyncSessions(this.peers);
    // What is still listened to here (after the streams ended) is told again, and asked for.
    this.interest?.gap();
    // The bus logs the drop itself; this says what it cost here, when it cost anything.
    if (ended + sessions === 0) return;
    const told = sessions > 0 ? `, told ${sessions} 2025-11-25 session(s) to re-read` : '';
    this.warn(
      `mcpkit: change events may have been lost (${why}): ended ${ended} listen stream(s) so that their clients listen again${told}`,
    );
  }

  private warn(message: string): void {
    (this.options.onWarning ?? ((m: string) => console.warn(m)))(message);
  }

  /**
   * What is registered, as `tools/list`, `prompts/list`, `resources/list` (static resources) and
   * `resources/templates/list` show it: a copy, for diagnostics and tests.
   */
  registered(): Registered {
    // Copies: what clients are served must not change when the caller edits what it got.
    return structuredClone({
      tools: this.tools.wire(),
      prompts: this.prompts.wire(),
      resources: this.resources.wire(),
      resourceTemplates: this.templates.wire(),
    });
  }

  /** Open `subscriptions/listen` streams, across every connection. */
  get listenerCount(): number {
    return this.listen.size;
  }

  /** Open connections: stdio processes, HTTP sessions and each HTTP endpoint's stateless one. */
  get connectionCount(): number {
    return this.peers.size;
  }

  /** Whether a request with this id is being handled on any connection. */
  isHandling(id: RequestId): boolean {
    for (const peer of this.peers) if (peer.inflight.has(id)) return true;
    return false;
  }

  /**
   * Ends listen streams and closes every connection; with a shared bus, the other instances are
   * told that nobody listens here any more. Final: the server leaves its bus, so a connection
   * made after it gets answers but no change notifications (make a new server instead).
   */
  close(): void {
    this.listen.endAll();
    for (const peer of [...this.peers]) peer.close();
    this.interest?.close();
    for (const end of this.unsubscribe.splice(0)) end();
  }
}

/** Creates an MCP server. */
export function createServer(options: ServerOptions): McpServer {
  return new McpServer(options);
}
