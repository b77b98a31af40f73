import { McpKitError, type McpKitErrorCode } from '../../../errors/index.js';
import type { HttpAnswer } from './client-requester.js';

/** A transport failure tied to an HTTP answer: `status` is what the core branches on (404/405). */
export type HttpStatusError = McpKitError & { readonly status: number; readonly body?: string };

/** The longest excerpt of an error body quoted in a message (the whole prefix is on `body`). */
const EXCERPT_CHARS = 300;

/** The URL as messages show it: no credentials, no query (either may hold a secret). */
export function shownUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

export function statusError(
  code: McpKitErrorCode,
  message: string,
  status: number,
  body?: string,
): HttpStatusError {
  const error = new McpKitError(code, message);
  return Object.assign(error, body === undefined ? { status } : { status, body });
}

/** `405 Method Not Allowed` (the reason phrase when the server gave one). */
export function statusLine(response: HttpAnswer): string {
  return response.statusText ? `${response.status} ${response.statusText}` : `${response.status}`;
}

/** `POST <url> answered 405 Method Not Allowed[: <excerpt>]`, as an HTTP_ERROR with `status`. */
export function answeredError(
  method: string,
  url: URL,
  response: HttpAnswer,
  body = '',
): HttpStatusError {
  const excerpt = excerptOf(body);
  const message =
    `${method} ${shownUrl(url)} answered ${statusLine(response)}` + (excerpt ? `: ${excerpt}` : '');
  return statusError('HTTP_ERROR', message, response.status, body || undefined);
}

/** A request that failed (refused, reset, DNS): `POST <url> failed: connect ECONNREFUSED …`. */
export function networkError(method: string, url: URL, cause: unknown): McpKitError {
  return new McpKitError('HTTP_ERROR', `${method} ${shownUrl(url)} failed: ${reasonOf(cause)}`, {
    cause,
  });
}

/** The most telling message of an error chain (undici hides the socket error in `cause`). */
function reasonOf(error: unknown): string {
  // node:http's own AggregateError (every address of a host refused) has no message.
  if (error instanceof AggregateError && error.errors[0] instanceof Error && !error.message) {
    return error.errors[0].message;
  }
  let reason = errorText(error);
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const next: unknown = current.cause;
    if (next instanceof AggregateError && next.errors[0] instanceof Error) {
      return next.errors[0].message || reason;
    }
    if (next instanceof Error && next.message) reason = next.message;
    current = next;
  }
  return reason;
}

/** A short, single-line, printable excerpt of a body: control characters escaped. */
export function excerptOf(body: string): string {
  const trimmed = body.trim();
  const cut = trimmed.length > EXCERPT_CHARS ? `${trimmed.slice(0, EXCERPT_CHARS)}…` : trimmed;
  return cut.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) =>
    c === '\n' ? '\\n' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** What a failure names of its link (a type of its own: client-link.ts imports this file). */
interface FailureContext {
  readonly shownUrl: string;
  readonly options: { readonly maxResponseBytes: number; readonly maxReconnects: number };
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function asKitError(error: unknown, method: string, url: URL): McpKitError {
  return error instanceof McpKitError ? error : networkError(method, url, error);
}

export function tooLargeError(
  link: FailureContext,
  id: string | number,
  what: string,
  cap = link.options.maxResponseBytes,
): McpKitError {
  const head = `POST ${link.shownUrl}: ${what} to request ${String(id)} is larger than ${cap} bytes`;
  const tail =
    cap < link.options.maxResponseBytes
      ? ', the limit the request set (its maxResponseBytes); reading stopped there and the request was aborted'
      : ' (maxResponseBytes); raise maxResponseBytes, or ask for less (pagination, resource links)';
  return new McpKitError('RESPONSE_TOO_LARGE', head + tail);
}

export function interruptedError(
  link: FailureContext,
  flight: { readonly id: string | number },
  cause: unknown,
  exhausted: boolean,
): McpKitError {
  const why = cause === undefined ? '' : ` (${errorText(cause)})`;
  const after = exhausted
    ? `, and ${link.options.maxReconnects} reconnections (maxReconnects) did not bring it`
    : '';
  return new McpKitError(
    'STREAM_INTERRUPTED',
    `POST ${link.shownUrl}: the SSE stream of request ${String(flight.id)} ended before ` +
      `its response${why}${after}; send the request again`,
    { cause },
  );
}
