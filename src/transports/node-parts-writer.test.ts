/**
 * writeParts over a real socket: a large string is written a slice at a time and arrives exact
 * (no surrogate pair split between slices); a client that takes nothing is dropped after
 * `stallMs`, said once, and `done` runs either way.
 */
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { writeParts } from './node-parts-writer.js';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  server = undefined;
});

/** Serves `body` through writeParts; resolves with the port and what the writer reported. */
async function serve(body: string, stallMs: number) {
  const reports: string[] = [];
  let done = 0;
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': String(Buffer.byteLength(body)) });
    void writeParts(res, [body], (t) => reports.push(t), { stallMs, done: () => done++ });
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, reports, done: () => done };
}

describe('writeParts', () => {
  it('writes a large string a slice at a time, exact, surrogate pairs whole', async () => {
    // Emoji (two UTF-16 units each) shifted by one: pairs straddle every slice boundary.
    const body = `x${'😀'.repeat(600_000)}`;
    const { port, reports, done } = await serve(body, 5000);
    const text = await new Promise<string>((resolve, reject) => {
      request({ port, host: '127.0.0.1' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      })
        .on('error', reject)
        .end();
    });
    expect(text === body).toBe(true);
    expect(reports).toEqual([]);
    await expect.poll(done).toBe(1);
  });

  it('drops a client that takes nothing for stallMs, says so once, and calls done', async () => {
    const { port, reports, done } = await serve('y'.repeat(16 * 1024 * 1024), 300);
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      socket.pause(); // never read
    });
    socket.on('error', () => undefined);
    try {
      await expect.poll(() => reports.length, { timeout: 5000 }).toBe(1);
      expect(reports[0]).toContain('writeTimeoutMs');
      expect(reports[0]).toContain('--write-timeout');
      await expect.poll(done).toBe(1);
    } finally {
      socket.destroy();
    }
  });
});
