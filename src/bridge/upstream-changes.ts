/**
 * Change notifications from the upstream to the host: one listen stream for the list changes
 * (2025-11-25 upstream: the notifications its session carries), and one per resource URI a host
 * listens to or subscribes to (2025-11-25 upstream: `resources/subscribe`), opened on the first
 * host's interest and closed after the last one's. The bridge's own server delivers them to the
 * host in its era (listen stream or 2025-11-25 session notifications).
 */
import type { ListenStream, McpClient } from '../client/index.js';
import type { ListKind } from '../server/index.js';
import type { SubscriptionFilter } from '../protocol/index.js';

export interface ChangeSink {
  listChanged(kind: ListKind): void;
  resourceUpdated(uri: string): void;
  warn(message: string): void;
}

const LIST_METHODS: Record<string, ListKind> = {
  'notifications/tools/list_changed': 'tools',
  'notifications/prompts/list_changed': 'prompts',
  'notifications/resources/list_changed': 'resources',
};

function stop(stream: ListenStream | undefined): void {
  if (stream && !stream.closed) void stream.close().catch(() => undefined);
}

export class UpstreamChanges {
  private lists: ListenStream | undefined;
  /** Each URI's latest attach; its stream once open (an older attach's stream is closed). */
  private readonly uris = new Map<string, { stream?: ListenStream | undefined }>();
  private closed = false;

  constructor(
    private readonly client: () => McpClient,
    private readonly sink: ChangeSink,
  ) {}

  /** Opens (again, after a restart) the list stream and every URI's stream. */
  async open(): Promise<void> {
    stop(this.lists);
    const caps = this.client().serverCapabilities ?? {};
    const filter: SubscriptionFilter = {};
    if ((caps['tools'] as { listChanged?: boolean } | undefined)?.listChanged)
      filter.toolsListChanged = true;
    if ((caps['prompts'] as { listChanged?: boolean } | undefined)?.listChanged)
      filter.promptsListChanged = true;
    if ((caps['resources'] as { listChanged?: boolean } | undefined)?.listChanged)
      filter.resourcesListChanged = true;
    if (Object.keys(filter).length > 0) this.lists = await this.pump(filter);
    for (const uri of [...this.uris.keys()]) await this.attach(uri, true);
  }

  async attach(uri: string, again = false): Promise<void> {
    if (this.closed || (!again && this.uris.has(uri))) return;
    stop(this.uris.get(uri)?.stream);
    const entry: { stream?: ListenStream | undefined } = {};
    this.uris.set(uri, entry);
    const caps = this.client().serverCapabilities ?? {};
    const resources = caps['resources'] as { subscribe?: boolean } | undefined;
    // A 2026-07-28 upstream listens per URI; a 2025-11-25 one needs `subscribe`.
    if (this.client().era === 'legacy' && !resources?.subscribe) return;
    const stream = await this.pump({ resourceSubscriptions: [uri] });
    // Detached meanwhile, or attached again (its stream is that attach's): this one is nobody's.
    if (this.uris.get(uri) !== entry) stop(stream);
    else entry.stream = stream;
  }

  detach(uri: string): void {
    const entry = this.uris.get(uri);
    this.uris.delete(uri);
    stop(entry?.stream);
  }

  close(): void {
    this.closed = true;
    stop(this.lists);
    for (const { stream } of this.uris.values()) stop(stream);
    this.uris.clear();
  }

  /** Opens a stream and forwards its frames until it ends; undefined when it cannot open. */
  private async pump(filter: SubscriptionFilter): Promise<ListenStream | undefined> {
    let stream: ListenStream;
    try {
      stream = await this.client().listen(filter);
    } catch (error) {
      this.sink.warn(`cannot listen to the upstream's changes: ${(error as Error).message}`);
      return undefined;
    }
    void (async () => {
      try {
        for await (const note of stream) this.deliver(note.method, note.params);
      } catch {
        // The stream ended with an error (the upstream stopped): a restart opens it again.
      }
    })();
    return stream;
  }

  private deliver(method: string, params: Record<string, unknown>): void {
    const kind = LIST_METHODS[method];
    if (kind) this.sink.listChanged(kind);
    else if (method === 'notifications/resources/updated' && typeof params['uri'] === 'string')
      this.sink.resourceUpdated(params['uri']);
  }
}
