/**
 * `mcpkit serve --max-listen-queue-total-bytes`: listen streams whose clients never read (raw
 * sockets, paused) each stay under --max-listen-queue-bytes, yet together pass the total: the
 * server ends the ones holding the most, each with a warning naming the option, while a listener
 * that reads keeps getting every round's updates and is never ended.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modern, modernHeaders } from '../../src/testing/messages.js';
import { HttpServe } from './serve-harness.js';

const FILES = 400;
const DEEP = join(...Array.from({ length: 14 }, (_, i) => `${i}${'d'.repeat(240)}`));
const pathOf = (i: number) => join(DEEP, `file-${i}-${'x'.repeat(150)}.txt`);
const UNREAD = 8;

let dir = '';
let served: HttpServe | undefined;
const sockets: Socket[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-listen-total-'));
  await mkdir(join(dir, DEEP), { recursive: true });
  await Promise.all(Array.from({ length: FILES }, (_, i) => writeFile(join(dir, pathOf(i)), '-')));
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await served?.stop();
  await rm(dir, { recursive: true, force: true });
});

const listenBody = () =>
  JSON.stringify(
    modern('subscriptions/listen', { notifications: { resourceSubscriptions: ['file:///'] } }),
  );

/** A listen on a raw socket that is never read. */
async function unreadListen(url: URL): Promise<Socket> {
  const socket = connect(Number(url.port), url.hostname);
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => {});
  socket.pause();
  const body = listenBody();
  const head = [`POST ${url.pathname} HTTP/1.1`, `Host: ${url.host}`];
  for (const [k, v] of Object.entries(modernHeaders('subscriptions/listen')))
    head.push(`${k}: ${v}`);
  socket.write(`${head.join('\r\n')}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  return socket;
}

describe('mcpkit serve --max-listen-queue-total-bytes', () => {
  it('ends the unread streams that hold the most; a reading listener keeps its updates', async () => {
    served = await HttpServe.start([
      dir,
      '--max-listen-queue-bytes',
      '64m',
      '--max-listen-queue-total-bytes',
      '1m',
    ]);
    const url = new URL(served.url);
    // The reading listener: counts updates, and any error frame.
    const reading = { updates: 0, errors: [] as string[], acked: false };
    const req = httpRequest(url, {
      method: 'POST',
      headers: modernHeaders('subscriptions/listen'),
    });
    req.on('response', (res: IncomingMessage) => {
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const data = event.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          const m = JSON.parse(data.slice(6)) as { method?: string; error?: { message: string } };
          if (m.method === 'notifications/subscriptions/acknowledged') reading.acked = true;
          if (m.method === 'notifications/resources/updated') reading.updates++;
          if (m.error) reading.errors.push(m.error.message);
        }
      });
    });
    req.on('error', () => {});
    req.end(listenBody());
    for (let i = 0; i < UNREAD; i++) sockets.push(await unreadListen(url));
    const deadline = Date.now() + 20_000;
    while (!reading.acked && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));

    const cuts = () =>
      served?.stderr.match(/more than maxListenQueueTotalBytes \(1048576\)/g) ?? [];
    // Rounds of changes until every unread stream was ended (the kernel buffers some first).
    const until = Date.now() + 40_000;
    for (let round = 0; cuts().length < UNREAD && Date.now() < until; round++) {
      await Promise.all(
        Array.from({ length: FILES }, (_, i) => writeFile(join(dir, pathOf(i)), `round ${round}`)),
      );
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(cuts().length).toBeGreaterThan(0);
    expect(cuts()).toHaveLength(UNREAD);
    expect(served.stderr).toMatch(/ended subscriptions\/listen .*: its client is not reading and/);
    expect(reading.errors).toEqual([]);
    expect(reading.updates).toBeGreaterThan(0);
    req.destroy();
  }, 90_000);
});
