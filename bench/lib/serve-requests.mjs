// The workloads of the serve cases: each a list of distinct requests (method, params, the
// 2026-07-28 HTTP headers) with a check of the answer's shape that every target must pass, so the
// SDK server, mcpkit and the bare replay are held to the same result.
import { isDeepStrictEqual } from 'node:util';
import { HOT } from './serve-fixture.mjs';
import { META } from './payload.mjs';

const uriOf = (rel) => `file:///${rel}`;

/** One distinct request; `key` is what the bare replay looks answers up by. */
function item(method, params, name, check) {
  const full = { ...params, _meta: META };
  return {
    key: keyOf(method, full),
    method,
    params: full,
    headers: { 'Mcp-Method': method, 'Mcp-Name': name },
    check,
  };
}

/** The replay key of a request: its method and params, as the bare servers compute it. */
export const keyOf = (method, params) => `${method} ${JSON.stringify(params)}`;

function readCheck(uri, bytes) {
  const text = bytes.toString('utf8');
  const blob = bytes.toString('base64');
  const isText = !uri.endsWith('.png');
  return (r) => {
    const c = r.contents?.[0];
    if (!c || c.uri !== uri) return `contents[0].uri is ${JSON.stringify(c?.uri)}, expected ${uri}`;
    if (isText ? c.text !== text : c.blob !== blob)
      return `contents[0].${isText ? 'text' : 'blob'} is not the file's ${bytes.length} bytes`;
    return null;
  };
}

function reviewCheck(uri, bytes) {
  const text = bytes.toString('utf8');
  return (r) => {
    const [file, ask] = r.messages ?? [];
    const res = file?.content?.resource;
    if (file?.content?.type !== 'resource' || res?.uri !== uri || res.text !== text)
      return `messages[0] does not embed ${uri} as a resource with its text`;
    if (ask?.content?.type !== 'text' || !ask.content.text.includes('Review'))
      return 'messages[1] is not the review instructions (text)';
    return null;
  };
}

function searchCheck(query, expected) {
  const want = expected.map(uriOf).sort();
  return (r) => {
    if (r.isError) return `isError: ${JSON.stringify(r.content).slice(0, 300)}`;
    if (r.content?.[0]?.type !== 'text') return 'content[0] is not the text summary';
    const got = r.content
      .filter((c) => c.type === 'resource_link')
      .map((c) => c.uri)
      .sort();
    if (!isDeepStrictEqual(got, want))
      return `links ${JSON.stringify(got)}, expected ${JSON.stringify(want)} for ${JSON.stringify(query)}`;
    return null;
  };
}

const readItem = (fx, rel) =>
  item('resources/read', { uri: uriOf(rel) }, uriOf(rel), readCheck(uriOf(rel), fx.files.get(rel)));
const reviewItem = (fx, rel) =>
  item(
    'prompts/get',
    { name: 'review-file', arguments: { path: rel } },
    'review-file',
    reviewCheck(uriOf(rel), fx.files.get(rel)),
  );
const searchItem = (fx, query) =>
  item(
    'tools/call',
    { name: 'search', arguments: { query } },
    'search',
    searchCheck(query, fx.matches(query)),
  );

/**
 * The workloads: hot ones repeat one request; cold ones go through distinct requests in random
 * order. `label` is the table's name, `goal` the issue-12 target per transport (mcpkit/bare),
 * `retired` when issue 25 gave that target up (shown, not judged), `folder` the one served
 * (fx.dirs). `warm` workloads only warm a fresh server up.
 */
export function workloads(fx) {
  const retired = (w) => ({ ...w, retired: true });
  const hot = (name, label, goal, it) => ({ name, label, goal, folder: 'main', items: [it] });
  const cold = (name, label, goal, folder, items) => ({
    name,
    label,
    goal,
    folder,
    cold: true,
    items,
  });
  return [
    // Issue 25: >= 0.6x bare replay (a simple, non-blocking read path gives some of it back).
    hot('read', 'read 1 KiB', { http: 0.6, stdio: 0.6 }, readItem(fx, HOT.read)),
    hot('blob', 'read 256 KiB blob', { http: 0.8 }, readItem(fx, HOT.blob)),
    // Issue 25 removed the result memo that answered repeated prompts and tool calls from memory:
    // each is built again, as the SDK builds it.
    retired(
      hot(
        'review',
        'prompts/get review-file',
        { http: 0.8, stdio: 0.7 },
        reviewItem(fx, HOT.review),
      ),
    ),
    retired(
      hot('search', 'tools/call search', { http: 0.8, stdio: 0.7 }, searchItem(fx, HOT.search)),
    ),
    cold(
      'cold-read',
      `cold: ${fx.coldReads.length} distinct 1 KiB reads`,
      { http: 0.6, stdio: 0.6 },
      'cold',
      fx.coldReads.map((rel) => readItem(fx, rel)),
    ),
    retired(
      cold(
        'cold-review',
        `cold: review-file, ${fx.reviews.length} paths`,
        { http: 0.5, stdio: 0.5 },
        'main',
        fx.reviews.map((rel) => reviewItem(fx, rel)),
      ),
    ),
    retired(
      cold(
        'cold-search',
        `cold: search, ${fx.queries.length} queries`,
        { http: 0.5, stdio: 0.5 },
        'main',
        fx.queries.map((q) => searchItem(fx, q)),
      ),
    ),
    // A fresh server's warm-up, cycled: distinct requests outside the measured sets, so that the
    // uncached path is compiled too (one repeated request would be answered from memory).
    {
      name: 'warm-cold',
      folder: 'cold',
      warm: true,
      goal: {},
      items: fx.warmReads.map((rel) => readItem(fx, rel)),
    },
    {
      name: 'warm-main',
      folder: 'main',
      warm: true,
      goal: {},
      items: [
        ...fx.warmReviews.map((rel) => reviewItem(fx, rel)),
        ...fx.warmQueries.map((q) => searchItem(fx, q)),
      ],
    },
  ];
}

/** The JSON-RPC request text of `it` with `id`. */
export const requestText = (it, id) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: it.method, params: it.params });

/** `[head, tail]` of the request line: head + id + tail + '\n' is the request (no re-serialising). */
export function requestParts(it) {
  const [head, tail] = requestText(it, 0).split('"id":0');
  return [head + '"id":', tail + '\n'];
}

/**
 * Checks one parsed answer: a JSON-RPC result for `id` that passes the item's shape check.
 * Returns null when right, else what is wrong.
 */
export function checkAnswer(msg, id, it) {
  if (msg === null || typeof msg !== 'object') return 'answer is not a JSON object';
  if (msg.jsonrpc !== '2.0') return `jsonrpc is ${JSON.stringify(msg.jsonrpc)}`;
  if (msg.id !== id) return `id is ${JSON.stringify(msg.id)}, expected ${JSON.stringify(id)}`;
  if (msg.error) return `JSON-RPC error ${JSON.stringify(msg.error).slice(0, 500)}`;
  if (!msg.result || typeof msg.result !== 'object') return 'no result object';
  return it.check(msg.result);
}
