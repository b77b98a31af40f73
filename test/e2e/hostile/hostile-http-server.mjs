// A small hostile MCP server over Streamable HTTP, for test/e2e/client-hostile-http.test.ts.
// Plain node:http on 127.0.0.1, an ephemeral port printed on stdout (one line).
//
// It answers `server/discover` as a 2026-07-28 server, then misbehaves per tool name, so that one
// client can have a healthy request in flight while another meets the misbehaviour:
//   tools/call healthy {key}        held until `release {key}` (answered after the misbehaviour)
//   tools/call release {key}        answers the held `healthy {key}` (or lets it through at once)
//   tools/call garbage-sse {then}   an SSE answer: garbage events, then a valid answer
//                                   (then: 'valid') or a malformed one (result: 42)
//   tools/call cut-sse {how}        an SSE answer that stops mid-event: the body ends ('end') or
//                                   the socket is destroyed ('destroy')
//   tools/call big-json {bytes, declare}  a JSON answer of `bytes` bytes, chunked or with its
//                                   Content-Length declared
//   tools/call big-sse {bytes}      an SSE answer whose one event carries `bytes` bytes
//   tools/call invalid              a result that violates the schema (content is not an array)
//   tools/call unknown-id {sse}     JSON: an answer to an id nobody asked for; SSE: one, then the
//                                   real answer
//   tools/call hang                 never answered (the socket stays open)
//   tools/call deep {depth}         a JSON answer nesting `depth` arrays
//   resources/list                  always one more page: the cursor never ends
//   subscriptions/listen            SSE: acknowledges, floods `_meta['test/flood']`
//                                   resources/updated notifications, then ends with its result
import { createServer } from 'node:http';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

const rpc = (message) => JSON.stringify({ jsonrpc: '2.0', ...message });
const text = (value) => ({ resultType: 'complete', content: [{ type: 'text', text: value }] });

function json(res, body, headers = {}) {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

function sse(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

/** Writes with backpressure; false when the client went away. */
function write(res, chunk) {
  if (res.destroyed) return Promise.resolve(false);
  if (res.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

const event = (message) => `data: ${message}\n\n`;

const held = new Map();
const released = new Set();

const tools = {
  healthy: (id, args, res) => {
    const body = rpc({ id, result: text(`healthy ${args.key}`) });
    if (released.has(args.key)) return json(res, body);
    held.set(args.key, () => json(res, body));
  },
  release: (id, args, res) => {
    const answer = held.get(args.key);
    held.delete(args.key);
    if (answer) answer();
    else released.add(args.key);
    json(res, rpc({ id, result: text('released') }));
  },
  'garbage-sse': async (id, args, res) => {
    sse(res);
    const junk = [
      ': a comment, which is fine\n\n',
      event('Server listening \u001b[31m(red)\u001b[0m'),
      event('\u001b[2J'),
      event('{"jsonrpc":"2.0","id":'),
      event('[1,2,3]'),
      event('{"hello":"world"}'),
      'event: weird\ndata: null\n\n',
      'data: {"jsonrpc":\ndata: "2.0"}\n\n',
      'id: 7\nretry: 10\n\n',
    ];
    for (const chunk of junk) await write(res, chunk);
    const result = args.then === 'valid' ? text('after the garbage') : 42;
    await write(res, event(rpc({ id, result })));
    res.end();
  },
  'cut-sse': async (id, args, res) => {
    sse(res);
    await write(res, `data: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"resultTy`);
    if (args.how === 'destroy') res.socket?.destroy();
    else res.end();
  },
  'big-json': (id, args, res) => {
    const open = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"resultType":"complete","content":[],"pad":"`;
    const close = '"}}';
    const body = open + 'x'.repeat(args.bytes - open.length - close.length) + close;
    if (args.declare) return json(res, body, { 'content-length': String(Buffer.byteLength(body)) });
    res.writeHead(200, { 'content-type': 'application/json' });
    // Chunked: the client only learns the size while it reads.
    void (async () => {
      for (let at = 0; at < body.length; at += 64 * 1024) {
        if (!(await write(res, body.slice(at, at + 64 * 1024)))) return;
      }
      res.end();
    })();
  },
  'big-sse': async (id, args, res) => {
    sse(res);
    const pad = 'x'.repeat(args.bytes);
    await write(res, event(rpc({ id, result: { ...text('big'), pad } })));
    res.end();
  },
  invalid: (id, _args, res) =>
    json(res, rpc({ id, result: { resultType: 'complete', content: 'not an array' } })),
  'unknown-id': async (id, args, res) => {
    const stray = rpc({ id: 987654, result: text('for nobody') });
    if (!args.sse) return json(res, stray);
    sse(res);
    await write(res, event(stray));
    await write(res, event(rpc({ id, result: text('the real answer') })));
    res.end();
  },
  hang: () => undefined,
  deep: (id, args, res) => {
    const depth = args.depth ?? 100_000;
    json(
      res,
      `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"resultType":"complete","content":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
    );
  },
};

async function listen(id, params, res) {
  const count = Number(params._meta?.['test/flood'] ?? 0);
  const sub = { [SUBSCRIPTION_ID]: id };
  sse(res);
  const ack = { notifications: params.notifications ?? {}, _meta: sub };
  await write(res, event(rpc({ method: 'notifications/subscriptions/acknowledged', params: ack })));
  const batch = 200;
  for (let i = 0; i < count; i += batch) {
    let chunk = '';
    for (let j = i; j < Math.min(count, i + batch); j++) {
      const note = { uri: `file:///flood/${j}`, _meta: sub };
      chunk += event(rpc({ method: 'notifications/resources/updated', params: note }));
    }
    if (!(await write(res, chunk))) return;
  }
  await write(res, event(rpc({ id, result: { resultType: 'complete' } })));
  res.end();
}

const methods = {
  'server/discover': (id, _params, res) =>
    json(
      res,
      rpc({
        id,
        result: {
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'private',
          supportedVersions: ['2026-07-28'],
          capabilities: { tools: {}, resources: { subscribe: true } },
          serverInfo: { name: 'hostile-http', version: '0.0.0' },
        },
      }),
    ),
  'tools/list': (id, _params, res) =>
    json(
      res,
      rpc({
        id,
        result: {
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'private',
          tools: Object.keys(tools).map((name) => ({ name, inputSchema: { type: 'object' } })),
        },
      }),
    ),
  'resources/list': (id, params, res) => {
    const page = Number(String(params.cursor ?? 'page-0').slice(5));
    json(
      res,
      rpc({
        id,
        result: {
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'private',
          resources: [{ uri: `file:///page/${page}`, name: `page ${page}` }],
          nextCursor: `page-${page + 1}`,
        },
      }),
    );
  },
  'subscriptions/listen': listen,
  'tools/call': (id, params, res) => {
    const tool = tools[params.name];
    if (tool) return tool(id, params.arguments ?? {}, res);
    json(res, rpc({ id, error: { code: -32602, message: `unknown tool ${params.name}` } }));
  },
};

const server = createServer((req, res) => {
  res.on('error', () => undefined);
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let message;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const handler = methods[message.method];
    if (handler) void handler(message.id, message.params ?? {}, res);
    else json(res, rpc({ id: message.id, error: { code: -32601, message: 'method not found' } }));
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
