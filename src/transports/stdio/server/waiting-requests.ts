import type { RequestId } from '../../../protocol/jsonrpc.js';

interface Waiting {
  id: RequestId;
  text: string;
  cancelled: boolean;
}

/**
 * Requests read while `maxInFlight` were running, in the order they came, kept as their text
 * (its length is what counts against `maxQueuedBytes`). Every operation is O(1) amortized: a
 * client may send a cancellation per line, and each must not scan the whole queue.
 */
export class WaitingRequests {
  private queue: Waiting[] = [];
  private head = 0;
  private readonly byId = new Map<RequestId, Waiting[]>();
  private live = 0;
  /** Text length of the requests still waiting. */
  bytes = 0;

  /** How many requests are still waiting (cancelled ones excluded). */
  get size(): number {
    return this.live;
  }

  push(id: RequestId, text: string): void {
    const entry: Waiting = { id, text, cancelled: false };
    this.queue.push(entry);
    const same = this.byId.get(id);
    if (same) same.push(entry);
    else this.byId.set(id, [entry]);
    this.live++;
    this.bytes += text.length;
  }

  /** The text of the oldest request still waiting, removed from the queue; undefined if none. */
  shift(): string | undefined {
    while (this.head < this.queue.length) {
      const entry = this.queue[this.head++] as Waiting;
      if (entry.cancelled) continue;
      // Entries of one id leave in order: this one is the first of its list.
      const same = this.byId.get(entry.id) as Waiting[];
      if (same.length === 1) this.byId.delete(entry.id);
      else same.shift();
      this.forget(entry);
      this.compact();
      return entry.text;
    }
    this.queue = [];
    this.head = 0;
    return undefined;
  }

  /** Drops the waiting requests with this id (a cancellation that overtook them). */
  cancel(id: RequestId): boolean {
    const same = this.byId.get(id);
    if (!same) return false;
    this.byId.delete(id);
    for (const entry of same) {
      entry.cancelled = true;
      this.forget(entry);
      entry.text = ''; // its place in the queue stays until passed; its text need not
    }
    return true;
  }

  clear(): void {
    this.queue = [];
    this.head = 0;
    this.byId.clear();
    this.live = 0;
    this.bytes = 0;
  }

  private forget(entry: Waiting): void {
    this.live--;
    this.bytes -= entry.text.length;
  }

  // Drops the consumed head once it is most of the array (no O(n) Array#shift per request).
  private compact(): void {
    if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }
}
