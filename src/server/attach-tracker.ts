/**
 * Per-URI interest: how many listen streams and legacy subscriptions here name each URI, plus
 * the URIs listeners on other instances name (through a shared bus), and the hooks told when a
 * URI gains its first listener anywhere or loses its last one everywhere, so that a provider
 * watches a resource only while someone listens.
 */
import { CoverIndex } from './listen-index.js';

export interface AttachHook {
  attach(uri: string): void;
  detach(uri: string): void;
}

/** Told when this instance's own interest in a URI starts or ends (what it announces). */
export type LocalInterestListener = (uri: string, listened: boolean) => void;

export class AttachTracker {
  /** Local listeners per URI. */
  private readonly counts = new Map<string, number>();
  /** URIs some other instance listens to. */
  private readonly remote = new Set<string>();
  /** The union of both, for "does anything cover this URI" without a scan. */
  private readonly union = new CoverIndex<true>();
  private readonly hooks = new Set<AttachHook>();
  private readonly local = new Set<LocalInterestListener>();

  /** `warn` hears of hooks that throw (default console.warn). */
  constructor(private readonly warn: (message: string) => void = (m) => console.warn(m)) {}

  /** Registers a hook and tells it of what is attached already, here or elsewhere. */
  onAttach(hook: AttachHook): () => void {
    this.hooks.add(hook);
    for (const uri of this.attached) this.call(hook, 'attach', uri);
    return () => void this.hooks.delete(hook);
  }

  /** Sees this instance's own 0 -> 1 and 1 -> 0 transitions (the interest it announces). */
  onLocal(listener: LocalInterestListener): () => void {
    this.local.add(listener);
    return () => void this.local.delete(listener);
  }

  /** Some subscription, here or on another instance, covers `uri` (it or a resource above it). */
  isAttached(uri: string): boolean {
    return this.union.covering(uri).size > 0;
  }

  add(uri: string): void {
    const n = this.counts.get(uri) ?? 0;
    this.counts.set(uri, n + 1);
    if (n > 0) return;
    for (const listener of this.local) listener(uri, true);
    if (!this.remote.has(uri)) this.gained(uri);
  }

  remove(uri: string): void {
    const n = this.counts.get(uri);
    if (n === undefined) return;
    if (n > 1) return void this.counts.set(uri, n - 1);
    this.counts.delete(uri);
    for (const listener of this.local) listener(uri, false);
    if (!this.remote.has(uri)) this.lost(uri);
  }

  /** Another instance's listeners started (`true`) or stopped (`false`) naming `uri`. */
  setRemote(uri: string, listened: boolean): void {
    if (listened === this.remote.has(uri)) return;
    if (listened) this.remote.add(uri);
    else this.remote.delete(uri);
    if (this.counts.has(uri)) return;
    if (listened) this.gained(uri);
    else this.lost(uri);
  }

  /** The URIs attached here or elsewhere. */
  get attached(): string[] {
    return [...new Set([...this.counts.keys(), ...this.remote])];
  }

  /** Whether this instance's own listeners name exactly `uri`. */
  hasLocal(uri: string): boolean {
    return this.counts.has(uri);
  }

  /** The URIs this instance's own listeners name. */
  localUris(): IterableIterator<string> {
    return this.counts.keys();
  }

  /** How many distinct URIs this instance's own listeners name. */
  get localSize(): number {
    return this.counts.size;
  }

  private gained(uri: string): void {
    this.union.add(uri, true);
    for (const hook of [...this.hooks]) this.call(hook, 'attach', uri);
  }

  private lost(uri: string): void {
    // Out of the union first: a detach hook asks whether the URI is still covered.
    this.union.remove(uri, true);
    for (const hook of [...this.hooks]) this.call(hook, 'detach', uri);
  }

  private call(hook: AttachHook, what: 'attach' | 'detach', uri: string): void {
    try {
      hook[what](uri);
    } catch (error) {
      // A provider's hook that breaks must not break the listen that triggered it.
      this.warn(
        `mcpkit: a resource ${what} hook threw for ${JSON.stringify(uri)}: ${String(error)}`,
      );
    }
  }
}
