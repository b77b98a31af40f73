/** A 2026-07-28 `subscriptions/listen` POSTed without `text/event-stream` in its Accept. */
import { ERROR_CODES } from '../../../protocol/error-codes.js';
import { META } from '../../../protocol/meta-keys.js';
import { isRequestId } from '../../../protocol/jsonrpc.js';
import type { HttpExchange, HttpResponder } from './exchange.js';
import { checkModernHeaders } from './header-check.js';
import { jsonError } from './json-error.js';

type Body = Record<string, unknown>;

/**
 * Answers it: 400 when its headers disagree with its body (reported first, as for any other
 * request), else 406, since a listen stream can only be answered as SSE.
 */
export function refuseListenWithoutSse(ex: HttpExchange, res: HttpResponder, b: Body): void {
  const id = isRequestId(b['id']) ? b['id'] : null;
  const params = (b['params'] ?? {}) as Body;
  const version = (params['_meta'] as Body | undefined)?.[META.protocolVersion];
  const mismatch =
    typeof version === 'string'
      ? checkModernHeaders(ex, 'subscriptions/listen', params, version, () => undefined)
      : undefined;
  if (mismatch) return jsonError(res, 400, mismatch.code, mismatch.message, id, {}, mismatch.data);
  return jsonError(
    res,
    406,
    ERROR_CODES.INVALID_REQUEST,
    'Not Acceptable: subscriptions/listen answers with an SSE stream; Accept must list text/event-stream',
    id,
  );
}
