// The client process of the client-side cases: an McpClient (dist/) under a hostile server.
// argv[2]: JSON { transport: 'stdio' | 'http', command?, args?, url?, timeoutMs, calls,
//                 healthy: the same for a well-behaved server, called meanwhile in this process }
// Prints {"connected": true} once connected, then waits for a line on stdin; then makes `calls`
// calls of `flood` one after the other (the server never answers them: it floods the client with
// its own requests instead), each with `timeoutMs`, while a second client calls `echo` on the
// healthy server every 50 ms; prints {"results": [{code, elapsedMs}], "warnings": {code: n},
// "healthy": {calls, failed, slowestMs}}. It closes its transport and stays alive until stdin ends, so that its
// memory can be read after the flood.
import { createInterface } from 'node:readline';
import { McpClient } from '../../../dist/client/index.js';
import { HttpClientTransport } from '../../../dist/transports/http/client/index.js';
import { StdioClientTransport } from '../../../dist/transports/stdio/client/index.js';

const spec = JSON.parse(process.argv[2]);
const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const lines = createInterface({ input: process.stdin });
const nextLine = () => new Promise((resolve) => lines.once('line', resolve));

const transportOf = (s) =>
  s.transport === 'http'
    ? new HttpClientTransport({ url: s.url })
    : new StdioClientTransport({ command: s.command, args: s.args, closeTimeoutMs: 500 });
const client = await new McpClient({
  transport: transportOf(spec),
  requestTimeoutMs: spec.timeoutMs,
}).connect();
const healthy = await new McpClient({
  transport: transportOf(spec.healthy),
  requestTimeoutMs: 10_000,
}).connect();
await healthy.callTool('echo', {});
say({ connected: true, era: client.era });
await nextLine();

const probe = { calls: 0, failed: 0, slowestMs: 0 };
let flooding = true;
const probing = (async () => {
  while (flooding) {
    const t0 = performance.now();
    try {
      await healthy.callTool('echo', {});
    } catch {
      probe.failed++;
    }
    probe.calls++;
    probe.slowestMs = Math.max(probe.slowestMs, performance.now() - t0);
    await new Promise((r) => setTimeout(r, 50));
  }
})();

const results = [];
for (let i = 0; i < spec.calls; i++) {
  const t0 = performance.now();
  let code = 'ANSWERED';
  try {
    await client.callTool('flood', {});
  } catch (error) {
    code = error.code ?? String(error);
  }
  results.push({ code, elapsedMs: performance.now() - t0 });
}
flooding = false;
await probing;
await healthy.close().catch(() => undefined);
const warnings = {};
for (const w of client.warnings) warnings[w.code] = (warnings[w.code] ?? 0) + 1;
await Promise.race([
  client.close().catch(() => undefined),
  new Promise((r) => setTimeout(r, 3000)),
]);
say({ results, warnings, healthy: probe });
lines.once('close', () => process.exit(0));
