// A host process for the lying-links tests (it uses dist/: build first).
// argv[2]: JSON { transport: 'stdio' | 'http', command?, args?, url?, links, maxLinkBytes }
// Calls `links`, resolves every link with `select: 'all'`, and prints one JSON line: each
// outcome's status, code and reason, the bytes the turn read, and the peak RSS seen.
import { McpClient } from '../../../dist/client/index.js';
import { resolve } from '../../../dist/host/index.js';
import { HttpClientTransport } from '../../../dist/transports/http/client/index.js';
import { StdioClientTransport } from '../../../dist/transports/stdio/client/index.js';

const spec = JSON.parse(process.argv[2]);
let peak = process.memoryUsage.rss();
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);

const transport =
  spec.transport === 'http'
    ? new HttpClientTransport({ url: spec.url })
    : new StdioClientTransport({ command: spec.command, args: spec.args, closeTimeoutMs: 500 });
const client = await new McpClient({ transport, requestTimeoutMs: 30_000 }).connect();
const result = await client.callTool('links', { n: spec.links });
const turn = await resolve(result.content, client, {
  select: 'all',
  maxLinkBytes: spec.maxLinkBytes,
});
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage.rss());
const outcomes = turn.blocks.map((b) => {
  const { status, code, reason, bytes } = b.outcome;
  return { status, code, reason, bytes };
});
process.stdout.write(`${JSON.stringify({ outcomes, bytesRead: turn.bytesRead, peakRss: peak })}\n`);
await Promise.race([
  client.close().catch(() => undefined),
  new Promise((r) => setTimeout(r, 3000)),
]);
process.exit(0);
