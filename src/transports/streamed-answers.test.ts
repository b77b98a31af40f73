import { connect } from 'node:net';
/**
 * Uncached binary files answered as streams: over node:http and the web handler a provider with
 * `cacheBytes: 0` sends a 20 MiB file a chunk at a time (never held whole), exact, with its exact
 * Content-Length; a file changed mid-stream cuts the answer (the client's body read fails) and
 * the server keeps serving; stdio and a file the cache keeps take the usual, whole path.
 */
import { randomBytes } from 'node:crypto';
import {
  appendFile,
  mkdtemp,
  open,
  readFile,
  rm,
  truncate,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveFolder } from '../providers/filesystem/folder-server.js';
import { SNIFF_SAMPLE } from '../content/mime.js';
import { STREAM_CHUNK_BYTES } from '../providers/filesystem/streamed-file.js';
import { createServer } from '../server/server.js';
import { modern, modernHeaders, modernMeta } from '../testing/messages.js';
import { until, withTimeout } from '../testing/sse.js';
import { spyFs, type SpyFs } from '../testing/spy-fs.js';
import { createHttpHandler } from './http/server/web-handler.js';
import { serveHttp, type RunningHttpServer } from './node.js';
import { serveStdio } from './stdio/server/serve-stdio.js';

const BIG = randomBytes(20 * 1024 * 1024);
/** NUL bytes, then random ones: no extension, sniffed as binary; not a multiple of 3. */
const SNIFFED = Buffer.concat([Buffer.alloc(64), randomBytes(3 * 1024 * 1024 + 1)]);
const CACHED = randomBytes(4 * 1024 * 1024);

let root: string;
let spy: SpyFs;
let http: RunningHttpServer;
const server = createServer({ name: 'streamed', version: '1' });
const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcpkit-streamed-'));
  await writeFile(join(root, 'big.zip'), BIG);
  await writeFile(join(root, 'scan'), SNIFFED);
  spy = spyFs();
  serveFolder(server, { root, fs: spy, cacheBytes: 0, tools: false, prompts: false });
  http = await serveHttp(server, { port: 0 });
});

afterEach(() => {
  errors.mockClear();
});

afterAll(async () => {
  errors.mockRestore();
  await http.close();
  server.close();
  await rm(root, { recursive: true, force: true });
});

const headers = (uri: string) => ({ ...modernHeaders('resources/read', uri), host: '127.0.0.1' });

const body = (uri: string, id = 1) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'resources/read',
    params: { uri, _meta: modernMeta() },
  });

type Read = { bytes: Buffer; length: number; mimeType: string; blob: Buffer };

/** The answer to a read: its raw body, its Content-Length, and the blob it carries, decoded. */
async function parse(res: Response): Promise<Read> {
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  const m = JSON.parse(bytes.toString()) as {
    result: { contents: Array<{ blob: string; mimeType: string }> };
  };
  const contents = m.result.contents[0];
  return {
    bytes,
    length: Number(res.headers.get('content-length')),
    mimeType: contents?.mimeType ?? '',
    blob: Buffer.from(contents?.blob ?? '', 'base64'),
  };
}

const overHttp = async (uri: string, id = 1): Promise<Read> =>
  parse(await fetch(http.url, { method: 'POST', headers: headers(uri), body: body(uri, id) }));

/** The reads of one file since `from`: none may be larger than a chunk, in its call or buffer. */
function readsOf(name: string, from: number) {
  return spy.reads.slice(from).filter((call) => call.path.endsWith(`/${name}`));
}

async function handlesClosed(): Promise<void> {
  await until(() => spy.opened() === spy.closed(), 'every file handle is closed');
}

describe('uncached binary answers are streamed from the file', () => {
  it('over node:http: a 20 MiB file, exact, Content-Length exact, never read whole', async () => {
    const from = spy.reads.length;
    const got = await overHttp('file:///big.zip');
    expect(got.blob.equals(BIG)).toBe(true);
    expect(got.length).toBe(got.bytes.length);
    expect(got.mimeType).toBe('application/zip');
    const reads = readsOf('big.zip', from);
    expect(reads.length).toBeGreaterThanOrEqual(BIG.length / STREAM_CHUNK_BYTES);
    expect(Math.max(...reads.map((r) => Math.max(r.length, r.bufferBytes)))).toBeLessThanOrEqual(
      STREAM_CHUNK_BYTES,
    );
    await handlesClosed();
  });

  it('over node:http: a file without extension, sniffed as binary, exact', async () => {
    const from = spy.reads.length;
    const got = await overHttp('file:///scan');
    expect(got.mimeType).toBe('application/octet-stream');
    expect(got.blob.equals(SNIFFED)).toBe(true);
    expect(got.length).toBe(got.bytes.length);
    const reads = readsOf('scan', from);
    // The sniff reads its sample once; the body, a chunk at a time.
    expect(Math.max(...reads.map((r) => r.bufferBytes))).toBeLessThanOrEqual(
      Math.max(SNIFF_SAMPLE, STREAM_CHUNK_BYTES),
    );
    await handlesClosed();
  });

  it('over node:http: two concurrent streamed reads are both exact', async () => {
    const [a, b] = await Promise.all([overHttp('file:///big.zip', 1), overHttp('file:///scan', 2)]);
    expect(a.blob.equals(BIG)).toBe(true);
    expect(b.blob.equals(SNIFFED)).toBe(true);
    await handlesClosed();
  });

  it('through the web handler: exact, with its exact Content-Length, read in chunks', async () => {
    const handle = createHttpHandler(server);
    try {
      const from = spy.reads.length;
      const uri = 'file:///big.zip';
      const req = new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: headers(uri),
        body: body(uri),
      });
      const got = await parse(await handle(req));
      expect(got.blob.equals(BIG)).toBe(true);
      expect(got.length).toBe(got.bytes.length);
      const reads = readsOf('big.zip', from);
      expect(Math.max(...reads.map((r) => r.bufferBytes))).toBeLessThanOrEqual(STREAM_CHUNK_BYTES);
      await handlesClosed();
    } finally {
      handle.close();
    }
  });
});

/** How a writer changes the file once its first chunk was read. */
const CHANGES: Array<[string, (file: string) => Promise<void>]> = [
  ['appended to', (file) => appendFile(file, 'more')],
  ['truncated', (file) => truncate(file, 1024 * 1024)],
  [
    'rewritten in place (same size)',
    async (file) => {
      const handle = await open(file, 'r+');
      await handle.write(Buffer.alloc(1024, 7), 0, 1024, STREAM_CHUNK_BYTES * 2);
      await handle.close();
      const when = new Date(Date.UTC(2031, 0, 1));
      await utimes(file, when, when);
    },
  ],
];

/**
 * Arms a writer that changes `name` right after the stream's first chunk of it was read (not
 * the sniff of its first bytes, which asks for less).
 */
function changeAfterFirstChunk(name: string, change: (file: string) => Promise<void>): void {
  spy.afterRead = async (call) => {
    if (!call.path.endsWith(`/${name}`) || call.position !== 0) return;
    if (call.length !== STREAM_CHUNK_BYTES) return;
    spy.afterRead = undefined;
    await change(join(root, name));
  };
}

/** A body read that fails, or a body shorter than its Content-Length: never a whole answer. */
async function cut(answer: Promise<Response>): Promise<boolean> {
  try {
    const res = await answer;
    const bytes = Buffer.from(await res.arrayBuffer());
    return bytes.length !== Number(res.headers.get('content-length'));
  } catch {
    return true;
  }
}

describe('a file that changes mid-stream cuts the answer', () => {
  it.each(CHANGES)('over node:http: %s', async (how, change) => {
    const name = `victim-${how.split(' ')[0] ?? ''}.bin`;
    const first = randomBytes(2 * 1024 * 1024);
    await writeFile(join(root, name), first);
    const uri = `file:///${name}`;
    changeAfterFirstChunk(name, change);
    const answer = fetch(http.url, { method: 'POST', headers: headers(uri), body: body(uri) });
    expect(await withTimeout(cut(answer), 20_000, 'the cut answer')).toBe(true);
    expect(spy.afterRead).toBeUndefined();
    await handlesClosed();
    // Reported once on stderr, and the server goes on serving: the next read is exact.
    const reports = errors.mock.calls.filter((c) => String(c[0]).includes('cut a streamed answer'));
    expect(reports).toHaveLength(1);
    const again = await overHttp(uri, 2);
    expect(again.blob.equals(await readFile(join(root, name)))).toBe(true);
  });

  it('through the web handler: the body errors', async () => {
    const handle = createHttpHandler(server);
    try {
      const name = 'victim-web.bin';
      await writeFile(join(root, name), randomBytes(2 * 1024 * 1024));
      const uri = `file:///${name}`;
      changeAfterFirstChunk(name, (file) => appendFile(file, 'more'));
      const req = new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: headers(uri),
        body: body(uri),
      });
      const res = await handle(req);
      await expect(res.arrayBuffer()).rejects.toThrow();
      await handlesClosed();
      expect(errors).toHaveBeenCalledTimes(1);
    } finally {
      handle.close();
    }
  });

  it('through the web handler: a body cancelled mid-file closes the file', async () => {
    const handle = createHttpHandler(server);
    try {
      const uri = 'file:///big.zip';
      const from = spy.reads.length;
      const req = new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: headers(uri),
        body: body(uri),
      });
      const reader = (await handle(req)).body?.getReader();
      // Past the JSON before the blob, into the file's chunks.
      for (let got = 0; got < 4 * STREAM_CHUNK_BYTES;) {
        const step = await reader?.read();
        expect(step?.done).toBe(false);
        got += step?.value?.byteLength ?? 0;
      }
      await reader?.cancel();
      await handlesClosed();
      const readAfter = readsOf('big.zip', from).length;
      expect(readAfter).toBeLessThan(BIG.length / STREAM_CHUNK_BYTES / 2);
    } finally {
      handle.close();
    }
  });

  it('a client that goes away mid-stream: the handle is closed, the server serves on', async () => {
    const uri = 'file:///big.zip';
    const gone = new AbortController();
    spy.afterRead = async (call) => {
      if (!call.path.endsWith('/big.zip') || call.position !== STREAM_CHUNK_BYTES) return;
      spy.afterRead = undefined;
      gone.abort();
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const answer = fetch(http.url, {
      method: 'POST',
      headers: headers(uri),
      body: body(uri),
      signal: gone.signal,
    });
    const from = spy.reads.length;
    expect(await cut(answer)).toBe(true);
    await handlesClosed();
    // It stopped reading the file when the client left: far from all of its chunks.
    const readAfter = spy.reads.slice(from).filter((r) => r.path.endsWith('/big.zip')).length;
    expect(readAfter).toBeLessThan(BIG.length / STREAM_CHUNK_BYTES / 2);
    expect((await overHttp(uri, 3)).blob.equals(BIG)).toBe(true);
  });

  it('a client that does not read: the server reads the file only as fast as the socket takes it', async () => {
    const uri = 'file:///big.zip';
    const from = spy.reads.length;
    const socket = connect(Number(new URL(http.url).port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const payload = body(uri);
    const head = Object.entries({
      ...headers(uri),
      host: new URL(http.url).host,
      'content-length': String(Buffer.byteLength(payload)),
    })
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n');
    socket.write(`POST ${new URL(http.url).pathname} HTTP/1.1\r\n${head}\r\n\r\n${payload}`);
    socket.pause();
    // Wait until the reads stop moving: the socket and its buffers are full.
    let seen = -1;
    for (let i = 0; i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = spy.reads.length;
      if (now === seen && now > from) break;
      seen = now;
    }
    const reads = spy.reads.slice(from).filter((r) => r.path.endsWith('/big.zip')).length;
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThan(BIG.length / STREAM_CHUNK_BYTES / 2);
    socket.destroy();
    await handlesClosed();
  });
});

describe('what is not streamed', () => {
  it('over stdio (cacheBytes 0) the file is read whole, exact', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const chunks: Buffer[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk));
    const conn = serveStdio(server, { input, output, maxResponseBytes: 64 * 1024 * 1024 });
    const from = spy.reads.length;
    input.write(`${JSON.stringify(modern('resources/read', { uri: 'file:///big.zip' }))}\n`);
    await until(() => Buffer.concat(chunks).includes(10), 'the answer line', 20_000);
    const line = JSON.parse(Buffer.concat(chunks).toString()) as {
      result: { contents: Array<{ blob: string }> };
    };
    expect(Buffer.from(line.result.contents[0]?.blob ?? '', 'base64').equals(BIG)).toBe(true);
    // The usual path: one buffer of the file's size.
    expect(readsOf('big.zip', from).some((r) => r.bufferBytes === BIG.length)).toBe(true);
    input.end();
    await conn.closed;
  });

  it('a file the cache keeps takes the cached path', async () => {
    const cachedRoot = await mkdtemp(join(tmpdir(), 'mcpkit-streamed-cached-'));
    const cachedServer = createServer({ name: 'cached', version: '1' });
    const cachedSpy = spyFs();
    await writeFile(join(cachedRoot, 'four.bin'), CACHED);
    const provider = serveFolder(cachedServer, {
      root: cachedRoot,
      fs: cachedSpy,
      tools: false,
      prompts: false,
    });
    const handle = createHttpHandler(cachedServer);
    try {
      const uri = 'file:///four.bin';
      const req = () =>
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: headers(uri),
          body: body(uri),
        });
      const got = await parse(await handle(req()));
      expect(got.blob.equals(CACHED)).toBe(true);
      expect(cachedSpy.reads.some((r) => r.bufferBytes === CACHED.length)).toBe(true);
      expect(provider.cacheStats().entries).toBe(1);
      const again = await parse(await handle(req()));
      expect(again.bytes.equals(got.bytes)).toBe(true);
      expect(provider.cacheStats().hits).toBeGreaterThanOrEqual(1);
    } finally {
      handle.close();
      cachedServer.close();
      await rm(cachedRoot, { recursive: true, force: true });
    }
  });
});
