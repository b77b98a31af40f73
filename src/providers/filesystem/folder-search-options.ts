/**
 * The options of a folder's search index and their defaults, and the small translations between
 * the listing's files and the search worker's messages.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { IndexDiff, IndexedFile } from './file-index.js';
import type { SearchToWorker } from './search-channel.js';
import type { SearchFile } from './search-core.js';

export interface IndexedSearchOptions {
  /** Larger text files are found by name only (default 8 MiB). */
  maxFileBytes?: number;
  /** Longest a search may take, its wait for the index included (ms, default 5,000). */
  timeoutMs?: number;
  /** Most files read to check a quoted phrase, per search (default 2,000). */
  maxPhraseChecks?: number;
  /** Most matches listed in a search's artifact (default 1,000). */
  listLimit?: number;
  /**
   * Longest a search waits for the first build of the index before it answers from what is
   * indexed and says so (ms, default 3,000): on a small folder the first search finds all.
   */
  firstBuildWaitMs?: number;
  /**
   * A folder to save the index in and start from on the next run (default none): files whose
   * version (size, mtime, inode, ctime) did not change are not read again. Saved 5 s after a
   * change, at most every 30 s, and on close. Only with node's file system.
   */
  indexDir?: string | undefined;
  /** Sees the first build's progress (files indexed of files listed), `done` at its end. */
  onProgress?: ((progress: IndexProgressCount & { done: boolean }) => void) | undefined;
}

export const INDEXED_SEARCH_DEFAULTS = {
  maxFileBytes: 8 * 1024 * 1024,
  timeoutMs: 5_000,
  maxPhraseChecks: 2_000,
  listLimit: 1_000,
  firstBuildWaitMs: 3_000,
} as const satisfies Required<Omit<IndexedSearchOptions, 'onProgress' | 'indexDir'>>;

/** How far the index got: files indexed of files listed. */
export interface IndexProgressCount {
  indexed: number;
  listed: number;
}

export const asFile = (f: IndexedFile): SearchFile => ({
  path: f.path,
  size: f.size,
  mtimeMs: f.mtimeMs,
  ino: f.ino,
  ctimeMs: f.ctimeMs,
  mimeType: f.mimeType,
});

export function diffMessages(
  diff: IndexDiff,
  lookup: (path: string) => IndexedFile | undefined,
): SearchToWorker[] {
  const files: SearchFile[] = [];
  for (const path of [...diff.added, ...diff.changed]) {
    const file = lookup(path);
    if (file) files.push(asFile(file));
  }
  const out: SearchToWorker[] = [];
  if (diff.removed.length > 0) out.push({ type: 'remove', paths: diff.removed });
  if (files.length > 0) out.push({ type: 'files', files });
  return out;
}

/** The file of a root's index in `dir`: one folder may keep the indexes of several roots. */
export function indexFileOf(dir: string, root: string): string {
  const id = createHash('sha256').update(root).digest('hex').slice(0, 16);
  return path.join(dir, `mcpkit-index-${id}.bin`);
}

export function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
