// The one payload every target serves, the one request every target gets, and the check of a reply.
import { isDeepStrictEqual } from 'node:util';

export const VERSION = '2026-07-28';
export const URI = 'bench://doc';
export const MIME = 'text/plain';
export const SERVER_INFO = { name: 'bench', version: '1.0.0' };
/** 1 KiB of plain ASCII (no JSON escaping), the same for every target. */
export const TEXT_1K = 'abcdefghijklmnopqrstuvwxyz012345'.repeat(32);

/** The result mcpkit returns for a modern resources/read; bare answers exactly this. */
export const RESULT = {
  contents: [{ uri: URI, mimeType: MIME, text: TEXT_1K }],
  ttlMs: 0,
  cacheScope: 'private',
  resultType: 'complete',
  _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
};

/** The `_meta` of every modern request. */
export const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};

/** A modern (2026-07-28) resources/read request object. */
export const request = (id) => ({
  jsonrpc: '2.0',
  id,
  method: 'resources/read',
  params: { uri: URI, _meta: META },
});

export const HTTP_PATH = '/mcp';
export const HTTP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'MCP-Protocol-Version': VERSION,
  'Mcp-Method': 'resources/read',
  'Mcp-Name': URI,
};

/**
 * Checks one JSON-RPC reply for request `id`. Returns null when it is a correct modern result,
 * else a string saying what is wrong. Extra fields are tolerated (the spec allows them).
 */
export function checkReply(msg, id) {
  if (msg === null || typeof msg !== 'object') return 'reply is not a JSON object';
  if (msg.jsonrpc !== '2.0') return `jsonrpc is ${JSON.stringify(msg.jsonrpc)}, expected "2.0"`;
  if (msg.id !== id) return `id is ${JSON.stringify(msg.id)}, expected ${JSON.stringify(id)}`;
  if (msg.error) return `JSON-RPC error ${JSON.stringify(msg.error)}`;
  const r = msg.result;
  if (!r || typeof r !== 'object') return 'no result object';
  for (const key of Object.keys(RESULT)) {
    if (!isDeepStrictEqual(r[key], RESULT[key])) {
      const got = JSON.stringify(r[key]);
      return `result.${key} is ${got === undefined ? 'missing' : got.slice(0, 200)}, expected ${JSON.stringify(RESULT[key]).slice(0, 200)}`;
    }
  }
  return null;
}

const [LINE_HEAD, LINE_TAIL] = JSON.stringify(request(0)).split('"id":0');
/** One request as an NDJSON line, built by splicing the id into a template (cheap, no garbage). */
export const requestLine = (id) => `${LINE_HEAD}"id":${id}${LINE_TAIL}\n`;

const ID = /"id"\s*:\s*(-?\d+)/;
const COMPLETE = /"resultType"\s*:\s*"complete"/;
/**
 * Cheap check for the stdio hot loop, without JSON.parse (full checks run on samples): returns the
 * numeric id of a line that carries the 1 KiB text and resultType "complete", else null.
 */
export function quickReplyId(line) {
  if (!line.includes(TEXT_1K) || !COMPLETE.test(line) || line.includes('"error"')) return null;
  const m = ID.exec(line);
  return m ? Number(m[1]) : null;
}

/** The JSON-RPC message of an HTTP answer: the body, or the last `data:` line of an SSE stream. */
export function messageOf(text, contentType) {
  const json = (contentType ?? '').startsWith('text/event-stream')
    ? (
        text
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .pop() ?? ''
      ).slice(6)
    : text;
  return JSON.parse(json);
}
