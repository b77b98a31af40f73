/**
 * Which subscribers a resource update reaches, without asking every subscriber: subscribed URIs
 * by value, and the lengths they come in. A subscription covers an updated URI when it is that
 * URI or one of its prefixes that `coversUri` accepts (a `/`, `#` or `?` follows, or it ends
 * with `/`), so an update looks up one prefix per distinct subscribed length, and only where the
 * URI has such a boundary: the cost follows the URI, not the number of listeners.
 */
import { coversUri } from '../uri/covers.js';

export class CoverIndex<T> {
  private readonly byUri = new Map<string, Set<T>>();
  /** How many distinct subscribed URIs have each length. */
  private readonly lengths = new Map<number, number>();

  add(uri: string, item: T): void {
    let items = this.byUri.get(uri);
    if (!items) {
      this.byUri.set(uri, (items = new Set()));
      this.lengths.set(uri.length, (this.lengths.get(uri.length) ?? 0) + 1);
    }
    items.add(item);
  }

  remove(uri: string, item: T): void {
    const items = this.byUri.get(uri);
    if (!items?.delete(item) || items.size > 0) return;
    this.byUri.delete(uri);
    const n = this.lengths.get(uri.length) ?? 1;
    if (n > 1) this.lengths.set(uri.length, n - 1);
    else this.lengths.delete(uri.length);
  }

  /** The items some subscribed URI of which covers `uri`, each once (a new set). */
  covering(uri: string): Set<T> {
    const out = new Set<T>();
    for (const length of this.lengths.keys()) {
      if (length > uri.length || (length === 0 && uri.length > 0)) continue;
      // Cheap checks first: only a boundary can end a covering prefix.
      if (length < uri.length) {
        const next = uri.charCodeAt(length);
        const boundary = next === 0x2f || next === 0x23 || next === 0x3f; // '/', '#', '?'
        if (!boundary && uri.charCodeAt(length - 1) !== 0x2f) continue;
      }
      const prefix = uri.slice(0, length);
      const items = this.byUri.get(prefix);
      if (items && coversUri(prefix, uri)) for (const item of items) out.add(item);
    }
    return out;
  }
}
