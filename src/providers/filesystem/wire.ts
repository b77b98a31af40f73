/** What a read of the folder answers on the wire besides the bytes: `_meta` and refusals. */
import { MCPKIT_META_PREFIX } from '../../protocol/meta-keys.js';
import { ERROR_CODES } from '../../protocol/error-codes.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { resultTooLarge } from '../../errors/wire-errors.js';
import { formatBytes } from './format.js';

/** `_meta` of read contents: raw size and modification time. */
export function metaOf(size: number, mtimeMs: number): Record<string, unknown> {
  return {
    [`${MCPKIT_META_PREFIX}size`]: size,
    [`${MCPKIT_META_PREFIX}lastModified`]: new Date(mtimeMs).toISOString(),
  };
}

/**
 * A file that cannot fit this transport's cap for one result: -32603 (the request is valid; this
 * server cannot answer it here) with the sizes and what to do in `data`.
 */
export function tooLarge(
  uri: string,
  size: number,
  wireBytes: number,
  capBytes: number,
): ProtocolError {
  return resultTooLarge(
    `${uri} is too large to return over this connection: ${formatBytes(size)} (${size} bytes), ` +
      `at least ${formatBytes(wireBytes)} on the wire, over the ${formatBytes(capBytes)} cap for one result. ` +
      'Use a transport with a larger message cap (mcpkit serve --max-line-bytes or --max-body-bytes), ' +
      'or ask for a link instead of the contents (tool "read" with mode "link").',
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

/** Every search slot stayed taken while a search waited for one: -32603 with `reason: 'busy'`. */
export function searchBusy(message: string, concurrency: number): ProtocolError {
  return new ProtocolError(ERROR_CODES.INTERNAL_ERROR, message, { reason: 'busy', concurrency });
}
