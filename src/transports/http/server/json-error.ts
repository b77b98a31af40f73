import { errorResponse, type JSONRPCResponse } from '../../../protocol/jsonrpc.js';
import type { HttpResponder } from './exchange.js';
import { JSON_HEADERS } from './sse.js';

/** Answers with a JSON-RPC error body and an HTTP status. */
export function jsonError(
  res: HttpResponder,
  status: number,
  code: number,
  message: string,
  id: JSONRPCResponse['id'] = null,
  extraHeaders: Record<string, string> = {},
  data?: unknown,
): void {
  res.send(
    status,
    { ...JSON_HEADERS, ...extraHeaders },
    JSON.stringify(errorResponse(id, code, message, data)),
  );
}
