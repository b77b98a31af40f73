import { ERROR_CODES } from '../../../protocol/error-codes.js';
import { retryAfterSeconds, type BodyLimits, type BodyOutcome } from './body-limits.js';
import { ACCEPTED_CONTENT_TYPE, isJsonContentType } from './content-type.js';
import type { HttpExchange, HttpResponder } from './exchange.js';
import { jsonError } from './json-error.js';

/** Whether a POST's Content-Type is one the endpoint reads; answers 415 when it is not. */
export function acceptsContentType(ex: HttpExchange, res: HttpResponder): boolean {
  const type = ex.header('content-type');
  if (isJsonContentType(type)) return true;
  const got = type === undefined ? 'none was sent' : `got ${JSON.stringify(type.slice(0, 200))}`;
  jsonError(
    res,
    415,
    ERROR_CODES.INVALID_REQUEST,
    `Unsupported Media Type: Content-Type must be ${ACCEPTED_CONTENT_TYPE}; ${got}`,
  );
  return false;
}

/**
 * What a POST's `Accept` allows: JSON and SSE answers, or undefined after answering 406 when it
 * allows neither.
 */
export function acceptedAnswers(
  ex: HttpExchange,
  res: HttpResponder,
): { acceptsSse: boolean } | undefined {
  const accept = (ex.header('accept') ?? '*/*').toLowerCase();
  const anything = accept.includes('*/*');
  const acceptsJson =
    anything || accept.includes('application/json') || accept.includes('application/*');
  const acceptsSse = anything || accept.includes('text/event-stream');
  if (acceptsJson || acceptsSse) return acceptsSse ? SSE_TOO : JSON_ONLY;
  jsonError(
    res,
    406,
    ERROR_CODES.INVALID_REQUEST,
    'Not Acceptable: Accept must list application/json and text/event-stream',
  );
  return undefined;
}

const SSE_TOO = Object.freeze({ acceptsSse: true });
const JSON_ONLY = Object.freeze({ acceptsSse: false });

/**
 * The body's text, or undefined after answering why it was not read: 413 (too large), 408 (it
 * stalled) or 503 (the bodies being read already hold maxBodyTotalBytes). Each of these closes
 * the connection: the rest of that body is not worth reading.
 */
export function bodyText(
  raw: BodyOutcome,
  res: HttpResponder,
  limits: BodyLimits,
): string | undefined {
  if (typeof raw === 'string') return raw;
  const close = { connection: 'close' };
  switch (raw.refused) {
    case 'too-large':
      jsonError(
        res,
        413,
        ERROR_CODES.INVALID_REQUEST,
        `Payload Too Large: the body exceeds ${limits.maxBytes} bytes (maxBodyBytes)`,
        null,
        close,
      );
      return undefined;
    case 'timeout':
      jsonError(
        res,
        408,
        ERROR_CODES.INVALID_REQUEST,
        `Request Timeout: the body sent nothing for ${limits.idleMs} ms (bodyTimeoutMs)`,
        null,
        close,
      );
      return undefined;
    case 'unserialisable':
      jsonError(
        res,
        400,
        ERROR_CODES.PARSE_ERROR,
        'Parse error: the body parsed by the framework (req.body) cannot be serialised as JSON ' +
          'again (too deeply nested, or not JSON data)',
      );
      return undefined;
    case 'spent':
      // The server's setup, not the client's request: a parser read the body and kept it.
      jsonError(
        res,
        500,
        ERROR_CODES.INTERNAL_ERROR,
        'Internal error: the request body was read before the MCP handler and not handed over ' +
          "(pass the parsed body as the handler's third argument, or mount it before the parser)",
      );
      return undefined;
    case 'busy':
      jsonError(
        res,
        503,
        ERROR_CODES.INTERNAL_ERROR,
        `Service Unavailable: the request bodies being read would pass ${limits.budget.capBytes} ` +
          'bytes in all (maxBodyTotalBytes); retry later',
        null,
        { ...close, 'retry-after': retryAfterSeconds(limits.idleMs) },
      );
      return undefined;
  }
}
