/** JSON-RPC 2.0 envelopes as MCP uses them (no batches). */
export type RequestId = string | number;

export interface JSONRPCRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JSONRPCNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export interface JSONRPCResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Record<string, unknown>;
}

export interface JSONRPCErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JSONRPCErrorResponse {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: JSONRPCErrorObject;
}

export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;
export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResponse;

/** The kind of a decoded message, or why it is not a valid JSON-RPC message. */
export type Classified =
  | { kind: 'request'; message: JSONRPCRequest }
  | { kind: 'notification'; message: JSONRPCNotification }
  | { kind: 'response'; message: JSONRPCResponse }
  | {
      kind: 'invalid';
      id: RequestId | null;
      reason: string;
      /** For a malformed response: the id of the request it answers (to fail that request). */
      responseTo?: RequestId;
    };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A string, or an integer JSON.parse kept exactly. Past Number.MAX_SAFE_INTEGER a parsed integer
 * may already be another number (18446744073709551617 reads as 18446744073709552000): echoing it
 * would answer an id the client never sent, so such ids are refused instead.
 */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

/**
 * The request a valid `notifications/cancelled` names, else undefined; for a message parsed only
 * (stdio's queue, the bridge) as for a classified one: an invalid one cancels nothing.
 */
export function cancelledIdOf(message: unknown): RequestId | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as Partial<JSONRPCNotification> & { id?: unknown };
  if (m.jsonrpc !== '2.0' || m.method !== 'notifications/cancelled' || m.id !== undefined)
    return undefined;
  const id = m.params?.requestId;
  return isRequestId(id) ? id : undefined;
}

const UNSAFE_ID = `field "id" must be a string or an integer from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER} (Number.MAX_SAFE_INTEGER): larger integers lose precision; send such ids as strings`;

/** Why `value` (present and not null) is not a request id. */
function idProblem(value: unknown): string {
  return typeof value === 'number' && Number.isInteger(value)
    ? UNSAFE_ID
    : 'field "id" must be a string or an integer';
}

/** Why a response envelope is malformed: exactly one of an object `result` or a valid `error`. */
function responseProblem(value: Record<string, unknown>): string | undefined {
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult && hasError) return 'a response has "result" or "error", not both';
  if (hasResult) {
    return isPlainObject(value['result']) ? undefined : 'field "result" must be an object';
  }
  const error = value['error'];
  if (!isPlainObject(error)) return 'field "error" must be an object';
  const code = error['code'];
  if (typeof code !== 'number' || !Number.isInteger(code)) {
    return 'field "error.code" must be an integer';
  }
  if (typeof error['message'] !== 'string') return 'field "error.message" must be a string';
  return undefined;
}

/** Classifies a parsed JSON value; checks the envelope only, never `params`. */
export function classify(value: unknown): Classified {
  if (Array.isArray(value)) {
    return { kind: 'invalid', id: null, reason: 'batches are not supported: send one message' };
  }
  if (!isPlainObject(value)) {
    return { kind: 'invalid', id: null, reason: 'a message must be a JSON object' };
  }
  const rawId = value['id'];
  const id = isRequestId(rawId) ? rawId : null;
  if (value['jsonrpc'] !== '2.0') {
    return { kind: 'invalid', id, reason: 'field "jsonrpc" must be "2.0"' };
  }
  const method = value['method'];
  if (method === undefined) {
    if ('result' in value || 'error' in value) {
      if (rawId !== null && !isRequestId(rawId)) {
        return { kind: 'invalid', id: null, reason: idProblem(rawId) };
      }
      const problem = responseProblem(value);
      if (problem === undefined) {
        return { kind: 'response', message: value as unknown as JSONRPCResponse };
      }
      // Never answered with the id: it names one of our requests, not one of the peer's.
      return rawId === null
        ? { kind: 'invalid', id: null, reason: problem }
        : { kind: 'invalid', id: null, reason: problem, responseTo: rawId };
    }
    return { kind: 'invalid', id, reason: 'field "method" is missing' };
  }
  if (typeof method !== 'string' || method.length === 0) {
    return { kind: 'invalid', id, reason: 'field "method" must be a non-empty string' };
  }
  const params = value['params'];
  if (params !== undefined && !isPlainObject(params)) {
    return { kind: 'invalid', id, reason: 'field "params" must be an object' };
  }
  if (!('id' in value)) {
    return { kind: 'notification', message: value as unknown as JSONRPCNotification };
  }
  if (!isRequestId(rawId)) {
    return { kind: 'invalid', id: null, reason: idProblem(rawId) };
  }
  return { kind: 'request', message: value as unknown as JSONRPCRequest };
}

export function resultResponse(
  id: RequestId,
  result: Record<string, unknown>,
): JSONRPCResultResponse {
  return { jsonrpc: '2.0', id, result };
}

export function errorResponse(
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
): JSONRPCErrorResponse {
  const error: JSONRPCErrorObject =
    data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: '2.0', id, error };
}

export function notification(
  method: string,
  params?: Record<string, unknown>,
): JSONRPCNotification {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

export function isResponse(message: JSONRPCMessage): message is JSONRPCResponse {
  return !('method' in message);
}

export function isErrorResponse(message: JSONRPCResponse): message is JSONRPCErrorResponse {
  return 'error' in message;
}
