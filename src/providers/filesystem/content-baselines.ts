/**
 * What the listeners of a file last had the chance to see, as a fingerprint of its contents: so
 * that a file touched, or rewritten with the same bytes, sends no update. This is the costly part
 * of watching (it reads files), so it is kept only for files someone listens to, set up when the
 * first listener of a URI attaches and dropped when the last one leaves.
 */
import { coversUri } from '../../uri/covers.js';

/** One version of a file as the listing or a read saw it. */
export interface FileVersion {
  readonly size: number;
  readonly mtimeMs: number;
}

/** A fingerprint of a file's contents, and the version they were read from. */
export interface Fingerprint extends FileVersion {
  readonly digest: string;
}

export interface BaselineSource {
  uriOf(relative: string): string;
  pathOf(uri: string): string | undefined;
  isListed(relative: string): boolean;
  /** The listed files (root-relative paths), sorted, for a URI that covers several (`file:///notes/`). */
  listed(): readonly string[];
  /** Whether some listener covers this URI (on any server the provider is registered on). */
  isAttached(uri: string): boolean;
  /** The current contents' fingerprint; undefined when it cannot be told (gone, too large, changing). */
  fingerprint(relative: string): Promise<Fingerprint | undefined>;
}

/** Files fingerprinted when a URI covering several attaches; those beyond get one at their first change. */
export const MAX_BASELINE_FILES = 256;
/** Fingerprints kept at most; a file beyond is announced on every change of its size or times. */
export const MAX_FINGERPRINTS = 4096;

/**
 * A fingerprint kept for a file. One taken as a listener attached stands for what listeners hold
 * only if it was taken of the version the listing had (the file may have changed just before,
 * unannounced). One taken while a change was announced (or found to be none) stands as it is:
 * listeners were told to read again, or hold the same bytes.
 */
interface Baseline extends Fingerprint {
  readonly announced: boolean;
}

export class ContentBaselines {
  private readonly prints = new Map<string, Baseline>();
  /** Files read at another version than their fingerprint's: a reader may hold a version in between. */
  private readonly readSince = new Set<string>();

  constructor(private readonly source: BaselineSource) {}

  /** The first listener of `uri` came: fingerprint what it covers, in the background. */
  attach(uri: string): void {
    const relative = this.source.pathOf(uri);
    // Not a URI of this folder (a listener elsewhere may name anything): nothing to fingerprint.
    if (relative === undefined) return;
    const files = this.source.isListed(relative) ? [relative] : this.coveredBy(uri, relative);
    void (async () => {
      for (const file of files) {
        if (this.prints.has(file) || this.prints.size >= MAX_FINGERPRINTS) continue;
        const print = await this.source.fingerprint(file).catch(() => undefined);
        // Only while still covered, and unless a change took a newer one meanwhile.
        if (
          print !== undefined &&
          !this.prints.has(file) &&
          this.source.isAttached(this.source.uriOf(file))
        )
          this.prints.set(file, { ...print, announced: false });
      }
    })();
  }

  /**
   * Listed files under `relative` that `uri` covers, at most {@link MAX_BASELINE_FILES}: found by
   * binary search in the sorted listing, so that a URI naming no file costs no scan of it.
   */
  private coveredBy(uri: string, relative: string): string[] {
    const prefix = relative === '' || relative.endsWith('/') ? relative : `${relative}/`;
    const listed = this.source.listed();
    let lo = 0;
    let hi = listed.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((listed[mid] as string) < prefix) lo = mid + 1;
      else hi = mid;
    }
    const files: string[] = [];
    for (let i = lo; i < listed.length && files.length < MAX_BASELINE_FILES; i++) {
      const file = listed[i] as string;
      if (!file.startsWith(prefix)) break;
      if (coversUri(uri, this.source.uriOf(file))) files.push(file);
    }
    return files;
  }

  /** The last listener of `uri` left: forget what no listener covers any more. */
  detach(uri: string): void {
    for (const file of [...this.prints.keys()]) {
      const fileUri = this.source.uriOf(file);
      if (coversUri(uri, fileUri) && !this.source.isAttached(fileUri)) this.forget(file);
    }
  }

  /**
   * A read of `relative` served `version` (undefined: not known which). Cheap when nobody
   * listens to the file; a read of the fingerprinted version changes nothing.
   */
  noteRead(relative: string, version: FileVersion | undefined): void {
    const print = this.prints.get(relative);
    if (print === undefined) return;
    if (version?.size === print.size && version.mtimeMs === print.mtimeMs) return;
    this.readSince.add(relative);
  }

  /**
   * For a file someone listens to, that the listing saw change from version `was`: whether its
   * contents are still the ones its listeners last had the chance to see (then no update is
   * due), with no read of another version served since. A fingerprint taken on attach counts
   * only if taken of version `was` itself (a later one may already hold the change). Takes the
   * new fingerprint.
   */
  async unchanged(relative: string, was: FileVersion | undefined): Promise<boolean> {
    const before = this.prints.get(relative);
    const read = this.readSince.delete(relative);
    const now = await this.source.fingerprint(relative).catch(() => undefined);
    const covered = this.source.isAttached(this.source.uriOf(relative));
    if (now === undefined || !covered) this.prints.delete(relative);
    else if (this.prints.has(relative) || this.prints.size < MAX_FINGERPRINTS)
      this.prints.set(relative, { ...now, announced: true });
    const stands =
      before !== undefined &&
      (before.announced ||
        (was !== undefined && before.size === was.size && before.mtimeMs === was.mtimeMs));
    return stands && now !== undefined && !read && before.digest === now.digest;
  }

  forget(relative: string): void {
    this.prints.delete(relative);
    this.readSince.delete(relative);
  }

  clear(): void {
    this.prints.clear();
    this.readSince.clear();
  }
}
