import type { JSONRPCMessage, RequestId } from '../protocol/jsonrpc.js';
import { META } from '../protocol/meta-keys.js';
import type { SubscriptionFilter } from '../protocol/types.js';
import { coversUri } from '../uri/covers.js';
import type { ListKind } from './registry.js';

export interface Listener {
  id: RequestId;
  filter: SubscriptionFilter;
  notify: (message: JSONRPCMessage) => void;
  end: () => void;
}

const FILTER_KEY: Record<
  ListKind,
  'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged'
> = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
};

/** Open `subscriptions/listen` streams (2026-07-28). */
export class ListenHub {
  private readonly listeners = new Set<Listener>();
  /**
   * Listens that `endAll` ended, by the channel they notify on and their id: the server ended
   * them, so they get their result even though their connection closes right after.
   */
  private readonly endedByServer = new WeakMap<Listener['notify'], Set<RequestId>>();

  /** The part of a filter this server honours. */
  honoured(
    filter: SubscriptionFilter,
    supports: { resourceSubscriptions: boolean },
  ): SubscriptionFilter {
    const out: SubscriptionFilter = {};
    if (filter.toolsListChanged === true) out.toolsListChanged = true;
    if (filter.promptsListChanged === true) out.promptsListChanged = true;
    if (filter.resourcesListChanged === true) out.resourcesListChanged = true;
    if (supports.resourceSubscriptions && Array.isArray(filter.resourceSubscriptions)) {
      out.resourceSubscriptions = [...filter.resourceSubscriptions];
    }
    return out;
  }

  add(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.listeners.size;
  }

  listChanged(kind: ListKind): void {
    const key = FILTER_KEY[kind];
    for (const l of this.listeners) {
      if (l.filter[key] === true) l.notify(frame(`notifications/${kind}/list_changed`, l.id));
    }
  }

  resourceUpdated(uri: string): void {
    for (const l of this.listeners) {
      if (l.filter.resourceSubscriptions?.some((s) => coversUri(s, uri))) {
        l.notify(frame('notifications/resources/updated', l.id, { uri }));
      }
    }
  }

  /** Ends every stream gracefully (server shutdown): each still gets its result. */
  endAll(): void {
    for (const l of [...this.listeners]) {
      let ids = this.endedByServer.get(l.notify);
      if (!ids) this.endedByServer.set(l.notify, (ids = new Set()));
      ids.add(l.id);
      l.end();
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

export function frame(
  method: string,
  id: RequestId,
  params: Record<string, unknown> = {},
): JSONRPCMessage {
  return { jsonrpc: '2.0', method, params: { ...params, _meta: { [META.subscriptionId]: id } } };
}
