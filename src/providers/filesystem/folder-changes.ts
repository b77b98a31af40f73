/**
 * The one stream of change events of a served folder: what the watcher reports, as it reports it
 * (synchronously, before any debounce). The listing, the caches and the notifications all follow
 * it, so that none of them learns of a change by another road.
 */

/** One event: something at `path` (root-relative, `/`-separated) may have changed. */
export interface FolderChange {
  /** The file, or the directory whose entries changed; undefined: somewhere, not known where. */
  readonly path: string | undefined;
}

export type FolderChangeListener = (change: FolderChange) => void;

export class FolderChanges {
  private readonly listeners = new Set<FolderChangeListener>();

  /** Sees every later event, synchronously; returns a function that stops it. */
  subscribe(listener: FolderChangeListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Hands one event to every listener; one that throws does not keep it from the others. */
  emit(change: FolderChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        console.warn(`mcpkit: a folder change listener threw: ${String(error)}`);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
