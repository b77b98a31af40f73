// A small hostile MCP server over stdio, for test/e2e/client-hostile-stdio.test.ts. Plain Node.
//
// It answers `server/discover` as a 2026-07-28 server, then misbehaves per tool name, so that one
// client can have a healthy request in flight while another meets the misbehaviour:
//   tools/call healthy {key}    held until `release {key}` (answered after the misbehaviour)
//   tools/call release {key}    answers the held `healthy {key}` (or lets it through at once)
//   tools/call garbage {then}   garbage lines, then a valid answer (then: 'valid') or a
//                               malformed one (result: 42)
//   tools/call overcap {bytes, at: 'head'|'tail'|'none'|'text'}
//                               one answer line of `bytes` bytes: the id first, last, absent, or
//                               no JSON at all
//   tools/call unknown-id       answers ids nobody asked for, never this one
//   tools/call invalid          a result that violates the schema (content is not an array)
//   tools/call hang             never answered
//   tools/call die {code}       writes to stderr and exits with `code`, unanswered
//   tools/call deep {depth}     a result nesting `depth` arrays (100k: far past any stack)
//   tools/call stderr-status    answers how many bytes it wrote to stderr so far
//   resources/list              always one more page: the cursor never ends
//   subscriptions/listen        acknowledges, floods `_meta['test/flood']` resources/updated
//                               notifications, then ends the listen with its result
// argv[2] 'stderr-flood': writes to stderr endlessly from the start (until stdin closes).
import { createInterface } from 'node:readline';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const stderrFlood = process.argv[2] === 'stderr-flood';

function line(text) {
  return new Promise((resolve) => {
    if (process.stdout.write(`${text}\n`)) resolve();
    else process.stdout.once('drain', resolve);
  });
}

const send = (message) => line(JSON.stringify({ jsonrpc: '2.0', ...message }));
const answer = (id, result) => send({ id, result });
const text = (value) => ({ resultType: 'complete', content: [{ type: 'text', text: value }] });

const held = new Map();
const released = new Set();

function bigLine(id, bytes, at) {
  if (at === 'text') return 'x'.repeat(bytes);
  const idText = JSON.stringify(id);
  const [open, close] =
    at === 'tail'
      ? ['{"jsonrpc":"2.0","result":{"resultType":"complete","pad":"', `"},"id":${idText}}`]
      : at === 'none'
        ? ['{"jsonrpc":"2.0","result":{"resultType":"complete","pad":"', '"}}']
        : [`{"jsonrpc":"2.0","id":${idText},"result":{"resultType":"complete","pad":"`, '"}}'];
  return open + 'x'.repeat(bytes - Buffer.byteLength(open + close)) + close;
}

let stderrBytes = 0;
let stopStderr = false;
async function floodStderr() {
  const chunk = `${'e'.repeat(1023)}\n`.repeat(64);
  while (!stopStderr) {
    stderrBytes += chunk.length;
    if (!process.stderr.write(chunk)) {
      await new Promise((resolve) => process.stderr.once('drain', resolve));
    }
  }
}

const tools = {
  healthy: (id, args) => {
    if (released.has(args.key)) return answer(id, text(`healthy ${args.key}`));
    held.set(args.key, id);
  },
  release: async (id, args) => {
    const waiting = held.get(args.key);
    held.delete(args.key);
    if (waiting === undefined) released.add(args.key);
    else await answer(waiting, text(`healthy ${args.key}`));
    await answer(id, text('released'));
  },
  garbage: async (id, args) => {
    for (const junk of [
      'Server listening on stdio \u001b[31m(red)\u001b[0m',
      '\u001b[2J',
      '{"jsonrpc":"2.0","id":',
      '[1,2,3]',
      '{"hello":"world"}',
      '\u0000\u0001\u00ff binary-ish',
      'null',
    ]) {
      await line(junk);
    }
    await send({ id, result: args.then === 'valid' ? text('after the garbage') : 42 });
  },
  overcap: (id, args) => line(bigLine(id, args.bytes, args.at ?? 'head')),
  'unknown-id': async (id) => {
    await answer(987654, text('for nobody'));
    await answer('nobody', text('for nobody'));
    await send({ id: null, error: { code: -32603, message: 'an error for id null' } });
    void id;
  },
  invalid: (id) => answer(id, { resultType: 'complete', content: 'not an array' }),
  hang: () => undefined,
  die: (_id, args) => {
    process.stderr.write('fatal: the hostile server dies mid-request\n');
    process.exit(args.code ?? 3);
  },
  deep: (id, args) => {
    const depth = args.depth ?? 100_000;
    return line(
      `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"resultType":"complete","content":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
    );
  },
  'stderr-status': (id) => answer(id, { ...text('status'), structuredContent: { stderrBytes } }),
};

async function listen(id, params) {
  const meta = params._meta ?? {};
  const count = Number(meta['test/flood'] ?? 0);
  const sub = { [SUBSCRIPTION_ID]: id };
  await send({
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: params.notifications ?? {}, _meta: sub },
  });
  for (let i = 0; i < count; i++) {
    await send({
      method: 'notifications/resources/updated',
      params: { uri: `file:///flood/${i}`, _meta: sub },
    });
  }
  await answer(id, { resultType: 'complete' });
}

const methods = {
  'server/discover': (id) =>
    answer(id, {
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {}, resources: { subscribe: true } },
      serverInfo: { name: 'hostile-stdio', version: '0.0.0' },
    }),
  'tools/list': (id) =>
    answer(id, {
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      tools: Object.keys(tools).map((name) => ({ name, inputSchema: { type: 'object' } })),
    }),
  'resources/list': (id, params) => {
    const page = Number(String(params.cursor ?? 'page-0').slice(5));
    return answer(id, {
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      resources: [{ uri: `file:///page/${page}`, name: `page ${page}` }],
      nextCursor: `page-${page + 1}`,
    });
  },
  'subscriptions/listen': listen,
  'tools/call': (id, params) => {
    const tool = tools[params.name];
    if (tool) return tool(id, params.arguments ?? {});
    return send({ id, error: { code: -32602, message: `unknown tool ${params.name}` } });
  },
};

if (stderrFlood) void floodStderr();

const input = createInterface({ input: process.stdin });
input.on('line', (raw) => {
  const message = JSON.parse(raw);
  if (message.id === undefined || message.method === undefined) return;
  const handler = methods[message.method];
  if (handler) void handler(message.id, message.params ?? {});
  else void send({ id: message.id, error: { code: -32601, message: 'method not found' } });
});
input.on('close', () => {
  stopStderr = true;
  process.exit(0);
});
