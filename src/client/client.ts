/**
 * `McpClient`: one server, both eras, over any `ClientTransport`. I/O-free: the transport does
 * the bytes, this class does the protocol (era detection, `_meta` and headers, validation,
 * input requests, paging, the cache and listen streams).
 *
 * @example
 * const client = await new McpClient({ transport }).connect();
 * const { contents } = await client.readResource('file:///README.md');
 */
import type {
  CallToolResult,
  CompleteResult,
  Era,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  SubscriptionFilter,
  Tool,
} from '../protocol/index.js';
import { ClientBase } from './client-base.js';
import type { NotificationListener } from './notification-listener.js';
import type { RequestOptions } from './client-base.js';
import type { ListenNotification, ListenStream } from './listen.js';
import { ResilientListenStream, type RelistenOptions } from './resilient-listen.js';
import type { ListenOpenOptions } from './listen-registry.js';
import { collect } from './lists.js';

export type { RequestOptions } from './client-base.js';

/** Options of `listen()`: a request's, and `relisten` to survive the stream's end. */
export interface ListenOptions extends RequestOptions {
  relisten?: boolean | RelistenOptions;
}

type Obj = Record<string, unknown>;

export class McpClient extends ClientBase {
  callTool(name: string, args?: Obj, options: RequestOptions = {}): Promise<CallToolResult & Obj> {
    const params: Obj = { name };
    if (args !== undefined) params['arguments'] = args;
    return this.request('tools/call', params, options) as Promise<CallToolResult & Obj>;
  }

  readResource(uri: string, options: RequestOptions = {}): Promise<ReadResourceResult & Obj> {
    return this.request('resources/read', { uri }, options) as Promise<ReadResourceResult & Obj>;
  }

  getPrompt(
    name: string,
    args?: Record<string, string>,
    options: RequestOptions = {},
  ): Promise<GetPromptResult & Obj> {
    const params: Obj = { name };
    if (args !== undefined) params['arguments'] = args;
    return this.request('prompts/get', params, options) as Promise<GetPromptResult & Obj>;
  }

  async complete(
    ref: Obj,
    argument: { name: string; value: string },
    context?: Obj,
    options: RequestOptions = {},
  ): Promise<CompleteResult> {
    const params: Obj = { ref, argument };
    if (context !== undefined) params['context'] = context;
    return (await this.request(
      'completion/complete',
      params,
      options,
    )) as unknown as CompleteResult;
  }

  tools(options?: RequestOptions): AsyncGenerator<Tool> {
    return this.iterate<Tool>('tools/list', options);
  }
  prompts(options?: RequestOptions): AsyncGenerator<Prompt> {
    return this.iterate<Prompt>('prompts/list', options);
  }
  resources(options?: RequestOptions): AsyncGenerator<Resource> {
    return this.iterate<Resource>('resources/list', options);
  }
  resourceTemplates(options?: RequestOptions): AsyncGenerator<ResourceTemplate> {
    return this.iterate<ResourceTemplate>('resources/templates/list', options);
  }

  /** Every tool of every page; also refreshes the `x-mcp-header` table used by `callTool`. */
  async listTools(options?: RequestOptions): Promise<Tool[]> {
    const tools = await collect(this.tools(options));
    this.toolHeaders.learn(tools);
    return tools;
  }
  listPrompts(options?: RequestOptions): Promise<Prompt[]> {
    return collect(this.prompts(options));
  }
  listResources(options?: RequestOptions): Promise<Resource[]> {
    return collect(this.resources(options));
  }
  listResourceTemplates(options?: RequestOptions): Promise<ResourceTemplate[]> {
    return collect(this.resourceTemplates(options));
  }

  /**
   * Opens a listen stream and resolves once the server acknowledged it. Against a 2025-11-25
   * server: `resources/subscribe` per URI, and the notifications the session already carries.
   * With `relisten`, the stream survives its end: it listens again with backoff and then yields
   * one resync frame per subscribed URI and list (`_meta["dev.mcpkit/resync"]`), so that a
   * consumer re-reading on them never misses the final state.
   */
  listen(
    filter: SubscriptionFilter,
    options?: ListenOptions & { relisten?: false },
  ): Promise<ListenStream>;
  listen(
    filter: SubscriptionFilter,
    options: ListenOptions & { relisten: true | RelistenOptions },
  ): Promise<ResilientListenStream>;
  async listen(
    filter: SubscriptionFilter,
    options: ListenOptions = {},
  ): Promise<ListenStream | ResilientListenStream> {
    const { signal } = options;
    const open = (): Promise<ListenStream> => {
      this.requireOpen('subscriptions/listen');
      const o: ListenOpenOptions = { timeoutMs: this.timeoutOf(options) };
      if (options.meta) o.meta = options.meta;
      if (signal) o.signal = signal;
      return this.listens.open(this.era as Era, filter, o);
    };
    const first = await open();
    if (!options.relisten) {
      // Aborting the signal later closes the stream, as `close()` does.
      if (signal) first.closeOn(signal);
      return first;
    }
    const deps = {
      // A client whose connection is gone (a stdio server that exited) connects again first.
      open: async () => {
        if (!this.connected) await this.reconnect();
        return open();
      },
      inject: (note: ListenNotification) => this.injectNotification(note),
      closed: () => this.isClosed(),
    };
    const stream = new ResilientListenStream(
      first,
      filter,
      deps,
      options.relisten === true ? {} : options.relisten,
    );
    if (signal) stream.closeOn(signal);
    return stream;
  }

  /**
   * Calls `listener` with every notification the client receives, those a listen stream or a
   * request claims included (a resolver's cache uses it to forget changed resources). Returns
   * the function that removes it.
   */
  addNotificationListener(listener: NotificationListener): () => void {
    return this.noteListeners.on(listener);
  }
  /** A frame the client made up (a resync after a re-listen): caches and listeners hear of it. */
  protected injectNotification(note: { method: string; params?: Obj }): void {
    this.cacheStore?.invalidate(note);
    this.noteListeners.emit(note);
  }
}
