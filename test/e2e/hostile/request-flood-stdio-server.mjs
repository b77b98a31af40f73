// A hostile MCP server over stdio that floods the client with its own requests. Plain Node.
// argv[2]: 'modern' (answers server/discover) or 'legacy' (refuses it, answers initialize).
//   tools/call echo    answered at once
//   tools/call burst {n}  writes `n` pings at once (reading on), then answers with how many
//                      replies came back
//   tools/call flood   never answered: the server stops reading its stdin and writes `ping`
//                      requests as fast as the client reads them, until it is killed
const era = process.argv[2] === 'legacy' ? 'legacy' : 'modern';

const out = (message) =>
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const meta = { resultType: 'complete', ttlMs: 0, cacheScope: 'private' };
const serverInfo = { name: 'request-flood', version: '0.0.0' };

async function flood() {
  process.stdin.pause();
  let id = 0;
  for (;;) {
    let batch = '';
    for (let i = 0; i < 256; i++) batch += `{"jsonrpc":"2.0","id":"p${++id}","method":"ping"}\n`;
    if (!process.stdout.write(batch)) await new Promise((r) => process.stdout.once('drain', r));
  }
}

const burst = { id: undefined, want: 0, got: 0 };

function handle(message) {
  const { id, method, params } = message;
  if (method === undefined && typeof id === 'string' && id.startsWith('b')) {
    if (++burst.got === burst.want) {
      const text = `${burst.got} replies`;
      out({
        id: burst.id,
        result: { ...(era === 'modern' ? meta : {}), content: [{ type: 'text', text }] },
      });
    }
    return;
  }
  if (id === undefined || method === undefined) return;
  if (method === 'server/discover') {
    if (era === 'legacy') return out({ id, error: { code: -32601, message: 'Method not found' } });
    return out({
      id,
      result: {
        ...meta,
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        serverInfo,
      },
    });
  }
  if (method === 'initialize' && era === 'legacy') {
    return out({
      id,
      result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo },
    });
  }
  if (method === 'tools/call' && params?.name === 'flood') return void flood();
  if (method === 'tools/call' && params?.name === 'burst') {
    Object.assign(burst, { id, want: params.arguments.n, got: 0 });
    let lines = '';
    for (let i = 0; i < burst.want; i++)
      lines += `{"jsonrpc":"2.0","id":"b${i}","method":"ping"}\n`;
    return void process.stdout.write(lines);
  }
  if (method === 'tools/call') {
    return out({
      id,
      result: { ...(era === 'modern' ? meta : {}), content: [{ type: 'text', text: 'echo' }] },
    });
  }
  out({ id, error: { code: -32601, message: `Method not found: ${method}` } });
}

let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (rest + chunk).split('\n');
  rest = lines.pop();
  for (const line of lines) if (line.trim() !== '') handle(JSON.parse(line));
});
process.stdin.on('end', () => process.exit(0));
process.stdout.on('error', () => process.exit(0));
