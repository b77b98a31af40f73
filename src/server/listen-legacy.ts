/**
 * 2025-11-25 `resources/subscribe` on the listen streams' machinery: a session's subscriptions
 * attach their URIs, are bounded by `maxListenUris`, and are released when the session ends.
 */
import type { JSONRPCMessage } from '../protocol/jsonrpc.js';
import type { AttachTracker } from './attach-tracker.js';
import { tooManySubscriptions } from './listen-errors.js';
import type { ListKind } from './registry.js';

/**
 * A session's subscribed URIs: a `Set` (what the session and delivery read), whose `add`,
 * `delete` and `clear` also attach and detach. `add` of one URI more than `limit` throws the
 * `-32602` that `resources/subscribe` answers with.
 */
export class SessionSubscriptions extends Set<string> {
  // `#` fields: a session compares equal to a plain Set of the same URIs (no own properties).
  readonly #tracker: AttachTracker;
  readonly #limit: number;

  constructor(tracker: AttachTracker, limit: number) {
    super();
    this.#tracker = tracker;
    this.#limit = limit;
  }

  override add(uri: string): this {
    // Set's own constructor never calls add here (no iterable), so the fields are set.
    if (this.has(uri)) return this;
    if (this.size >= this.#limit) throw tooManySubscriptions(this.#limit);
    super.add(uri);
    this.#tracker.add(uri);
    return this;
  }

  override delete(uri: string): boolean {
    if (!super.delete(uri)) return false;
    this.#tracker.remove(uri);
    return true;
  }

  /** Unsubscribes from everything (the session ended or was replaced). */
  override clear(): void {
    const uris = [...this];
    super.clear();
    for (const uri of uris) this.#tracker.remove(uri);
  }
}

const LISTS: readonly ListKind[] = ['tools', 'prompts', 'resources'];

/**
 * What a 2025-11-25 session is told when the bus may have lost events: having no stream to end,
 * it hears that everything it follows may have changed (an update per subscribed URI and, once
 * initialized, each list).
 */
export function legacyResync(
  subscriptions: Iterable<string>,
  withLists: boolean,
): JSONRPCMessage[] {
  const out: JSONRPCMessage[] = [];
  for (const uri of subscriptions)
    out.push({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
  if (withLists)
    for (const kind of LISTS)
      out.push({ jsonrpc: '2.0', method: `notifications/${kind}/list_changed` });
  return out;
}
