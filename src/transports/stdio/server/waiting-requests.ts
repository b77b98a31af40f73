import type { RequestId } from '../../../protocol/jsonrpc.js';
import { KeyTable } from '../../../protocol/key-table.js';

/**
 * Lines up to this many characters wait parsed (read once at the edge); longer ones wait as
 * their text, which is more compact than the objects it parses into.
 */
export const PARSED_MAX_CHARS = 4096;

/**
 * What a parsed line weighs per character of its text, and per object or array in it: measured
 * heap of parsed messages is 1-5 bytes per character (keys, numbers as doubles) plus up to ~60
 * per container (`[{},{},...]`), so a queue full of any shape stays within `maxQueuedBytes`.
 */
export const PARSED_WEIGHT = { perChar: 5, perContainer: 64 } as const;

/** What the parsed message of `text` is counted as: its characters and its objects and arrays. */
export function parsedWeight(text: string): number {
  let containers = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A brace inside a string is counted too: the weight errs on the heavy side.
    if (c === 0x7b || c === 0x5b) containers++;
  }
  return text.length * PARSED_WEIGHT.perChar + containers * PARSED_WEIGHT.perContainer;
}

interface Waiting {
  id: RequestId;
  /** The message parsed (a small line), else undefined. */
  message: unknown;
  /** The line's text when it waits unparsed (a long line), else undefined. */
  text: string | undefined;
  /** What it counts against `maxQueuedBytes`. */
  weight: number;
  cancelled: boolean;
}

/**
 * Requests read while `maxInFlight` were running, in the order they came: a small one as the
 * message parsed from its line, a long one as its text (parsed again when it starts). What they
 * weigh (`bytes`) is what counts against `maxQueuedBytes`. Every operation is O(1) amortized: a
 * client may send a cancellation per line, and each must not scan the whole queue.
 */
export class WaitingRequests {
  private queue: Waiting[] = [];
  private head = 0;
  private readonly byId = new KeyTable<Waiting[], RequestId>();
  private live = 0;
  /** What the requests still waiting weigh: text length, or {@link parsedWeight} when parsed. */
  bytes = 0;

  /** How many requests are still waiting (cancelled ones excluded). */
  get size(): number {
    return this.live;
  }

  /** Queues the request `message` with `id`, parsed from `text`. */
  push(id: RequestId, text: string, message: unknown): void {
    const entry: Waiting =
      text.length <= PARSED_MAX_CHARS
        ? { id, message, text: undefined, weight: parsedWeight(text), cancelled: false }
        : { id, message: undefined, text, weight: text.length, cancelled: false };
    this.queue.push(entry);
    const same = this.byId.get(id);
    if (same) same.push(entry);
    else this.byId.set(id, [entry]);
    this.live++;
    this.bytes += entry.weight;
  }

  /** The oldest request still waiting, removed from the queue; undefined if none. */
  shift(): unknown {
    while (this.head < this.queue.length) {
      const entry = this.queue[this.head++] as Waiting;
      if (entry.cancelled) continue;
      // Entries of one id leave in order: this one is the first of its list.
      const same = this.byId.get(entry.id) as Waiting[];
      if (same.length === 1) this.byId.delete(entry.id);
      else same.shift();
      this.forget(entry);
      this.compact();
      return entry.text === undefined ? entry.message : (JSON.parse(entry.text) as unknown);
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
      // Its place in the queue stays until passed; its message need not.
      entry.text = entry.message = undefined;
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
    this.bytes -= entry.weight;
  }

  // Drops the consumed head once it is most of the array (no O(n) Array#shift per request).
  private compact(): void {
    if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }
}
