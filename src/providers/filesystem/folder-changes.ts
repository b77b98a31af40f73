import { Emitter } from '../../protocol/emitter.js';

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

/**
 * The event stream itself (`on` sees every later event, synchronously); a listener that throws
 * does not keep an event from the others.
 */
export class FolderChanges extends Emitter<FolderChange> {
  constructor() {
    super((error) => console.warn(`mcpkit: a folder change listener threw: ${String(error)}`));
  }
}
