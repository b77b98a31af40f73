// A client process for the request-flood tests and the stress case (it uses dist/: build first).
// argv[2]: JSON { transport: 'stdio' | 'http', command?, args?, url?, era?, timeoutMs,
//                 maxSocketsPerOrigin?, requester? }
// Connects, sends `tools/call flood` (which the server never answers, flooding requests instead)
// with `requestTimeoutMs: timeoutMs`, and prints one JSON line: how the call ended, after how
// long, the era, the peak RSS seen (sampled every 50 ms), the warning codes and `peakSockets`: the
// most TCP connections this process had open at once.
import { subscribe } from 'node:diagnostics_channel';
import { McpClient } from '../../../dist/client/index.js';
import { HttpClientTransport } from '../../../dist/transports/http/client/index.js';
import { StdioClientTransport } from '../../../dist/transports/stdio/client/index.js';

const spec = JSON.parse(process.argv[2]);
let peak = process.memoryUsage.rss();
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);

// Counted here, not by the server: a socket this process closed is still open to the server until
// it reads the close, while the pool may already have opened the next one.
const sockets = { open: 0, peak: 0 };
subscribe('net.client.socket', ({ socket }) => {
  sockets.peak = Math.max(sockets.peak, ++sockets.open);
  // Before the pool's own 'close' listener, which may open the next connection.
  socket.once('close', () => sockets.open--);
});

const transport =
  spec.transport === 'http'
    ? new HttpClientTransport({
        url: spec.url,
        ...(spec.maxSocketsPerOrigin ? { maxSocketsPerOrigin: spec.maxSocketsPerOrigin } : {}),
        ...(spec.requester ? { requester: spec.requester } : {}),
      })
    : new StdioClientTransport({ command: spec.command, args: spec.args, closeTimeoutMs: 500 });
const client = new McpClient({
  transport,
  requestTimeoutMs: spec.timeoutMs,
  ...(spec.era ? { era: spec.era } : {}),
});
await client.connect();
const rssConnected = process.memoryUsage.rss();
const t0 = performance.now();
let outcome;
try {
  await client.callTool('flood', {});
  outcome = { code: 'ANSWERED' };
} catch (error) {
  outcome = { code: error.code, message: error.message };
}
const elapsedMs = performance.now() - t0;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage.rss());
const codes = {};
for (const w of client.warnings) codes[w.code] = (codes[w.code] ?? 0) + 1;
// Closed first, so that the sockets of the close (its DELETE) are counted too.
await Promise.race([client.close(), new Promise((r) => setTimeout(r, 3000))]);
const report = { era: client.era, ...outcome, elapsedMs, rssConnected, peakRss: peak };
process.stdout.write(
  `${JSON.stringify({ ...report, warnings: codes, peakSockets: sockets.peak })}\n`,
);
process.exit(0);
