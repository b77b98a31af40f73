/**
 * `mcpkit serve --http` against hostile part reads, as a real process on a real socket: clients
 * that ask for huge parts (?length=2^53-1) and never read them. Parts are streamed from the
 * file, the outbound budget (--max-response-total-bytes) keeps part reads waiting or busy past
 * it, and a client that takes nothing is dropped (--write-timeout).
 */
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpServe, MiB, MODERN } from './serve-harness.js';

const HUGE = 9_007_199_254_740_991;
const FILE_BYTES = 40 * MiB;
let dir: string;
const started: HttpServe[] = [];

const meta = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};

function headers(method: string, name?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(name !== undefined ? { 'mcp-name': name } : {}),
  };
}

function body(id: number, method: string, params: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } });
}

/** A part read sent by hand on its own socket, never read: nothing listens for its data. */
function unreadPartRead(url: string, uri: string, id: number): Promise<Socket> {
  const { hostname, port, pathname, host } = new URL(url);
  const text = body(id, 'resources/read', { uri });
  const head = Object.entries(headers('resources/read', uri))
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST ${pathname} HTTP/1.1\r\nHost: ${host}\r\n${head}` +
          `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
      );
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

/** A request whose answer is read: its JSON (the part's text or blob counted, not kept). */
function call(
  url: string,
  id: number,
  method: string,
  params: Record<string, unknown> = {},
): Promise<{ json: Record<string, unknown>; bytes: number }> {
  const text = body(id, method, params);
  const name = typeof params['uri'] === 'string' ? params['uri'] : undefined;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { ...headers(method, name), accept: 'application/json' },
      agent: false,
    });
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`${method}: no answer in 60 s`)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const all = Buffer.concat(chunks);
        resolve({
          json: JSON.parse(all.toString('utf8')) as Record<string, unknown>,
          bytes: all.length,
        });
      });
    });
    req.end(text);
  });
}

/** VmRSS and VmHWM (the peak) of a process, in bytes; undefined without /proc. */
async function memory(pid: number | undefined): Promise<{ rss: number; hwm: number } | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  if (status === undefined) return undefined;
  const kib = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
  return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
}

type Part = { offset: number; length: number; size: number };
const partOf = (json: Record<string, unknown>): Part | undefined => {
  const contents = (json['result'] as { contents?: Array<{ _meta?: Record<string, unknown> }> })
    ?.contents;
  return contents?.[0]?._meta?.['dev.mcpkit/part'] as Part | undefined;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-part-flood-'));
  const line = (i: number) => `line ${String(i).padStart(8, '0')} ${'lorem ipsum '.repeat(6)}\n`;
  const block = Buffer.from(Array.from({ length: 10_000 }, (_, i) => line(i)).join(''));
  const text = await open(join(dir, 'huge.log'), 'w');
  for (let at = 0; at < FILE_BYTES; at += block.length)
    await text.write(block, 0, Math.min(block.length, FILE_BYTES - at), at);
  await text.close();
  const bin = await open(join(dir, 'huge.bin'), 'w');
  await bin.truncate(FILE_BYTES);
  await bin.close();
  await writeFile(join(dir, 'small.txt'), 'small\n');
}, 60_000);

afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
  await rm(dir, { recursive: true, force: true });
});

describe('serve --http under a flood of huge part reads that are never read', () => {
  it('stays small, answers discover and small reads, and a client that reads gets its part', async () => {
    const served = await HttpServe.start([dir, '--quiet']);
    started.push(served);
    const pid = served.child.pid;
    const before = await memory(pid);
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 100; i++) {
        const file = i % 2 === 0 ? 'huge.log' : 'huge.bin';
        sockets.push(await unreadPartRead(served.url, `file:///${file}?length=${HUGE}`, i + 1));
      }
      // During the flood: discover and a small read answer, and a reading client gets parts.
      const discover = await call(served.url, 1001, 'server/discover');
      expect(discover.json['result']).toBeDefined();
      const small = await call(served.url, 1002, 'resources/read', { uri: 'file:///small.txt' });
      expect(JSON.stringify(small.json)).toContain('small\\n');
      for (const [id, file] of [
        [1003, 'huge.log'],
        [1004, 'huge.bin'],
      ] as const) {
        const got = await call(served.url, id, 'resources/read', {
          uri: `file:///${file}?length=${HUGE}`,
        });
        expect(got.json['error']).toBeUndefined();
        expect(partOf(got.json)?.length).toBeGreaterThanOrEqual(MiB);
      }
      const again = await call(served.url, 1005, 'server/discover');
      expect(again.json['result']).toBeDefined();
      const during = await memory(pid);
      if (before !== undefined && during !== undefined) {
        // Held whole, 100 parts of ~32 MiB would take gigabytes; streamed, a window each.
        expect(during.hwm).toBeLessThan(600 * MiB);
      }
    } finally {
      for (const s of sockets) s.destroy();
    }
  }, 180_000);

  it('past --max-response-total-bytes a part read gets busy naming it; a client that takes nothing is dropped after --write-timeout', async () => {
    const served = await HttpServe.start([
      dir,
      '--quiet',
      '--max-response-total-bytes',
      '1m',
      '--write-timeout',
      '8s',
    ]);
    started.push(served);
    // One unread huge part: it holds its share of the budget until it is dropped.
    const hostile = await unreadPartRead(served.url, `file:///huge.bin?length=${HUGE}`, 1);
    try {
      await new Promise((r) => setTimeout(r, 500));
      const busy = await call(served.url, 2, 'resources/read', {
        uri: 'file:///huge.log?length=4194304',
      });
      const error = busy.json['error'] as { code: number; message: string; data: unknown };
      expect(error.code).toBe(-32603);
      expect(error.message).toContain('maxResponseTotalBytes');
      expect(error.message).toContain('--max-response-total-bytes');
      expect(error.data).toMatchObject({ reason: 'busy', limit: 'maxResponseTotalBytes' });
      // Small answers never wait for the budget.
      expect((await call(served.url, 3, 'server/discover')).json['result']).toBeDefined();
      // The hostile client is dropped: reading now, it finds a cut body and the end.
      await expect
        .poll(() => served.stderr, { timeout: 15_000, interval: 200 })
        .toContain('dropped a connection');
      expect(served.stderr).toContain('--write-timeout');
      const ended = new Promise<{ bytes: number; head: string }>((resolve) => {
        let bytes = 0;
        let head = '';
        hostile.on('data', (c: Buffer) => {
          bytes += c.length;
          if (head.length < 400) head += c.toString('latin1');
        });
        hostile.on('close', () => resolve({ bytes, head }));
      });
      hostile.resume();
      const { bytes, head } = await ended;
      const declared = Number(/content-length: (\d+)/i.exec(head)?.[1]);
      expect(declared).toBeGreaterThan(MiB);
      expect(bytes).toBeLessThan(declared);
      // With the budget free again, the same part read is served.
      const served2 = await call(served.url, 4, 'resources/read', {
        uri: 'file:///huge.log?length=4194304',
      });
      expect(served2.json['error']).toBeUndefined();
      expect(partOf(served2.json)?.length).toBeGreaterThanOrEqual(MiB);
    } finally {
      hostile.destroy();
    }
  }, 60_000);
});
