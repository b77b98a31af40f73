/**
 * Streamed blobs from any read handler: an answer after progress notifications (SSE) streams
 * too, and one whose source fails is cut, never dispatched; only `resources/read` over HTTP sees
 * `ctx.streamsBodies`; stdio refuses a streamed body with -32603 (never `[object Object]`), and
 * an embed of a streamed resource reads it into a string.
 */
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { asBlobString, base64Body, type StreamedBody } from '../content/streamed-body.js';
import { createServer } from '../server/server.js';
import { connectInMemory } from './memory.js';
import { modern, modernHeaders, modernMeta } from '../testing/messages.js';
import { SseReader, until } from '../testing/sse.js';
import { createHttpHandler } from './http/server/web-handler.js';
import { serveHttp, type RunningHttpServer } from './node.js';
import { serveStdio } from './stdio/server/serve-stdio.js';

const DATA = randomBytes(2 * 1024 * 1024 + 2);
/** Chunks that are no multiple of 3: the encoder carries bytes across them. */
const CHUNK = 100_000;

/** DATA as a body; with `failAfter`, the source throws after that many chunks. */
function dataBody(failAfter?: number): StreamedBody {
  return base64Body({
    size: DATA.length,
    chunks: async function* () {
      for (let at = 0, n = 0; at < DATA.length; at += CHUNK, n++) {
        if (n === failAfter) throw new Error('the source failed');
        yield DATA.subarray(at, at + CHUNK);
      }
    },
  });
}

const seen: Record<string, boolean> = {};
const server = createServer({ name: 'streamed-sse', version: '1' });
const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
let http: RunningHttpServer;

beforeAll(async () => {
  const streamed = (uri: string, body: () => StreamedBody, progress: boolean) =>
    server.resource(uri, { name: uri }, (_uri, _variables, ctx) => {
      seen[uri] = ctx.streamsBodies;
      if (progress) ctx.progress(1, 2);
      const blob = ctx.streamsBodies ? asBlobString(body()) : DATA.toString('base64');
      return { contents: [{ uri, mimeType: 'application/octet-stream', blob }] };
    });
  streamed('test://sse', () => dataBody(), true);
  streamed('test://sse-fails', () => dataBody(3), true);
  // Ignores ctx.streamsBodies: a bug the transport must still answer cleanly.
  server.resource('test://always', { name: 'always' }, () => ({
    contents: [
      {
        uri: 'test://always',
        mimeType: 'application/octet-stream',
        blob: asBlobString(dataBody()),
      },
    ],
  }));
  server.resource('test://embeds', { name: 'embeds' }, async (_uri, _variables, ctx) => {
    const embedded = await ctx.embed('test://always');
    return { contents: [{ ...embedded.resource, uri: 'test://embeds' }] };
  });
  http = await serveHttp(server, { port: 0 });
});

afterEach(() => {
  errors.mockClear();
});

afterAll(async () => {
  errors.mockRestore();
  await http.close();
  server.close();
});

const headers = (uri: string) => ({ ...modernHeaders('resources/read', uri), host: '127.0.0.1' });

const body = (uri: string, id: number, progress = true) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'resources/read',
    params: { uri, _meta: modernMeta(progress ? { progressToken: 'p' } : {}) },
  });

type Answer = { id?: unknown; result?: { contents: Array<{ blob: string }> } };
const blobOf = (m: Answer | undefined) => Buffer.from(m?.result?.contents[0]?.blob ?? '', 'base64');

/** The progress event, then the answer, off an SSE response. */
async function sseAnswer(res: Response): Promise<Answer | undefined> {
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const reader = new SseReader(res.body);
  const progress = await reader.next();
  expect(progress?.['method']).toBe('notifications/progress');
  return (await reader.next(20_000)) as Answer | undefined;
}

describe('streamed blobs after progress (SSE)', () => {
  it('over node:http the answer event carries the exact bytes', async () => {
    const uri = 'test://sse';
    const res = await fetch(http.url, {
      method: 'POST',
      headers: headers(uri),
      body: body(uri, 1),
    });
    const answer = await sseAnswer(res);
    expect(answer?.id).toBe(1);
    expect(blobOf(answer).equals(DATA)).toBe(true);
    expect(seen[uri]).toBe(true);
  });

  it('through the web handler the answer event carries the exact bytes', async () => {
    const handle = createHttpHandler(server);
    try {
      const uri = 'test://sse';
      const res = await handle(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: headers(uri),
          body: body(uri, 2),
        }),
      );
      expect(blobOf(await sseAnswer(res)).equals(DATA)).toBe(true);
    } finally {
      handle.close();
    }
  });

  it.each(['node', 'web'])(
    'a source that fails cuts the stream (%s): no answer event',
    async (kind) => {
      const handle = createHttpHandler(server);
      try {
        const uri = 'test://sse-fails';
        const init = { method: 'POST', headers: headers(uri), body: body(uri, 3) };
        const res =
          kind === 'node'
            ? await fetch(http.url, init)
            : await handle(new Request('http://127.0.0.1/mcp', init));
        await expect(sseAnswer(res)).rejects.toThrow();
        expect(
          errors.mock.calls.filter((c) => String(c[0]).includes('the source failed')),
        ).toHaveLength(1);
        // The server serves on.
        const again = await fetch(http.url, {
          method: 'POST',
          headers: headers('test://sse'),
          body: body('test://sse', 4),
        });
        expect(blobOf(await sseAnswer(again)).equals(DATA)).toBe(true);
      } finally {
        handle.close();
      }
    },
  );
});

describe('where streamed bodies are not taken', () => {
  it('in memory, ctx.streamsBodies is false', async () => {
    const conn = connectInMemory(server);
    const res = (await conn.send(modern('resources/read', { uri: 'test://sse' }))) as Answer;
    expect(typeof res.result?.contents[0]?.blob).toBe('string');
    expect(seen['test://sse']).toBe(false);
    conn.close();
  });

  it('stdio reads a streamed body it was handed into the answer (a handler that ignores ctx.streamsBodies)', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const conn = serveStdio(server, { input, output, maxResponseBytes: 16 * 1024 * 1024 });
      const streamed = modern('resources/read', { uri: 'test://always' });
      const fine = modern('resources/read', { uri: 'test://sse' });
      input.write(`${JSON.stringify(streamed)}\n`);
      await until(() => text.includes('\n'), 'the first answer', 20_000);
      input.write(`${JSON.stringify(fine)}\n`);
      await until(() => text.split('\n').length > 2, 'the second answer', 20_000);
      const [first, second] = text.split('\n').map((line) => JSON.parse(line || 'null') as Answer);
      expect(first?.id).toBe(streamed.id);
      expect(blobOf(first).equals(DATA)).toBe(true);
      expect(text).not.toContain('[object Object]');
      expect(blobOf(second).equals(DATA)).toBe(true);
      input.end();
      await conn.closed;
    } finally {
      stderr.mockRestore();
    }
  });

  it('an embed of a streamed resource reads it into a string', async () => {
    const uri = 'test://embeds';
    const res = await fetch(http.url, {
      method: 'POST',
      headers: headers(uri),
      body: body(uri, 5, false),
    });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(blobOf((await res.json()) as Answer).equals(DATA)).toBe(true);
  });
});
