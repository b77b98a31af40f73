/** How a served folder is configured: what is served, how it is read, cached and watched. */
import type { IndexProgress } from './file-index.js';
import type { ProviderFs } from './fs-types.js';

export interface FilesystemProviderOptions {
  /** The folder to serve. It becomes the URI root: `file:///notes/a.md` is `<root>/notes/a.md`. */
  root: string;
  /** Prefix of every URI, before the relative path (default `file:///`); must end with `/`. */
  uriPrefix?: string;
  /** Name of the resource template (default `files`). */
  name?: string;
  /** Description of the resource template. */
  description?: string;
  /** Serve dot-files and dot-directories such as `.git` and `.env` (default false). */
  hidden?: boolean;
  /** Names never listed nor read, at any depth (default `['node_modules']`). */
  ignore?: readonly string[];
  /**
   * Bytes of encoded contents kept for unchanged files (default 64 MiB; 0 turns the cache off).
   * A body of 64 KiB or more also keeps its JSON bytes, written to every client without a copy,
   * and counts twice; one file may take at most half of the cache.
   */
  cacheBytes?: number;
  /**
   * Longest (ms) a path's resolution (its real path, device, inode, size and times) is reused
   * before it is checked again (default 2,000; 0 resolves every read): a watched path's by one
   * `stat` (the same version: trusted for another period), any other by resolving it anew. While the folder is
   * watched, a read of a path with no symlink on it and no other hard link then costs no
   * syscall: a change the watch reports under the path drops it at once, and this bounds how
   * long a change no watch reports (a lost event, a network file system) goes unseen. Any other
   * read (no watch, a symlink, a hard link, `refuseHardLinks`) costs one `stat` of the path,
   * which sees another file or version, instead of a `realpath` and a `stat`.
   */
  resolveTtlMs?: number;
  /** Most path resolutions remembered at once (default 10,000; 0 remembers none). */
  maxResolvedPaths?: number;
  /**
   * Watch the folder and notify list changes and resource updates (default false). A changed
   * file is announced with `notifications/resources/updated`, a file added or removed with
   * `notifications/resources/list_changed` (the listing already shows it). For files someone
   * listens to, the contents are compared first: a touch, or the same bytes written again,
   * sends nothing. Without a watch nothing is announced, and the listing is walked again when
   * a request finds it older than `rescanMs`.
   */
  watch?: boolean;
  /**
   * How long (ms) the folder must be quiet before its changes are announced (default 100).
   * A file written without pause is still announced every ten times this.
   */
  watchDebounceMs?: number;
  /** How old the listing may get before a list request walks the folder again (default 2 s; 30 s while watching). */
  rescanMs?: number;
  /**
   * Most files listed (default 1,000,000): the first ones in path order. The walk stops once it
   * has listed this many and says so through `onWarning`; files past it are still read by path.
   */
  maxFiles?: number;
  /**
   * How long (ms) a listing (`resources/list`, completion, the tools) waits for the folder's
   * first walk, which runs in the background, before it answers from the files walked so far
   * (default 300; 0: never waits). Reads never wait for the walk.
   */
  walkWaitMs?: number;
  /**
   * Refuse (with -32602) and leave out of the listing regular files with more than one hard link
   * (default false). A hard link is the file itself, wherever its other names are: one made
   * inside the folder to a file outside it is served like any file, unless this is set.
   */
  refuseHardLinks?: boolean;
  /**
   * A file modified less than this long ago is still being written: a read waits until it has
   * been quiet this long, then reads it (default 100 ms; 0 reads at once). Writers that write a
   * temporary file and rename it are always read whole.
   */
  settleMs?: number;
  /**
   * Bytes of one part of the parts template (`file:///{+path}{?offset,length,version}`) when a
   * part URI gives no `length`; also the `length` of the first part that the error for a file too
   * large to read whole, and links to such a file, name (default 1 MiB: 1,048,576). A part is
   * also cut to fit the connection's cap, and a text part ends at a line or character boundary.
   */
  partBytes?: number;
  /**
   * Longest (ms) a `resources/read` of one file (whole, or a part) may wait on the file system
   * (default 30,000; Infinity: no limit). Past it the request gets -32603 naming the URI and
   * the limit, while the call still pending (a hung network mount) closes its file when it
   * returns. Other requests never wait for it: every call is asynchronous.
   */
  readTimeoutMs?: number;
  /**
   * Reads past `readTimeoutMs` that may still wait on the file system at once (default: half of
   * libuv's pool, UV_THREADPOOL_SIZE, else 2). Each holds a pool thread: past the bound, and for
   * a file whose earlier read still waits, a read answers -32603 (`reason: 'stalled'`) at once
   * without touching the disk, so that the pool keeps threads for healthy files.
   */
  maxStalledReads?: number;
  /**
   * Worker threads that resolve and read an uncached file as one job, at most (default 20: 4
   * started when reads come, of which one per core takes jobs and the rest are spares for when
   * slow files hold workers; more only while fewer than 4 are free of a job of over 250 ms,
   * stopped after 5 s idle; 0: every read runs on libuv's pool). Only with the default `fs` and
   * a contents cache: an injected `fs` runs on the event loop.
   */
  readWorkers?: number;
  /** Sees the progress of every walk of the folder. */
  onProgress?: (progress: IndexProgress) => void;
  /** Sees non-fatal problems (a watch that failed, a listing that was cut). */
  onWarning?: (message: string) => void;
  /** The file system calls (default: node's `fs/promises`); for tests. */
  fs?: ProviderFs;
}
