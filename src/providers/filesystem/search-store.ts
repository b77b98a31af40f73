/**
 * The search index saved in a folder of the user's (`indexDir`): loaded by the search worker at
 * start when it was made for the same root and limits, saved a little after changes, at most
 * once per interval (each save encodes the whole index), and on close. It runs in the search
 * worker; its file calls never block even that thread.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { decodeIndex, encodeIndex } from '../../search/index-file.js';
import type { TextIndex } from '../../search/text-index.js';

/**
 * The version of what is saved beside the index (`extra`): 2 records each file's inode and
 * ctime with its size and mtime. A file of another version is not read but built anew.
 */
const STORE_FORMAT = 2;

export const INDEX_STORE_DEFAULTS = {
  /** How long after a change the index is saved (ms). */
  quietMs: 5_000,
  /** Least time between the starts of two saves (ms); the save on close does not wait. */
  minIntervalMs: 30_000,
} as const;

/**
 * How old a partial file must be before a start removes it (ms): a save takes seconds, and
 * another server of the folder (here, or in another container with the same pid) may be saving.
 */
export const STALE_PARTIAL_MS = 10 * 60_000;

export type IndexStoreTimes = { -readonly [K in keyof typeof INDEX_STORE_DEFAULTS]: number };

/** What a saved index must have been made for. */
interface Made {
  root: string;
  maxFileBytes: number;
}

interface Saved extends Made {
  store?: number;
  versions?: [string, string][];
}

interface Snapshot {
  index: TextIndex;
  versions: ReadonlyMap<string, string>;
}

export class IndexStore {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending: (() => Snapshot) | undefined;
  /** The save under way (or the last one, ended): a flush waits for it. */
  private saving: Promise<void> = Promise.resolve();
  /** When the last save started (`performance.now()`); none yet: -Infinity. */
  private savedAt = -Infinity;
  private readonly times: IndexStoreTimes;

  constructor(
    private readonly file: string,
    private readonly made: Made,
    private readonly onWarning: (message: string) => void,
    times: Partial<IndexStoreTimes> = {},
  ) {
    this.times = { ...INDEX_STORE_DEFAULTS, ...times };
  }

  /** The saved index, when there is one made for the same root and limits, in this format. */
  async load(): Promise<{ index: TextIndex; versions: Map<string, string> } | undefined> {
    await this.sweep();
    let bytes: Uint8Array;
    try {
      bytes = await readFile(this.file);
    } catch {
      return undefined;
    }
    const saved = decodeIndex(bytes);
    const extra = saved?.extra as Saved | undefined;
    if (!saved || extra?.root !== this.made.root || extra.maxFileBytes !== this.made.maxFileBytes) {
      this.onWarning(`the saved search index ${this.file} is not for this folder: built anew`);
      return undefined;
    }
    if (extra.store !== STORE_FORMAT) {
      this.onWarning(`the saved search index ${this.file} is of an older format: built anew`);
      return undefined;
    }
    return { index: saved.index, versions: new Map(extra.versions ?? []) };
  }

  /**
   * Removes the partial files of saves cut short (a stop that did not wait, a crash): those
   * untouched for STALE_PARTIAL_MS, so that a save under way elsewhere keeps its file.
   */
  private async sweep(): Promise<void> {
    const dir = path.dirname(this.file);
    const prefix = `${path.basename(this.file)}.`;
    const names = await readdir(dir).catch((): string[] => []);
    for (const name of names) {
      if (!name.startsWith(prefix) || !/^[\w-]+\.tmp$/.test(name.slice(prefix.length))) continue;
      const file = path.join(dir, name);
      const stats = await stat(file).catch(() => undefined);
      if (stats && Date.now() - stats.mtimeMs >= STALE_PARTIAL_MS)
        await unlink(file).catch(() => undefined);
    }
  }

  /**
   * Saves `take()` a while after this call: `quietMs`, or later so that saves start at least
   * `minIntervalMs` apart. Calls meanwhile do not postpone it (a folder that keeps changing
   * is still saved); the snapshot is taken when the save starts.
   */
  saveSoon(take: () => Snapshot): void {
    this.pending = take;
    if (this.timer !== undefined) return;
    const { quietMs, minIntervalMs } = this.times;
    const wait = Math.max(quietMs, this.savedAt + minIntervalMs - performance.now());
    this.timer = setTimeout(() => void this.flush(), wait);
    this.timer.unref?.();
  }

  /**
   * Saves now what waits to be saved (the folder is no longer served), after a save under way;
   * else `latest` when given (what changed since the last save, a first build cut short).
   */
  flush(latest?: () => Snapshot): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const take = this.pending ?? latest;
    this.pending = undefined;
    if (take) {
      this.saving = this.saving.then(() => {
        this.savedAt = performance.now();
        return this.save(take());
      });
    }
    return this.saving;
  }

  /** Writes the index whole (a new file, then renamed over the old one). */
  async save({ index, versions }: Snapshot): Promise<void> {
    // Unique to this save: two stores of one file (two servers, or containers with one pid).
    const partial = `${this.file}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
    try {
      const extra: Saved = { ...this.made, store: STORE_FORMAT, versions: [...versions] };
      const bytes = encodeIndex(index, extra);
      await mkdir(path.dirname(this.file), { recursive: true });
      await writeFile(partial, bytes);
      await rename(partial, this.file);
    } catch (error) {
      await unlink(partial).catch(() => undefined);
      this.onWarning(`the search index was not saved to ${this.file}: ${(error as Error).message}`);
    }
  }
}
