/** Parts of a file read by range: the template's parameters, the file version, a part's `_meta`. */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { PART_META_KEY } from '../../content/policy.js';
import type { ResourceStat } from '../../server/index.js';
import { badPartParameter, type PartParameter } from './wire.js';

/** Bytes of one part when a part URI gives no `length` (1 MiB). */
export const DEFAULT_PART_BYTES = 1024 * 1024;

/** The variables of the parts template after the path: `{?offset,length,version}`. */
export const PART_QUERY = '{?offset,length,version}';

/** What a part URI asks for, checked: a byte range, and the version it must come from. */
export interface PartRequest {
  /** First byte, 0 by default. */
  readonly offset: number;
  /** Most bytes, at least 1: the URI's `length`, else the provider's `partBytes`. */
  readonly length: number;
  /** The version the part must be read from, when the URI names one. */
  readonly version?: string;
}

/** The range one part holds and where the walk goes next: `_meta["dev.mcpkit/part"]`. */
export interface PartInfo {
  readonly offset: number;
  readonly length: number;
  /** The whole file's size in bytes. */
  readonly size: number;
  readonly version: string;
  /** The URI of the next part; absent on the last one. */
  readonly next?: string;
}

const DIGITS = /^[0-9]+$/;

/** What {@link fileVersion} gives: 16 characters of base64url. */
const VERSION = /^[A-Za-z0-9_-]{16}$/;

/** Longest value echoed in an error message: an absurd parameter is shown cut. */
const ECHO_CHARS = 40;

function echo(value: string): string {
  return JSON.stringify(value.length > ECHO_CHARS ? `${value.slice(0, ECHO_CHARS)}…` : value);
}

function integerOf(uri: string, name: PartParameter, value: string | string[]): number {
  // Digits only: "-1", "1e3", "0x10", " 7" and "" are not offsets, whatever Number() makes of them.
  if (typeof value !== 'string' || !DIGITS.test(value)) {
    const shown = typeof value === 'string' ? echo(value) : 'a list';
    throw badPartParameter(uri, name, 'not-an-integer', `must be a decimal integer, got ${shown}`);
  }
  const n = Number(value);
  if (!Number.isSafeInteger(n)) {
    throw badPartParameter(
      uri,
      name,
      'unsafe-integer',
      `must be at most ${Number.MAX_SAFE_INTEGER}, got ${echo(value)}`,
    );
  }
  return n;
}

/**
 * The part a URI of the parts template asks for, from its decoded variables; throws -32602 naming
 * the parameter when one is not a usable value (before any I/O). Whether the offset lies inside
 * the file is checked once the file is open.
 */
export function parsePartRequest(
  uri: string,
  variables: Record<string, string | string[]>,
  partBytes: number,
): PartRequest {
  const { offset, length, version } = variables;
  const start = offset === undefined ? 0 : integerOf(uri, 'offset', offset);
  const most = length === undefined ? partBytes : integerOf(uri, 'length', length);
  if (most === 0) throw badPartParameter(uri, 'length', 'zero', 'must be at least 1, got "0"');
  if (version === undefined) return { offset: start, length: most };
  if (typeof version !== 'string' || !VERSION.test(version)) {
    const shown = typeof version === 'string' ? echo(version) : 'a list';
    throw badPartParameter(
      uri,
      'version',
      'malformed',
      `is not a version this server gives (16 characters of base64url), got ${shown}; ` +
        'take it from the "version" of a part, or leave it out',
    );
  }
  return { offset: start, length: most, version };
}

/**
 * The version of a file as its open descriptor stats: device, inode, size, mtime and ctime,
 * hashed so that no inode number leaves the server. Any write, truncate, rename over it or chmod
 * gives another version.
 */
export function fileVersion(stats: Stats): string {
  const key = `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
  return createHash('sha256').update(key).digest('base64url').slice(0, 16);
}

/** `_meta` of a part's contents, besides the size and modification time of the whole file. */
export function partMeta(part: PartInfo): Record<string, unknown> {
  return { [PART_META_KEY]: { ...part } };
}

/**
 * What `stat` says of a part URI from the whole file's stat: the bytes it would hold at most
 * (its real length may end a few bytes earlier, at a line or character boundary), undefined when
 * the offset lies past the end.
 */
export function partStat(file: ResourceStat, request: PartRequest): ResourceStat | undefined {
  const { size } = file;
  if (request.offset > size || (request.offset === size && size > 0)) return undefined;
  const bytes = Math.min(request.length, size - request.offset);
  return file.mimeType === undefined ? { size: bytes } : { size: bytes, mimeType: file.mimeType };
}
