// A 2026-07-28 stdio upstream for the bridge's tests that writes five lines that are not JSON (with
// a control character in them) before each tools/call answer: the bridge names it on its stderr.
import { createInterface } from 'node:readline';

const info = { 'io.modelcontextprotocol/serverInfo': { name: 'noisy', version: '0.0.1' } };
const write = (id, result) =>
  process.stdout.write(
    `${JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: info, ...result } })}\n`,
  );

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method } = JSON.parse(line);
  if (id === undefined) return;
  if (method === 'server/discover')
    return write(id, {
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {} },
      ttlMs: 0,
      cacheScope: 'public',
    });
  if (method === 'tools/list')
    return write(id, {
      tools: [{ name: 'noisy', inputSchema: { type: 'object' } }],
      ttlMs: 0,
      cacheScope: 'public',
    });
  if (method === 'tools/call') {
    // Five bad lines in one write: they reach the bridge within the same moment.
    process.stdout.write('debug: not a JSON line \u001b[31mred\n'.repeat(5));
    return write(id, { content: [{ type: 'text', text: 'done' }] });
  }
  process.stdout.write(
    `${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: `no ${method}` } })}\n`,
  );
});
