/**
 * A folder that is not watched here (`watch: false`, or a watch that failed) learns of changes
 * from the change events its server delivers: with a shared bus, those another instance saw on
 * disk. A `list_changed` of resources makes the listing stale (the next list walks again); an
 * update drops what the caches hold of that file and makes the listing stale too (its size and
 * lastModified changed). Events arrive before the listeners hear of them, so a client that lists
 * or reads after a notification gets what it announced.
 */
import type { ChangeEvent, McpServer } from '../../server/index.js';

export interface BusFreshnessHooks {
  /** Whether this process watches the folder (its own watch then keeps everything fresh). */
  watching(): boolean;
  pathOf(uri: string): string | undefined;
  /** The next listing walks the folder again. */
  markStale(): void;
  dropCached(relative: string): void;
}

/** Follows `server.onChange`; returns a function that stops following. */
export function followChanges(server: McpServer, hooks: BusFreshnessHooks): () => void {
  return server.onChange((event: ChangeEvent) => {
    if (hooks.watching()) return;
    if (event.type === 'list-changed') {
      if (event.list === 'resources') hooks.markStale();
      return;
    }
    const relative = hooks.pathOf(event.uri);
    if (relative === undefined) return;
    hooks.dropCached(relative);
    hooks.markStale();
  });
}
