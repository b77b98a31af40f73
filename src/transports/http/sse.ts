import type { JSONRPCMessage } from '../../protocol/jsonrpc.js';

/** One SSE event carrying a JSON-RPC message. */
export function sseEvent(message: JSONRPCMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

export const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
};
