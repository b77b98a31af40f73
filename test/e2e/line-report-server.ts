/**
 * An mcpkit stdio server that reports on stderr the size of every line it writes, for the test
 * of the exact outbound cap against the official SDK client's read buffer.
 * Run: node --import tsx test/e2e/line-report-server.ts [maxResponseBytes]
 * `fill://{n}` reads as n ASCII bytes of text (n up to 64 MiB, padded or not).
 * Each line written is reported as `line id=<id> bytes=<bytes including the newline>`.
 */
import { Writable } from 'node:stream';
import { createServer } from '../../src/server/index.js';
import { serveStdio } from '../../src/transports/stdio/server/index.js';

const server = createServer({ name: 'line-report', version: '0.0.1' });
server.resource('fill://{n}', { name: 'fill' }, (uri, { n }) => {
  const count = Number(n);
  if (!Number.isSafeInteger(count) || count < 0 || count > 64 * 1024 * 1024) return undefined;
  return { uri, mimeType: 'text/plain', text: 'a'.repeat(count) };
});

// Counts each line as it goes out; a line may come in several writes.
let pending: Buffer[] = [];
const output = new Writable({
  write(chunk: Buffer | string, _encoding, done) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    process.stdout.write(bytes, () => done());
    let at = bytes.indexOf(0x0a);
    let from = 0;
    while (at >= 0) {
      pending.push(bytes.subarray(from, at + 1));
      const line = Buffer.concat(pending);
      pending = [];
      const id = /^\{"jsonrpc":"2\.0","id":(\d+|"[^"]*"|null)/.exec(line.toString('latin1', 0, 64));
      process.stderr.write(`line id=${id?.[1] ?? '?'} bytes=${line.length}\n`);
      from = at + 1;
      at = bytes.indexOf(0x0a, from);
    }
    if (from < bytes.length) pending.push(Buffer.from(bytes.subarray(from)));
  },
});

const cap = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
await serveStdio(server, { output, ...(cap === undefined ? {} : { maxResponseBytes: cap }) })
  .closed;
