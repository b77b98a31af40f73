/**
 * Per-URI interest: how many listen streams and legacy subscriptions name each URI, and the hooks
 * told when a URI gains its first or loses its last one, so that a provider watches a resource
 * only while someone listens.
 */
import { coversUri } from '../uri/covers.js';

export interface AttachHook {
  attach(uri: string): void;
  detach(uri: string): void;
}

export class AttachTracker {
  private readonly counts = new Map<string, number>();
  private readonly hooks = new Set<AttachHook>();

  /** Registers a hook and tells it of what is attached already. */
  onAttach(hook: AttachHook): () => void {
    this.hooks.add(hook);
    for (const uri of this.counts.keys()) this.call(hook, 'attach', uri);
    return () => void this.hooks.delete(hook);
  }

  /** Some subscription covers `uri` (it or a resource above it is subscribed). */
  isAttached(uri: string): boolean {
    if (this.counts.has(uri)) return true;
    for (const subscribed of this.counts.keys()) if (coversUri(subscribed, uri)) return true;
    return false;
  }

  add(uri: string): void {
    const n = this.counts.get(uri) ?? 0;
    this.counts.set(uri, n + 1);
    if (n === 0) for (const hook of this.hooks) this.call(hook, 'attach', uri);
  }

  remove(uri: string): void {
    const n = this.counts.get(uri);
    if (n === undefined) return;
    if (n > 1) {
      this.counts.set(uri, n - 1);
      return;
    }
    this.counts.delete(uri);
    for (const hook of this.hooks) this.call(hook, 'detach', uri);
  }

  get attached(): string[] {
    return [...this.counts.keys()];
  }

  private call(hook: AttachHook, what: 'attach' | 'detach', uri: string): void {
    try {
      hook[what](uri);
    } catch (error) {
      // A provider's hook that breaks must not break the listen that triggered it.
      console.warn(
        `mcpkit: a resource ${what} hook threw for ${JSON.stringify(uri)}: ${String(error)}`,
      );
    }
  }
}
