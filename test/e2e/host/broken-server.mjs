// A deliberately broken 2026-07-28 server for the tests of `mcpkit audit`: hand-written JSON-RPC
// (no SDK would let it send these answers) that plants one case of every finding code.
// Run: node test/e2e/host/broken-server.mjs --stdio
//      node test/e2e/host/broken-server.mjs --http   (prints "listening <url>")
// Over HTTP it also serves GET /redirect (302 into http://127.0.0.2:<port>/secret) and logs
// every request that is not a POST /mcp to stderr as "fetched <host> <path>": a guarded fetch
// must never reach /secret. Nothing listens anywhere but 127.0.0.1 and 127.0.0.2.
// With --html-extras (the test of `audit --html`): hostile names and a resource of each size
// class (linked: 2 MiB; in parts: 20 MiB listed, with a parts template).
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

const MODERN = '2026-07-28';
const MiB = 1024 * 1024;
const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
  0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
]);
/** PNG bytes long enough for base64 with a line break every 76 characters. */
const LONG_PNG = Buffer.concat([PNG, Buffer.alloc(90, 7)]);
/** 1.1 MiB of PNG bytes: 1.5 MiB of base64 on the wire. */
const BIG_PNG = Buffer.concat([PNG, Buffer.alloc(MiB + 100 * 1024)]);
const OPAQUE = Buffer.from([0, 0x13, 0x37, 0xfe, 0xed, 0, 1, 2, 3, 0x80, 0x81, 0xff]);
const CONTROL_URI = 'broken://ctl/\u001b[31mred\u202e';
const EXTRAS = process.argv.includes('--html-extras');
const SCRIPT = `<script>alert("x")</script>`;
const SCRIPT_URI = `broken://html/${SCRIPT}'`;

const complete = (result) => ({ resultType: 'complete', ...result });
const cacheable = (result) => complete({ ttlMs: 0, cacheScope: 'public', ...result });
const text = (uri, body, mimeType = 'text/plain') => ({ uri, mimeType, text: body });
const blob = (uri, bytes, mimeType) => ({
  uri,
  ...(mimeType ? { mimeType } : {}),
  blob: bytes.toString('base64'),
});

/** What resources/read answers, by URI: contents, or an error to throw. */
function readAnswer(uri) {
  switch (uri) {
    case 'broken://ok/text':
      return [text(uri, 'hello world')];
    case 'broken://blob/invalid':
      return [{ uri, mimeType: 'application/octet-stream', blob: 'not base64!!' }];
    case 'broken://blob/noncanonical':
      return [
        {
          uri,
          mimeType: 'image/png',
          blob: LONG_PNG.toString('base64').replace(/.{76}/g, '$&\n'),
        },
      ];
    case 'broken://blob/nomime':
      return [blob(uri, OPAQUE)];
    case 'broken://blob/mismatch':
      return [blob(uri, PNG, 'image/jpeg')];
    case 'broken://schema':
      return [{ uri, mimeType: 'text/plain' }];
    case 'broken://lies':
      return [text(uri, 'twelve bytes')];
    case CONTROL_URI:
      return [text(uri, 'a URI with control characters')];
    case 'broken://big':
      return [text(uri, 'b'.repeat(11 * MiB))];
    case SCRIPT_URI:
      return [text(uri, SCRIPT)];
    case 'broken://html/linked':
      return [text(uri, 'l'.repeat(2 * MiB))];
    case 'broken://parts/big?offset=0&length=1048576':
      return [text(uri, 'p'.repeat(MiB))];
    case 'broken://doc/fine':
      return [text(uri, 'a fine document', 'text/markdown')];
    case 'broken://doc/failing':
      throw { code: -32603, message: 'the document store is down' };
    case 'broken://fails':
      throw { code: -32603, message: 'this resource always fails' };
    case 'broken://gone':
      throw { code: -32002, message: 'Resource not found', data: { uri } };
    default:
      throw { code: -32602, message: 'Resource not found', data: { uri } };
  }
}

const RESOURCES = [
  { uri: 'broken://ok/text', name: 'ok', mimeType: 'text/plain', size: 11 },
  { uri: 'broken://blob/invalid', name: 'invalid blob' },
  { uri: 'broken://blob/noncanonical', name: 'noncanonical blob' },
  { uri: 'broken://blob/nomime', name: 'blob without type' },
  { uri: 'broken://blob/mismatch', name: 'mismatched blob', mimeType: 'image/jpeg' },
  { uri: 'broken://schema', name: 'schema' },
  { uri: 'broken://fails', name: 'fails' },
  { uri: 'broken://lies', name: 'lies', mimeType: 'text/plain', size: 5 },
  { uri: CONTROL_URI, name: 'control \u001b]0;title\u0007' },
  {
    uri: 'broken://huge',
    name: 'huge',
    mimeType: 'application/octet-stream',
    size: 2 * 1024 * MiB,
  },
  ...(EXTRAS
    ? [
        { uri: SCRIPT_URI, name: `${SCRIPT} "quoted" \u202eevil` },
        { uri: 'broken://html/linked', name: 'linked', mimeType: 'text/plain', size: 2 * MiB },
        { uri: 'broken://parts/big', name: 'in parts', mimeType: 'text/plain', size: 20 * MiB },
      ]
    : []),
  // Last: its 11 MiB answer spends the read budget.
  { uri: 'broken://big', name: 'big', mimeType: 'text/plain' },
];

const TOOLS = [
  { name: 'dup', inputSchema: { type: 'object' } },
  { name: 'dup', description: 'the same name again', inputSchema: { type: 'object' } },
  { name: 'fails-tool', inputSchema: { type: 'object' } },
  { name: 'hangs', description: 'never answers', inputSchema: { type: 'object' } },
];

const link = (uri, name, extra = {}) => ({ type: 'resource_link', uri, name, ...extra });

function promptAnswer(name, args, httpBase) {
  const user = (content) => ({ role: 'user', content });
  switch (name) {
    case 'links':
      return [
        user(link('broken://nowhere/x', 'nowhere')),
        user(link('broken://doc/failing', 'failing doc')),
        user(link('broken://gone', 'gone')),
        // Its size lies (the document has 15 bytes).
        user(link('broken://doc/fine', 'fine doc', { mimeType: 'text/markdown', size: 3 })),
        // A 2 GiB claim: never read, whatever the budget.
        user(link('broken://doc/huge', 'huge doc', { size: 2 * 1024 * MiB })),
        user(link('http://127.0.0.1:9/internal', 'loopback')),
        user(link('http://169.254.169.254/latest/meta-data/', 'metadata')),
        ...(httpBase ? [user(link(`${httpBase}/redirect`, 'redirect'))] : []),
        ...(EXTRAS
          ? [user(link("https://evil.example/?q='onmouseover='alert(1)&x=1", SCRIPT))]
          : []),
      ];
    case 'big-embed':
      // Both over the default block budget of 1 MiB on the wire: a resource, and an image.
      return [
        user({
          type: 'resource',
          resource: text('broken://embedded', 'e'.repeat(MiB + 100 * 1024)),
        }),
        user({ type: 'image', mimeType: 'image/png', data: BIG_PNG.toString('base64') }),
      ];
    case 'needs-arg':
      // Only the value its completion offers works: proves the audit asked for it.
      if (args?.topic !== 'alpha')
        throw {
          code: -32602,
          message: `topic must be "alpha", got ${JSON.stringify(args?.topic)}`,
        };
      return [user({ type: 'text', text: 'about alpha' })];
    default:
      throw { code: -32602, message: `unknown prompt ${name}` };
  }
}

/** The result of one request, or throws a JSON-RPC error object. */
function handle(method, params, httpBase) {
  switch (method) {
    case 'server/discover':
      return cacheable({
        supportedVersions: [MODERN],
        capabilities: { tools: {}, prompts: {}, resources: {}, completions: {} },
        _meta: {
          'io.modelcontextprotocol/serverInfo': { name: 'broken-server', version: '0.0.1' },
        },
      });
    case 'tools/list':
      // missing-cache-hints: no ttlMs, no cacheScope.
      return complete({ tools: TOOLS });
    case 'prompts/list':
      // missing-result-type.
      return {
        ttlMs: 0,
        cacheScope: 'public',
        prompts: [
          { name: 'links' },
          { name: 'big-embed' },
          { name: 'needs-arg', arguments: [{ name: 'topic', required: true }] },
        ],
      };
    case 'resources/list':
      return cacheable({ resources: RESOURCES });
    case 'resources/templates/list':
      // pagination-loop: the cursor never changes.
      return cacheable({
        resourceTemplates: [
          { uriTemplate: 'broken://doc/{name}', name: 'doc' },
          { uriTemplate: 'broken://bad/{unclosed', name: 'bad' },
          ...(EXTRAS
            ? [{ uriTemplate: 'broken://parts/{name}{?offset,length}', name: 'parts' }]
            : []),
        ],
        nextCursor: 'again',
      });
    case 'resources/read':
      return cacheable({ contents: readAnswer(params.uri) });
    case 'prompts/get':
      return complete({ messages: promptAnswer(params.name, params.arguments, httpBase) });
    case 'completion/complete':
      return complete({
        completion: { values: params.argument?.name === 'topic' ? ['alpha'] : [] },
      });
    case 'tools/call':
      if (params.name === 'fails-tool')
        return complete({ content: [{ type: 'text', text: 'it broke' }], isError: true });
      return complete({ content: [{ type: 'text', text: 'ok' }] });
    default:
      throw { code: -32601, message: `Method not found: ${method}` };
  }
}

function answer(message, httpBase) {
  if (message.id === undefined) return undefined;
  if (message.method === 'tools/call' && message.params?.name === 'hangs') return 'never';
  try {
    const result = handle(message.method, message.params ?? {}, httpBase);
    return { jsonrpc: '2.0', id: message.id, result };
  } catch (error) {
    return { jsonrpc: '2.0', id: message.id, error };
  }
}

function serveStdio() {
  // client-warning: a line that is not JSON-RPC.
  process.stdout.write('this line is not JSON\n');
  createInterface({ input: process.stdin }).on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    const out = answer(message, undefined);
    if (out && out !== 'never') process.stdout.write(`${JSON.stringify(out)}\n`);
  });
}

async function listen(server, host) {
  await new Promise((resolve) => server.listen(0, host, resolve));
  return server.address().port;
}

async function serveHttp() {
  const secret = createServer((req, res) => {
    process.stderr.write(`fetched 127.0.0.2 ${req.url}\n`);
    res.end('secret');
  });
  const secretPort = await listen(secret, '127.0.0.2');
  let base = '';
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/mcp') {
      process.stderr.write(`fetched 127.0.0.1 ${req.url}\n`);
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.2:${secretPort}/secret` }).end();
      } else res.writeHead(404).end();
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const out = answer(JSON.parse(Buffer.concat(chunks).toString('utf8')), base);
      if (out === 'never') return;
      if (!out) return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  const port = await listen(server, '127.0.0.1');
  base = `http://127.0.0.1:${port}`;
  process.stdout.write(`listening ${base}/mcp\n`);
  const stop = () => {
    server.closeAllConnections();
    secret.close();
    server.close(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
}

if (process.argv.includes('--http')) await serveHttp();
else serveStdio();
