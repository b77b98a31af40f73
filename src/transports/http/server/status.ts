import { ERROR_CODES } from '../../../protocol/error-codes.js';
import type { JSONRPCResponse } from '../../../protocol/jsonrpc.js';
import type { Era } from '../../../protocol/versions.js';

/**
 * The HTTP status of a JSON-RPC response, from its error code and the request's era.
 * 2025-11-25 carries JSON-RPC errors in-band (200; there a 404 means "no such session");
 * 2026-07-28 answers an unknown method with 404 and a request it cannot take as sent (bad
 * `_meta`, headers, version or capabilities) with 400. A message that is not valid JSON-RPC
 * at all (`wellFormed` false: the engine's classify refused it) is 400 in both eras.
 */
export function httpStatusFor(response: JSONRPCResponse, era: Era, wellFormed = true): number {
  if (!('error' in response)) return 200;
  const { code, data } = response.error;
  if (!wellFormed) return 400;
  // Nested past maxDepth: refused unread, as sent, in both eras (wire-errors `tooDeep`).
  if ((data as { reason?: unknown } | null | undefined)?.reason === 'too-deep') return 400;
  if (era === 'legacy') return 200;
  if (code === ERROR_CODES.PARSE_ERROR || code === ERROR_CODES.INVALID_REQUEST) return 400;
  switch (code) {
    case ERROR_CODES.METHOD_NOT_FOUND:
      return 404;
    case ERROR_CODES.HEADER_MISMATCH:
    case ERROR_CODES.MISSING_REQUIRED_CLIENT_CAPABILITY:
    case ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION:
      return 400;
    case ERROR_CODES.INVALID_PARAMS:
      return isMetaField(data) ? 400 : 200;
    default:
      return 200;
  }
}

/** Whether an invalid-params error is about the request's `_meta` (its envelope, not its call). */
function isMetaField(data: unknown): boolean {
  const field = (data as { field?: unknown } | null | undefined)?.field;
  return typeof field === 'string' && field.startsWith('params._meta');
}
