// A hostile MCP server over Streamable HTTP that floods the client with its own requests. Plain
// node:http on 127.0.0.1; prints one line: {"port", "statsPort"}. argv[2]: 'modern' or 'legacy'.
//   tools/call echo    answered at once
//   tools/call flood   an SSE answer of endless `ping` requests (written as fast as they are
//                      read), never the answer
//   any other POST     (the client's replies and notifications included) an SSE answer of 50
//                      `ping` requests
// GET statsPort/ answers {"peak", "open", "posts", "replies"}: the most connections open at once
// to the MCP port, those open now, the POSTs received and those among them that answered a ping.
// A connection counts as closed once its client ended it ('end' or 'error'), not at its 'close',
// which may come after the client's pool opened the next one (the client counts its own too).
import { createServer } from 'node:http';

const era = process.argv[2] === 'legacy' ? 'legacy' : 'modern';
const serverInfo = { name: 'request-flood', version: '0.0.0' };
const meta = { resultType: 'complete', ttlMs: 0, cacheScope: 'private' };
const stats = { peak: 0, open: 0, posts: 0, replies: 0 };
let pingId = 0;

const rpc = (message) => JSON.stringify({ jsonrpc: '2.0', ...message });
const pings = (n) => {
  let text = '';
  for (let i = 0; i < n; i++) text += `data: ${rpc({ id: `p${++pingId}`, method: 'ping' })}\n\n`;
  return text;
};

function sse(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
}

async function flood(res) {
  sse(res);
  let wake;
  let open = true;
  res.on('close', () => {
    open = false;
    wake?.();
  });
  res.on('drain', () => wake?.());
  while (open) {
    if (!res.write(pings(64))) await new Promise((resolve) => (wake = resolve));
  }
}

function answer(res, id, result) {
  res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'flood-session' });
  res.end(rpc({ id, result }));
}

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  stats.posts++;
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
    const { id, method, params } = message;
    if (method === undefined && id !== undefined) stats.replies++;
    if (method === 'server/discover' && era === 'modern') {
      return answer(res, id, {
        ...meta,
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        serverInfo,
      });
    }
    if (method === 'server/discover') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(rpc({ id, error: { code: -32601, message: 'Method not found' } }));
    }
    if (method === 'initialize') {
      return answer(res, id, {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo,
      });
    }
    if (method === 'tools/list')
      return answer(res, id, {
        ...meta,
        tools: [{ name: 'flood', inputSchema: { type: 'object' } }],
      });
    if (method === 'tools/call' && params?.name === 'flood') return void flood(res);
    if (method === 'tools/call')
      return answer(res, id, { ...meta, content: [{ type: 'text', text: 'echo' }] });
    // A reply, a notification, anything else: more requests.
    sse(res);
    res.end(pings(50));
  });
});
server.on('connection', (socket) => {
  stats.open++;
  stats.peak = Math.max(stats.peak, stats.open);
  let gone = false;
  const leave = () => {
    if (!gone) stats.open--;
    gone = true;
  };
  socket.once('end', leave);
  socket.once('error', leave);
  socket.once('close', leave);
});
server.keepAliveTimeout = 30_000;

const statsServer = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify(stats));
});

server.listen(0, '127.0.0.1', () => {
  statsServer.listen(0, '127.0.0.1', () => {
    process.stdout.write(
      `${JSON.stringify({ port: server.address().port, statsPort: statsServer.address().port })}\n`,
    );
  });
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
