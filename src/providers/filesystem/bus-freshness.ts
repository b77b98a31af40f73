/**
 * A folder not watched here (`watch: false`, or a failed watch) learns of changes from its
 * server's change events (with a shared bus, what another instance saw on disk): a resources
 * `list_changed` makes the listing stale; an update also drops what the caches hold of that file
 * (its size and lastModified changed). Events arrive before the listeners hear of them, so a
 * client that lists or reads after a notification gets what it announced.
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
