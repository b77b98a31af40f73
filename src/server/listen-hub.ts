/**
 * Open `subscriptions/listen` streams and what they follow: list kinds, and URIs in an index (an
 * update reaches the streams that cover it without asking the others). A stream's URIs are
 * attached while it is open, so that a provider watches only what someone listens to.
 */
import type { ProtocolError } from '../errors/protocol-error.js';
import type { RequestId } from '../protocol/jsonrpc.js';
import type { SubscriptionFilter } from '../protocol/types.js';
import { AttachTracker } from './attach-tracker.js';
import { listenEventsLost } from './listen-errors.js';
import { CoverIndex } from './listen-index.js';
import {
  KIND_KEY,
  ListenStream,
  type FrameKey,
  type Listener,
  type QueueBudget,
} from './listen-stream.js';
import { listenLimitsOf, type ListenLimits } from './options.js';
import type { ListKind } from './registry.js';

const FILTER_KEY = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
} as const satisfies Record<ListKind, keyof SubscriptionFilter>;
const KINDS = Object.keys(FILTER_KEY) as ListKind[];

export interface ListenHubOptions {
  /** Per-URI interest, shared with legacy subscriptions (default: a tracker of its own). */
  attachments?: AttachTracker;
  /** The server's listen options (`maxListens`, …); checked here, defaults where unset. */
  limits?: Partial<ListenLimits>;
  /** Told why a stream was cut (default console.warn). */
  warn?: (message: string) => void;
}

export class ListenHub {
  readonly limits: ListenLimits;
  readonly attachments: AttachTracker;
  private readonly warn: (message: string) => void;
  /** Every open stream, with the function that forgets it. */
  private readonly streams = new Map<ListenStream, () => void>();
  private readonly byKind: Record<ListKind, Set<ListenStream>> = {
    tools: new Set(),
    prompts: new Set(),
    resources: new Set(),
  };
  private readonly byUri = new CoverIndex<ListenStream>();
  /** What all streams queue together, against `maxListenQueueTotalBytes`. */
  private readonly budget: QueueBudget = { used: 0 };
  /**
   * Listens that `endAll` ended, by the channel they notify on and their id: the server ended
   * them, so they get their result even though their connection closes right after.
   */
  private readonly endedByServer = new WeakMap<Listener['notify'], Set<RequestId>>();

  constructor(options: ListenHubOptions = {}) {
    this.limits = listenLimitsOf(options.limits);
    this.attachments = options.attachments ?? new AttachTracker();
    this.warn = options.warn ?? ((message) => console.warn(message));
  }

  /** The part of a filter this server honours. */
  honoured(filter: SubscriptionFilter): SubscriptionFilter {
    const out: SubscriptionFilter = {};
    for (const kind of KINDS) if (filter[FILTER_KEY[kind]] === true) out[FILTER_KEY[kind]] = true;
    if (Array.isArray(filter.resourceSubscriptions))
      out.resourceSubscriptions = [...filter.resourceSubscriptions];
    return out;
  }

  /**
   * Adds a listener and attaches its URIs; the returned remover (idempotent) detaches them and
   * drops whatever its stream holds. A stream the hub cuts (its client fell behind, a gap) is
   * removed before its listener's `end` runs.
   */
  add(listener: Listener): () => void {
    const uris = [...new Set(listener.filter.resourceSubscriptions ?? [])];
    const kinds = KINDS.filter((kind) => listener.filter[FILTER_KEY[kind]] === true);
    let removed = false;
    const attached: string[] = [];
    const remove = (): void => {
      if (removed) return;
      removed = true;
      this.streams.delete(stream);
      for (const kind of kinds) this.byKind[kind].delete(stream);
      for (const uri of uris) this.byUri.remove(uri, stream);
      stream.close();
      for (const uri of attached.splice(0)) this.attachments.remove(uri);
    };
    const stream = new ListenStream(
      listener,
      {
        maxQueueBytes: this.limits.maxListenQueueBytes,
        maxPendingUris: this.limits.maxListenPendingUris,
        warn: this.warn,
        budget: this.budget,
      },
      remove,
    );
    this.streams.set(stream, remove);
    for (const kind of kinds) this.byKind[kind].add(stream);
    for (const uri of uris) this.byUri.add(uri, stream);
    // Attached last: a hook that reports a change at once already finds the stream.
    for (const uri of uris) {
      if (removed) break;
      attached.push(uri);
      this.attachments.add(uri);
    }
    return remove;
  }

  get size(): number {
    return this.streams.size;
  }

  listChanged(kind: ListKind): void {
    const key = KIND_KEY[kind];
    for (const s of [...this.byKind[kind]]) this.offer(s, key);
  }

  /**
   * Offers the update to every stream one of whose URIs covers `uri` (it or a parent), once,
   * whose caller may read `uri`.
   */
  resourceUpdated(uri: string): void {
    for (const s of this.byUri.covering(uri))
      if (s.listener.mayRead?.(uri) !== false) this.offer(s, uri);
  }

  /**
   * Ends every stream. Without `error` it is the graceful end (server shutdown): each still gets
   * its result. With one, each is answered with it (the bus lost events: clients listen again).
   */
  endAll(error?: ProtocolError): void {
    for (const [{ listener: l }, remove] of [...this.streams]) {
      if (error) {
        remove();
        l.end(error);
        continue;
      }
      let ids = this.endedByServer.get(l.notify);
      if (!ids) this.endedByServer.set(l.notify, (ids = new Set()));
      ids.add(l.id);
      l.end();
    }
  }

  /**
   * The bus may have lost events: ends every open stream with an error its client sees, so that
   * it listens again and re-reads. Returns how many were ended.
   */
  gap(why: string): number {
    const n = this.streams.size;
    if (n > 0) this.endAll(listenEventsLost(why));
    return n;
  }

  /** One stream's channel failing (a transport's notify that throws) never stops the others. */
  private offer(stream: ListenStream, key: FrameKey): void {
    try {
      stream.offer(key);
    } catch (error) {
      const id = JSON.stringify(stream.listener.id);
      this.warn(
        `mcpkit: a frame of subscriptions/listen ${id} could not be sent: ${String(error)}`,
      );
    }
    if (this.budget.used > this.limits.maxListenQueueTotalBytes) this.shed();
  }

  /**
   * Cuts the streams that hold the most until all of them together are within
   * `maxListenQueueTotalBytes`: the clients that read least go first. Rare (each cut frees the
   * largest share), so a scan of the open streams is fine.
   */
  private shed(): void {
    const limit = this.limits.maxListenQueueTotalBytes;
    while (this.budget.used > limit) {
      let largest: ListenStream | undefined;
      for (const s of this.streams.keys()) if (s.charge > (largest?.charge ?? 0)) largest = s;
      if (!largest) return;
      const total = this.budget.used;
      try {
        largest.shed(total, limit);
      } catch (error) {
        // Its end failed; it is forgotten all the same (cut closes it first).
        this.warn(`mcpkit: ending subscriptions/listen failed: ${String(error)}`);
      }
    }
  }

  /** Whether `endAll` ended the listen `id` that notified through `notify`; forgets it. */
  takeEndedByServer(notify: Listener['notify'], id: RequestId): boolean {
    const ids = this.endedByServer.get(notify);
    if (!ids?.delete(id)) return false;
    if (ids.size === 0) this.endedByServer.delete(notify);
    return true;
  }
}
