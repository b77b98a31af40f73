/**
 * The outbound budget (maxResponseTotalBytes) is given back whatever becomes of an answer: read
 * whole, streamed, refused, cut because the client went away, over node:http and over stdio.
 * A share that leaked would, in time, keep every large part read waiting.
 */
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFolder } from '../providers/filesystem/folder-server.js';
import { createServer } from '../server/server.js';
import { modern, modernHeaders } from '../testing/messages.js';
import { serveHttp, type RunningHttpServer } from './node.js';
import { serveStdio } from './stdio/server/serve-stdio.js';

const MiB = 1024 * 1024;
let root: string;
let http: RunningHttpServer;
const server = createServer({ name: 'budget', version: '1' });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcpkit-answer-budget-'));
  const text = await open(join(root, 'big.txt'), 'w');
  const block = Buffer.from('a line of text to read in parts\n'.repeat(32 * 1024));
  for (let at = 0; at < 24 * MiB; at += block.length) await text.write(block, 0, block.length, at);
  await text.close();
  const bin = await open(join(root, 'big.bin'), 'w');
  await bin.truncate(24 * MiB);
  await bin.close();
  await writeFile(join(root, 'small.txt'), 'small\n');
  serveFolder(server, { root, tools: false, prompts: false });
  http = await serveHttp(server, { port: 0 });
});

afterAll(async () => {
  await http.close();
  server.close();
  await rm(root, { recursive: true, force: true });
});

/** POSTs a read; reads `take` bytes of the answer (all when undefined), then closes. */
function read(uri: string, id: number, take?: number): Promise<number> {
  const message = JSON.stringify({ ...modern('resources/read', { uri }), id });
  return new Promise((resolve, reject) => {
    const req = request(http.url, {
      method: 'POST',
      headers: { ...modernHeaders('resources/read', uri), accept: 'application/json' },
      agent: false,
    });
    req.on('error', (error) => (take === undefined ? reject(error) : resolve(-1)));
    req.on('response', (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (take !== undefined && bytes >= take) {
          req.destroy();
          resolve(bytes);
        }
      });
      res.on('error', () => undefined);
      res.on('end', () => resolve(bytes));
    });
    req.end(message);
  });
}

const settled = () =>
  expect.poll(() => server.answerBudget.heldBytes, { timeout: 5000, interval: 20 }).toBe(0);

describe('the outbound budget is given back', () => {
  it('over node:http: whole, streamed, refused, and cut by a client that went away', async () => {
    const huge = 9_007_199_254_740_991;
    const sizes = await Promise.all([
      read('file:///small.txt', 1),
      read(`file:///big.txt?length=${huge}`, 2),
      read(`file:///big.bin?length=${huge}`, 3),
      read('file:///big.txt?length=3000000', 4),
      read('file:///big.bin?offset=999999999999', 5),
      read('file:///nothing.txt?length=5', 6),
    ]);
    expect(sizes[1]).toBeGreaterThan(20 * MiB);
    expect(sizes[2]).toBeGreaterThan(20 * MiB);
    await settled();
    // Clients that leave mid-body: the streams stop, and their shares come back.
    await Promise.all([
      read(`file:///big.txt?length=${huge}`, 7, 100_000),
      read(`file:///big.bin?length=${huge}`, 8, 100_000),
    ]);
    await settled();
  });

  it('over stdio: every answer written gives its share back', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const connection = serveStdio(server, { input, output });
    let text = '';
    output.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    const uris = [
      'file:///small.txt',
      'file:///big.txt?length=4000000',
      'file:///big.bin?length=3000000',
    ];
    uris.forEach((uri, i) =>
      input.write(`${JSON.stringify({ ...modern('resources/read', { uri }), id: i + 1 })}\n`),
    );
    await expect.poll(() => text.split('\n').length - 1, { timeout: 10_000 }).toBe(uris.length);
    expect(text).not.toContain('"error"');
    await settled();
    input.end();
    await connection.closed;
  });
});
