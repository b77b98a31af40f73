// The requests of the issue-25 cells: reads of the real folder's files (checked against the bytes
// written, decoded lazily: 20,500 answers are not kept as strings twice), server/discover, search.
import { HTTP_HEADERS, META, messageOf } from './payload.mjs';
import { keyOf } from './serve-requests.mjs';

export const uriOf = (rel) => `file:///${rel}`;

/** One request item as the serve cases use them (key, method, params, headers, check). */
export function rpcItem(method, params, headers, check) {
  const full = { ...params, _meta: META };
  return { key: keyOf(method, full), method, params: full, headers, check };
}

/** A resources/read of `rel`, whose answer must carry `bytes` as text (.txt) or blob. */
export function readItem(rel, bytes) {
  const uri = uriOf(rel);
  const isText = rel.endsWith('.txt');
  return rpcItem(
    'resources/read',
    { uri },
    { 'Mcp-Method': 'resources/read', 'Mcp-Name': uri },
    (r) => {
      const c = r.contents?.[0];
      if (!c || c.uri !== uri)
        return `contents[0].uri is ${JSON.stringify(c?.uri)}, expected ${uri}`;
      const same = isText
        ? c.text === bytes.toString('utf8')
        : typeof c.blob === 'string' && Buffer.from(c.blob, 'base64').equals(bytes);
      return same ? null : `contents[0].${isText ? 'text' : 'blob'} is not the file's bytes`;
    },
  );
}

export const discoverItem = () =>
  rpcItem('server/discover', {}, { 'Mcp-Method': 'server/discover' }, (r) =>
    Array.isArray(r.supportedVersions) ? null : 'no supportedVersions',
  );

/** A search for a word no file holds: a real answer (text, not isError) is required. */
export const searchItem = (query) =>
  rpcItem(
    'tools/call',
    { name: 'search', arguments: { query } },
    { 'Mcp-Method': 'tools/call', 'Mcp-Name': 'search' },
    (r) =>
      r.isError || r.content?.[0]?.type !== 'text'
        ? `not a search answer: ${JSON.stringify(r).slice(0, 300)}`
        : null,
  );

/** POSTs `it` with `id` to `url` (2026-07-28 headers); resolves with the JSON-RPC message. */
export async function post(url, it, id, timeoutMs = 120_000) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...HTTP_HEADERS, ...it.headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: it.method, params: it.params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  if (res.status !== 200)
    throw new Error(`${it.method}: HTTP ${res.status}: ${text.slice(0, 300)}`);
  return messageOf(text, res.headers.get('content-type'));
}

/** `post`, then the item's check: resolves with the result, throws saying what is wrong. */
export async function postChecked(url, it, id, timeoutMs) {
  const msg = await post(url, it, id, timeoutMs);
  if (msg?.id !== id) throw new Error(`${it.method}: answer id ${JSON.stringify(msg?.id)}`);
  if (msg.error) throw new Error(`${it.method}: error ${JSON.stringify(msg.error).slice(0, 300)}`);
  const problem = it.check(msg.result);
  if (problem) throw new Error(`${it.method}: ${problem}`);
  return msg.result;
}

/** A resources/read of a part (any URI), checked only for a blob and the part's meta. */
export const partItem = (uri) =>
  rpcItem('resources/read', { uri }, { 'Mcp-Method': 'resources/read', 'Mcp-Name': uri }, (r) =>
    typeof r.contents?.[0]?.blob === 'string' && r.contents[0]._meta?.['dev.mcpkit/part']
      ? null
      : `no part blob in ${JSON.stringify(r).slice(0, 300)}`,
  );
