/**
 * The wire errors of listen streams and legacy subscriptions, built once so that their codes,
 * messages and `data` agree wherever they are raised. `data.reason` tells a client why without
 * reading the message: 'fell-behind' and 'events-lost' mean "listen again and re-read".
 */
import { ERROR_CODES } from '../protocol/error-codes.js';
import type { RequestId } from '../protocol/jsonrpc.js';
import { ProtocolError } from '../errors/protocol-error.js';

/** `-32603`: a stream cut because its client fell behind by more than `limit` of `option`. */
export function listenFellBehind(
  option: 'maxListenQueueBytes' | 'maxListenPendingUris',
  limit: number,
): ProtocolError {
  const what = option === 'maxListenQueueBytes' ? 'bytes' : 'distinct updated URIs';
  return new ProtocolError(
    ERROR_CODES.INTERNAL_ERROR,
    `subscriptions/listen ended: the client fell behind by more than ${limit} ${what} (${option}); updates were dropped, listen again and re-read`,
    { [option]: limit, reason: 'fell-behind' },
  );
}

/**
 * `-32603`: a stream cut because the streams of clients that do not read held more than `limit`
 * bytes together, and it held the most.
 */
export function listenTotalFellBehind(limit: number): ProtocolError {
  return new ProtocolError(
    ERROR_CODES.INTERNAL_ERROR,
    `subscriptions/listen ended: the listen streams of clients that do not read held more than ${limit} bytes together (maxListenQueueTotalBytes), this one the most; updates were dropped, listen again and re-read`,
    { maxListenQueueTotalBytes: limit, reason: 'fell-behind' },
  );
}

/** `-32603`: every stream is ended when the change bus may have lost events. */
export function listenEventsLost(why: string): ProtocolError {
  return new ProtocolError(
    ERROR_CODES.INTERNAL_ERROR,
    `subscriptions/listen ended: change events may have been lost (${why}); listen again and re-read`,
    { reason: 'events-lost' },
  );
}

/** `-32603`: a listen refused because `maxListens` streams are open (the server's limit, not the request's fault). */
export function tooManyListens(limit: number): ProtocolError {
  return new ProtocolError(
    ERROR_CODES.INTERNAL_ERROR,
    `subscriptions/listen refused: this server has ${limit} listen streams open, the most it keeps (maxListens); close one or try again later`,
    { maxListens: limit, reason: 'too-many-listens' },
  );
}

/** `-32602`: a listen names more URIs than `maxListenUris`. */
export function tooManyListenUris(count: number, limit: number): ProtocolError {
  return ProtocolError.invalidParams(
    `subscriptions/listen: notifications.resourceSubscriptions names ${count} URIs, more than maxListenUris (${limit}); subscribe to a common parent URI instead (it covers its sub-resources)`,
    { field: 'params.notifications.resourceSubscriptions', maxListenUris: limit },
  );
}

/** `-32602`: a 2025-11-25 session subscribing to one URI more than `maxListenUris`. */
export function tooManySubscriptions(limit: number): ProtocolError {
  return ProtocolError.invalidParams(
    `resources/subscribe: this session is subscribed to ${limit} URIs, the most it may be (maxListenUris); unsubscribe from one, or subscribe to a common parent URI (it covers its sub-resources)`,
    { field: 'params.uri', maxListenUris: limit },
  );
}

/**
 * `-32600`: a stream ended because the access token it was opened with expired (`data.error`
 * is OAuth's `invalid_token`); the client listens again with a fresh token.
 */
export function listenTokenExpired(): ProtocolError {
  return new ProtocolError(
    ERROR_CODES.INVALID_REQUEST,
    'subscriptions/listen ended: the access token it was opened with expired; listen again with a fresh token',
    { reason: 'token-expired', error: 'invalid_token' },
  );
}

/** The warning logged when a stream is cut for falling behind. */
export function fellBehindWarning(id: RequestId, detail: string): string {
  return `mcpkit: ended subscriptions/listen ${JSON.stringify(id)}: its client is not reading and ${detail}`;
}
