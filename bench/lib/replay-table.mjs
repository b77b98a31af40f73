// The bare servers' table: mcpkit's own answer bytes, captured per distinct request, cut around the
// JSON-RPC id so that the replay splices the request's id in. Written by the capture step (a JSON
// file: [[key, head, tail], ...]) and loaded by bench/servers/serve-bare-*.mjs.
import { readFileSync } from 'node:fs';

/** Loads a table file into Map(key -> [head Buffer, tail Buffer]); `suffix` is appended to tail. */
export function loadTable(file, suffix = '') {
  const table = new Map();
  for (const [key, head, tail] of JSON.parse(readFileSync(file, 'utf8')))
    table.set(key, [Buffer.from(head), Buffer.from(tail + suffix)]);
  return table;
}

/** The replay key of a parsed request (the same as serve-requests.mjs keyOf). */
export const keyOfMessage = (msg) => `${msg.method} ${JSON.stringify(msg.params)}`;

/** A JSON-RPC error line for a request the table does not hold (the checks then fail loudly). */
export const unknown = (msg) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: msg.id ?? null,
    error: { code: -32601, message: 'bare replay: request not captured' },
  });
