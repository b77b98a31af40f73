/**
 * A generation counter of a served folder, for the `memo` of the tools and prompts built on it:
 * bumped by every watcher event (before the debounce: contents read after it are fresh) and by
 * every walk that changed the listing (a result built in between saw the old listing), and
 * undefined while the folder is not watched, when nothing could tell that a kept result went stale.
 */
import type { MemoOptions } from '../../server/index.js';
import type { FilesystemProvider } from './filesystem-provider.js';

/** How long search and review-file answers are kept at most (the default resolveTtlMs). */
export const FOLDER_MEMO_TTL_MS = 2_000;

export function folderMemo(provider: FilesystemProvider): MemoOptions {
  let generation = 0;
  // Every event, a dot-file's too: a visible link through a hidden one (a.md -> .hop -> one.md)
  // or a hard link under a dot-name changes what a listed file reads.
  provider.onFolderChange(() => void generation++);
  return {
    generation: () =>
      provider.watching ? `${generation}:${provider.listingGeneration}` : undefined,
    // No longer than a remembered path is trusted without a look (resolveTtlMs): a change no
    // event reports (a hard link written from outside, a lost event) is seen as soon as a read is.
    ttlMs: FOLDER_MEMO_TTL_MS,
  };
}
