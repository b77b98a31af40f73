import type { ClientTransportSink } from '../../../client/transport.js';
import { McpKitError } from '../../../errors/index.js';
import { ERROR_CODES } from '../../../protocol/error-codes.js';
import { isResponse, type JSONRPCResponse, type RequestId } from '../../../protocol/jsonrpc.js';
import { Abort } from './client-abort.js';
import { discardBody, readBodyPrefix, readCappedBody } from './client-body.js';
import { answeredError, shownUrl, statusError, type HttpStatusError } from './client-failures.js';
import { fetchMcp } from './client-fetch.js';
import type { HttpAnswer } from './client-requester.js';
import { decodeInbound } from './client-inbound.js';
import {
  DELETE_TIMEOUT_MS,
  ERROR_BODY_BYTES,
  type ResolvedClientOptions,
} from './client-options.js';
import { ClientSession, SESSION_HEADER } from './client-session.js';

export const JSON_TYPE = 'application/json';
export const SSE_TYPE = 'text/event-stream';

/**
 * The HTTP side of the client transport: the requests it makes (headers, session) and what
 * failed answers mean. The transport keeps the bookkeeping of requests and streams.
 */
export class ClientLink {
  readonly session = new ClientSession();

  constructor(readonly options: ResolvedClientOptions) {}

  get shownUrl(): string {
    return shownUrl(this.options.url);
  }

  post(computed: Record<string, string>, body: string, signal: Abort): Promise<HttpAnswer> {
    const headers = this.headers(computed);
    headers['content-type'] = JSON_TYPE;
    headers['accept'] = POST_ACCEPT;
    return fetchMcp(this.options, { method: 'POST', headers, body, signal });
  }

  /** A GET for an SSE stream: the server's own, or the continuation of a request's. */
  get(
    computed: Record<string, string>,
    lastEventId: string | undefined,
    signal: Abort,
  ): Promise<HttpAnswer> {
    const headers = this.headers(this.session.streamHeaders(), computed);
    headers['accept'] = SSE_TYPE;
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    return fetchMcp(this.options, { method: 'GET', headers, signal });
  }

  /** Ends the 2025-11-25 session, if any; failures (405 included) are ignored. */
  async endSession(): Promise<void> {
    if (this.session.header === undefined) return;
    try {
      const response = await fetchMcp(this.options, {
        method: 'DELETE',
        headers: this.headers(this.session.streamHeaders()),
        signal: Abort.timeout(DELETE_TIMEOUT_MS),
      });
      await discardBody(response);
    } catch {
      // The session then ends on the server's idle timeout.
    }
  }

  /**
   * SESSION_EXPIRED when the 2025-11-25 session expired and none replaced it yet: what a
   * request (not `initialize`) fails with before it is sent.
   */
  expiredFailure(method: string): McpKitError | undefined {
    const id = this.session.expired;
    if (id === undefined) return undefined;
    return new McpKitError(
      'SESSION_EXPIRED',
      `${method} ${this.shownUrl}: the server no longer knows session ${id} (it answered 404); ` +
        'initialize again',
    );
  }

  /** Takes a session id off a response, warning about a malformed one. */
  capture(sink: ClientTransportSink, response: HttpAnswer, initialize: boolean): void {
    const warning = this.session.capture(response, initialize);
    if (warning !== undefined) sink.warn('INVALID_SESSION_ID', warning);
  }

  /**
   * What a status >= 400 means (its body consumed). A JSON-RPC error response to `id` is given
   * back as it is (the core reads its code: era detection); anything else is an HTTP_ERROR with
   * the status on it, SESSION_EXPIRED for a 404 to a request that carried a session id. A JSON
   * body is read up to `cap`: the request's own limit, when it set one.
   */
  async statusFailure(
    method: string,
    response: HttpAnswer,
    sent: string | undefined,
    id?: RequestId,
    cap = this.options.maxResponseBytes,
  ): Promise<HttpStatusError | JSONRPCResponse> {
    const url = this.options.url;
    if (response.status === 404 && sent !== undefined) {
      this.session.expire(sent);
      await discardBody(response);
      return statusError(
        'SESSION_EXPIRED',
        `${method} ${shownUrl(url)} answered 404: the server no longer knows session ${sent}; initialize again`,
        404,
      );
    }
    if (contentType(response) !== JSON_TYPE) {
      return answeredError(method, url, response, await readBodyPrefix(response, ERROR_BODY_BYTES));
    }
    const body = await readCappedBody(response, cap);
    if (body.tooLarge) {
      const what = `(a JSON body over ${cap} bytes, maxResponseBytes; not read)`;
      return answeredError(method, url, response, what);
    }
    const inbound = decodeInbound(body.text, this.options.maxDepth);
    if (inbound.kind === 'message' && isResponse(inbound.message) && id !== undefined) {
      const message = inbound.message;
      if (message.id === id) return message;
      // The POST carried this one request: a modern error with id null can only answer it.
      if (message.id === null && 'error' in message && MODERN_ERRORS.has(message.error.code)) {
        return { ...message, id };
      }
    }
    return answeredError(method, url, response, body.text);
  }

  /** Why a GET did not open an SSE stream (its body consumed). */
  async streamFailure(response: HttpAnswer, sent: string | undefined): Promise<McpKitError> {
    if (!isOk(response)) {
      return (await this.statusFailure('GET', response, sent)) as HttpStatusError;
    }
    await discardBody(response);
    const type = contentType(response) || 'none';
    return answeredError('GET', this.options.url, response, `Content-Type ${type}, not SSE`);
  }

  /**
   * A fresh set of lowercase headers: the extra headers, then the call's own (which they never
   * override), then the session.
   */
  private headers(...own: Array<Record<string, string>>): Record<string, string> {
    const headers = { ...this.options.headers };
    for (const set of own) {
      for (const name in set) headers[name.toLowerCase()] = set[name] as string;
    }
    const id = this.session.header;
    if (id !== undefined) headers[SESSION_HEADER] = id;
    return headers;
  }
}

/**
 * The 2026-07-28 errors a server may send with `id: null` (it refused the request before
 * reading its id: a header it could not match, a version it does not speak) and that era
 * detection reads. Other `id: null` errors (a legacy server's -32000 "Server not initialized"
 * to `server/discover`) stay HTTP_ERRORs with their status.
 */
const MODERN_ERRORS = new Set<number>([
  ERROR_CODES.HEADER_MISMATCH,
  ERROR_CODES.MISSING_REQUIRED_CLIENT_CAPABILITY,
  ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION,
]);

/** What POSTs accept: a JSON answer or an SSE stream. */
const POST_ACCEPT = `${JSON_TYPE}, ${SSE_TYPE}`;

export function contentType(response: HttpAnswer): string {
  const value = response.header('content-type');
  if (value === null) return '';
  const semicolon = value.indexOf(';');
  return (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

/** A 2xx status (fetch's `response.ok`). */
export function isOk(response: HttpAnswer): boolean {
  return response.status >= 200 && response.status <= 299;
}
