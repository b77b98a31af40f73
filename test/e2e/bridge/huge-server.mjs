// A hostile 2026-07-28 stdio upstream for the bridge's tests: tool "huge" answers with one line
// of about 40 MiB, over the bridge's 16 MiB upstream cap; tool "ok" answers a few bytes.
// Hand-written JSON-RPC, written in chunks so that the line is never held whole here either.
import { createInterface } from 'node:readline';

const MODERN = '2026-07-28';
const info = { 'io.modelcontextprotocol/serverInfo': { name: 'huge-server', version: '0.0.1' } };
const complete = (result) => ({ resultType: 'complete', _meta: info, ...result });

function write(id, result) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
}

async function huge(id) {
  const chunk = 'x'.repeat(1024 * 1024);
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"resultType":"complete","content":[{"type":"text","text":"`;
  process.stdout.write(head);
  for (let i = 0; i < 40; i++)
    if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once('drain', r));
  process.stdout.write('"}]}}\n');
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  const { id, method, params } = message;
  if (id === undefined) return;
  if (method === 'server/discover')
    return write(
      id,
      complete({
        supportedVersions: [MODERN],
        capabilities: { tools: {} },
        ttlMs: 0,
        cacheScope: 'public',
      }),
    );
  if (method === 'tools/list')
    return write(
      id,
      complete({
        tools: [
          { name: 'huge', inputSchema: { type: 'object' } },
          { name: 'ok', inputSchema: { type: 'object' } },
        ],
        ttlMs: 0,
        cacheScope: 'public',
      }),
    );
  if (method === 'tools/call' && params?.name === 'huge') return void huge(id);
  if (method === 'tools/call')
    return write(id, complete({ content: [{ type: 'text', text: 'fine' }] }));
  process.stdout.write(
    `${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: `no ${method}` } })}\n`,
  );
});
