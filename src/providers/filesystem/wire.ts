/** What a read of the folder answers on the wire besides the bytes: `_meta` and refusals. */
import { MCPKIT_META_PREFIX } from '../../protocol/meta-keys.js';
import { ERROR_CODES } from '../../protocol/error-codes.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { resultTooLarge } from '../../errors/wire-errors.js';
import { PART_META_KEY } from '../../content/policy.js';
import { jsonStringWireSize, utf8Length } from '../../content/wire-size.js';
import { formatBytes } from './format.js';

const SIZE_KEY = `${MCPKIT_META_PREFIX}size`;
const LAST_MODIFIED_KEY = `${MCPKIT_META_PREFIX}lastModified`;

/** `_meta` of read contents: raw size and modification time. */
export function metaOf(size: number, mtimeMs: number): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  meta[SIZE_KEY] = size;
  meta[LAST_MODIFIED_KEY] = new Date(mtimeMs).toISOString();
  return meta;
}

/**
 * Wire bytes of one contents item besides its `text` or `blob` string: `uri`, `mimeType`, `_meta`,
 * the key of the string and some slack. `capBytes` less this bounds the string.
 */
export function contentsEnvelope(uri: string, mimeType: string, meta: object): number {
  return utf8Length(JSON.stringify({ uri, mimeType, _meta: meta })) + 16;
}

/** What {@link wholeEnvelope} adds to the URI's own JSON string (every ISO date is as long). */
const WHOLE_ENVELOPE_BASE = contentsEnvelope('', 'application/octet-stream', metaOf(0, 0)) - 2;

/** {@link contentsEnvelope} of a whole file at `uri`, reckoned with the longest common type. */
export function wholeEnvelope(uri: string): number {
  return WHOLE_ENVELOPE_BASE + jsonStringWireSize(uri);
}

/** Where a file too large to read whole can be read in parts. */
export interface PartsHint {
  /** The parts template, e.g. `file:///{+path}{?offset,length,version}`. */
  readonly partsTemplate: string;
  /** The URI of the file's first part. */
  readonly firstPart: string;
}

/**
 * A file that cannot fit this transport's cap for one result: -32603 (the request is valid; this
 * server cannot answer it here) with the sizes and what to do in `data`. `capBytes` is the limit
 * the text or blob string was compared with (the result cap less the contents' envelope); with
 * `parts`, the message and `data` say where to read the file in parts.
 */
export function tooLarge(
  uri: string,
  size: number,
  wireBytes: number,
  capBytes: number,
  parts?: PartsHint,
): ProtocolError {
  const what =
    `${uri} is too large to return over this connection: ${formatBytes(size)} (${size} bytes), ` +
    `at least ${formatBytes(wireBytes)} on the wire, over the ${formatBytes(capBytes)} cap for one result. `;
  const todo = parts
    ? `Read it in parts with resources/read through the template ${parts.partsTemplate}, starting with ` +
      `${parts.firstPart} (each part's _meta["${PART_META_KEY}"].next names the next one), ` +
      'or raise the cap with mcpkit serve --max-response-bytes.'
    : 'Raise the cap with mcpkit serve --max-response-bytes, or ask for a link instead of the ' +
      'contents (tool "read" with mode "link").';
  return resultTooLarge(
    what + todo,
    parts ? { uri, size, wireBytes, capBytes, ...parts } : { uri, size, wireBytes, capBytes },
  );
}

/** A parameter of the parts template that can name no part of this file. */
export type PartParameter = 'offset' | 'length' | 'version';

/**
 * A part URI whose `parameter` is unusable: -32602 naming it, with `data` `{ uri, parameter,
 * reason, size? }` (`size` once the file was looked at).
 */
export function badPartParameter(
  uri: string,
  parameter: PartParameter,
  reason: string,
  problem: string,
  size?: number,
): ProtocolError {
  return ProtocolError.invalidParams(
    `Invalid part ${uri}: "${parameter}" ${problem}`,
    size === undefined ? { uri, parameter, reason } : { uri, parameter, reason, size },
  );
}

/**
 * A part asked for at a version the file no longer has: -32602 with the current version and the
 * new first part, so that a walk starts over instead of splicing two versions.
 */
export function partChanged(uri: string, version: string, firstPart: string): ProtocolError {
  return ProtocolError.invalidParams(
    `${uri}: the file changed since that version (it is now version ${version}); ` +
      `read it again from its first part, ${firstPart}`,
    { uri, parameter: 'version', reason: 'changed', version, firstPart },
  );
}

/** Not even one character of a part fits the cap: -32603 with the sizes. */
export function partTooLarge(
  uri: string,
  size: number,
  wireBytes: number,
  capBytes: number,
): ProtocolError {
  return resultTooLarge(
    `${uri}: not even one character of this part fits the ${formatBytes(capBytes)} cap for one ` +
      `result (${wireBytes} bytes on the wire); raise the cap with mcpkit serve --max-response-bytes.`,
    { uri, size, wireBytes, capBytes },
  );
}

/**
 * A file that kept changing while it was read (each attempt saw its size, mtime or ctime move, or
 * read short): -32603, so that no bytes mixed from two versions are ever returned.
 */
export function fileChanged(uri: string, attempts: number): ProtocolError {
  return new ProtocolError(
    ERROR_CODES.INTERNAL_ERROR,
    `${uri} kept changing while it was read (${attempts} attempts); ` +
      'try again once it is no longer being written.',
    { uri, reason: 'changed', attempts },
  );
}

/**
 * A read of `uri` still waiting on the file system after `ms` (a hung or very slow mount):
 * -32603 with `reason: 'timeout'`. The request ends; the call in flight closes its file when
 * it returns.
 */
export function readTimedOut(uri: string, ms: number): ProtocolError {
  return new ProtocolError(
    ERROR_CODES.INTERNAL_ERROR,
    `${uri}: reading took longer than ${ms} ms (readTimeoutMs)`,
    { uri, reason: 'timeout', readTimeoutMs: ms },
  );
}

/**
 * A read refused without touching the disk: an earlier read of the same file (`'path'`), or
 * `maxStalledReads` reads of the folder (`'folder'`), still wait on the file system past
 * their time limit. -32603 with `reason: 'stalled'`.
 */
export function readStalled(
  uri: string,
  scope: 'path' | 'folder',
  readTimeoutMs: number,
  maxStalledReads?: number,
): ProtocolError {
  const why =
    scope === 'path'
      ? `an earlier read of this file, given up on at its time limit, still waits on the file system; it is not read again until that read returns`
      : `${maxStalledReads} reads of this folder, given up on at their time limit, still wait on the file system (maxStalledReads); no file is read until one returns`;
  return new ProtocolError(ERROR_CODES.INTERNAL_ERROR, `${uri}: not read: ${why}`, {
    uri,
    reason: 'stalled',
    readTimeoutMs,
    ...(maxStalledReads === undefined ? {} : { maxStalledReads }),
  });
}
