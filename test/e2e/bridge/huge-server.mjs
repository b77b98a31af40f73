// A hostile 2026-07-28 stdio upstream for the bridge's tests: tool "huge" answers with one line
// of about 40 MiB, over the bridge's 16 MiB upstream cap; tool "ok" answers a few bytes.
// Hand-written JSON-RPC, written in chunks so that the line is never held whole here either.
//
// The huge line stops after 17 MiB (past the cap: the bridge has failed that call by then) until
// the next request arrives, then ends: that request is always sent while the bridge still
// discards the line, whatever the machine's load. Answers go out one after the other: one written
// inside another line would be lost with it (broken framing, which is not what is tested here).
import { createInterface } from 'node:readline';

const MODERN = '2026-07-28';
const MIB = 1024 * 1024;
const info = { 'io.modelcontextprotocol/serverInfo': { name: 'huge-server', version: '0.0.1' } };
const complete = (result) => ({ resultType: 'complete', _meta: info, ...result });

async function out(text) {
  if (!process.stdout.write(text)) await new Promise((r) => process.stdout.once('drain', r));
}

function serve() {
  // Each answer starts once the one before it is written whole.
  let queue = Promise.resolve();
  const enqueue = (job) => (queue = queue.then(job));
  const answer = (id, result) =>
    enqueue(() => out(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`));
  // Resolved by the first request after a "huge" one.
  let nextRequest = () => undefined;

  async function huge(id, resume) {
    const chunk = 'x'.repeat(MIB);
    const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"resultType":"complete","content":[{"type":"text","text":"`;
    await out(head);
    for (let i = 0; i < 17; i++) await out(chunk);
    await resume;
    for (let i = 17; i < 40; i++) await out(chunk);
    await out('"}]}}\n');
  }

  createInterface({ input: process.stdin }).on('line', (line) => {
    const { id, method, params } = JSON.parse(line);
    if (id === undefined) return;
    nextRequest();
    if (method === 'server/discover')
      return answer(
        id,
        complete({
          supportedVersions: [MODERN],
          capabilities: { tools: {} },
          ttlMs: 0,
          cacheScope: 'public',
        }),
      );
    if (method === 'tools/list')
      return answer(
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
    if (method === 'tools/call' && params?.name === 'huge') {
      const resume = new Promise((r) => (nextRequest = r));
      return enqueue(() => huge(id, resume));
    }
    if (method === 'tools/call')
      return answer(id, complete({ content: [{ type: 'text', text: 'fine' }] }));
    enqueue(() =>
      out(
        `${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: `no ${method}` } })}\n`,
      ),
    );
  });
}

serve();
