// The client process of the huge-lists case: an McpClient (dist/) over stdio to a hostile server
// whose lists are too large. argv[2]: JSON { command, args, timeoutMs, healthy: { command, args } }.
// Prints {"connected": true} once connected, then waits for a line on stdin; then pages through
// tools/list twice, with listTools() and with the tools() iterator, while a second client in this
// process lists the tools of a well-behaved server every 50 ms; prints
// {"listTools": {code, message, ms}, "iterator": {code, message, seen, ms},
//  "healthy": {calls, failed, slowestMs}} (code 'ENDED' when a walk ended without an error).
// It stays alive until stdin ends, so that its memory can be read.
import { createInterface } from 'node:readline';
import { McpClient } from '../../../dist/client/index.js';
import { StdioClientTransport } from '../../../dist/transports/stdio/client/index.js';

const spec = JSON.parse(process.argv[2]);
const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const lines = createInterface({ input: process.stdin });
const nextLine = () => new Promise((resolve) => lines.once('line', resolve));

const connect = ({ command, args }) =>
  new McpClient({
    transport: new StdioClientTransport({ command, args, closeTimeoutMs: 500 }),
    requestTimeoutMs: spec.timeoutMs,
  }).connect();
const client = await connect(spec);
const healthy = await connect(spec.healthy);
await healthy.listTools();
say({ connected: true, era: client.era });
await nextLine();

const probe = { calls: 0, failed: 0, slowestMs: 0 };
let walking = true;
const probing = (async () => {
  while (walking) {
    const t0 = performance.now();
    try {
      await healthy.listTools();
    } catch {
      probe.failed++;
    }
    probe.calls++;
    probe.slowestMs = Math.max(probe.slowestMs, performance.now() - t0);
    await new Promise((r) => setTimeout(r, 50));
  }
})();

/** How a walk ended: its error's code and message, and how long it took. */
async function walk(run) {
  const t0 = performance.now();
  try {
    await run();
    return { code: 'ENDED', message: '', ms: performance.now() - t0 };
  } catch (error) {
    return {
      code: error.code ?? 'THROWN',
      message: String(error.message),
      ms: performance.now() - t0,
    };
  }
}

// The result is dropped at once: only what the walk itself keeps is measured.
const listTools = await walk(async () => void (await client.listTools()));
let seen = 0;
const iterator = await walk(async () => {
  for await (const _tool of client.tools()) seen++;
});
walking = false;
await probing;
await Promise.race([
  Promise.all([client.close(), healthy.close()]).catch(() => undefined),
  new Promise((r) => setTimeout(r, 3000)),
]);
say({ listTools, iterator: { ...iterator, seen }, healthy: probe });
lines.once('close', () => process.exit(0));
