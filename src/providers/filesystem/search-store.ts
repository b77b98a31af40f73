/**
 * The search index saved in a folder of the user's (`indexDir`): loaded by the search worker at
 * start when it was made for the same root and limits, saved a little after each burst of
 * changes. It runs in the search worker; its file calls never block even that thread.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { decodeIndex, encodeIndex } from '../../search/index-file.js';
import type { TextIndex } from '../../search/text-index.js';

/** How long the index stays unchanged before it is saved again (ms). */
const SAVE_AFTER_MS = 5_000;

/** What a saved index must have been made for. */
interface Made {
  root: string;
  maxFileBytes: number;
}

interface Snapshot {
  index: TextIndex;
  versions: ReadonlyMap<string, string>;
}

export class IndexStore {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly file: string,
    private readonly made: Made,
    private readonly onWarning: (message: string) => void,
  ) {}

  /** The saved index, when there is one made for the same root and limits. */
  async load(): Promise<{ index: TextIndex; versions: Map<string, string> } | undefined> {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(this.file);
    } catch {
      return undefined;
    }
    const saved = decodeIndex(bytes);
    const extra = saved?.extra as (Made & { versions?: [string, string][] }) | undefined;
    if (!saved || extra?.root !== this.made.root || extra.maxFileBytes !== this.made.maxFileBytes) {
      this.onWarning(`the saved search index ${this.file} is not for this folder: built anew`);
      return undefined;
    }
    return { index: saved.index, versions: new Map(extra.versions ?? []) };
  }

  private pending: (() => Snapshot) | undefined;

  /** Saves `take()` once nothing changed for a while. */
  saveSoon(take: () => Snapshot): void {
    clearTimeout(this.timer);
    this.pending = take;
    this.timer = setTimeout(() => void this.flush(), SAVE_AFTER_MS);
    this.timer.unref?.();
  }

  /** Saves now what waits to be saved (the folder is no longer served). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    const take = this.pending;
    this.pending = undefined;
    if (take) await this.save(take());
  }

  /** Writes the index whole (a new file, then renamed over the old one). */
  async save({ index, versions }: Snapshot): Promise<void> {
    try {
      const bytes = encodeIndex(index, { ...this.made, versions: [...versions] });
      await mkdir(path.dirname(this.file), { recursive: true });
      const partial = `${this.file}.${process.pid}.tmp`;
      await writeFile(partial, bytes);
      await rename(partial, this.file);
    } catch (error) {
      this.onWarning(`the search index was not saved to ${this.file}: ${(error as Error).message}`);
    }
  }
}
