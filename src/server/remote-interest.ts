/**
 * What other instances' listeners name, per instance: each URI counts until `3 * everyMs` after
 * the instance last said so (a dead instance stops counting without a word), or until it
 * detaches. Beyond `maxEntries` pairs new ones are ignored, with one warning. I/O-free: the clock
 * is injected and the owner calls `sweep()`.
 */
import type { InterestMessage } from './change-bus.js';

/** A URI counts for this many of its instance's refresh intervals after the last refresh. */
export const INTEREST_EXPIRY_INTERVALS = 3;

/** Characters of remote URIs kept per allowed entry, on average: the byte bound beside the count. */
export const REMOTE_INTEREST_CHARS_PER_ENTRY = 256;

export interface RemoteInterestOptions {
  /** Most (instance, URI) pairs kept, over every instance; their URIs hold at most 256 characters each on average. */
  maxEntries: number;
  /**
   * The longest refresh interval believed (the receiver's own): a peer claiming a longer one,
   * or dead with one, still stops counting within three of these.
   */
  maxEveryMs?: number;
  /** Told when a URI gains its first instance (`true`) or loses its last (`false`). */
  onChange(uri: string, listened: boolean): void;
  /** Default `performance.now` (monotonic: a wall-clock step expires nothing). */
  now?: () => number;
  /** Told once when the bound is first reached (default console.warn). */
  warn?: (message: string) => void;
}

export class RemoteInterest {
  /** Instance id -> URI -> when it stops counting (ms, the clock's). */
  private readonly byInstance = new Map<string, Map<string, number>>();
  /** URI -> how many instances name it. */
  private readonly counts = new Map<string, number>();
  private entries = 0;
  /** Characters of the URIs kept. */
  private chars = 0;
  private readonly maxChars: number;
  private warned = false;
  private readonly now: () => number;

  constructor(private readonly options: RemoteInterestOptions) {
    this.now = options.now ?? (() => performance.now());
    this.maxChars = options.maxEntries * REMOTE_INTEREST_CHARS_PER_ENTRY;
  }

  /** Applies one instance's message (a query changes nothing here: the owner answers it). */
  apply(message: InterestMessage): void {
    if (message.type === 'query') return;
    if (message.type === 'detach') {
      for (const uri of message.uris) this.drop(message.from, uri);
      return;
    }
    const every = Math.min(message.everyMs, this.options.maxEveryMs ?? message.everyMs);
    const until = this.now() + INTEREST_EXPIRY_INTERVALS * every;
    let uris = this.byInstance.get(message.from);
    for (const uri of message.uris) {
      if (uris?.has(uri)) {
        uris.set(uri, until);
        continue;
      }
      if (this.entries >= this.options.maxEntries || this.chars + uri.length > this.maxChars) {
        this.full();
        continue;
      }
      if (!uris) this.byInstance.set(message.from, (uris = new Map()));
      uris.set(uri, until);
      this.entries++;
      this.chars += uri.length;
      const n = this.counts.get(uri) ?? 0;
      this.counts.set(uri, n + 1);
      if (n === 0) this.options.onChange(uri, true);
    }
  }

  /** Forgets what was not refreshed in time. */
  sweep(): void {
    const now = this.now();
    for (const [instance, uris] of [...this.byInstance])
      for (const [uri, until] of [...uris]) if (until <= now) this.drop(instance, uri);
  }

  /** Whether some other instance names exactly `uri`. */
  has(uri: string): boolean {
    return this.counts.has(uri);
  }

  /** (instance, URI) pairs kept. */
  get size(): number {
    return this.entries;
  }

  /** Forgets everything, telling `onChange` of every URI that stops counting. */
  clear(): void {
    for (const [instance, uris] of [...this.byInstance])
      for (const uri of [...uris.keys()]) this.drop(instance, uri);
  }

  private drop(instance: string, uri: string): void {
    const uris = this.byInstance.get(instance);
    if (!uris?.delete(uri)) return;
    if (uris.size === 0) this.byInstance.delete(instance);
    this.entries--;
    this.chars -= uri.length;
    const n = this.counts.get(uri) ?? 1;
    if (n > 1) return void this.counts.set(uri, n - 1);
    // Gone from the table before the owner hears of it: its hooks ask whether it still counts.
    this.counts.delete(uri);
    this.options.onChange(uri, false);
  }

  private full(): void {
    if (this.warned) return;
    this.warned = true;
    (this.options.warn ?? ((m: string) => console.warn(m)))(
      `mcpkit: other instances listen to more than maxRemoteInterest (${this.options.maxEntries}) URIs in all (or their URIs are too long); the rest is ignored, so changes to those are only watched for listeners here`,
    );
  }
}
