/**
 * Large answers through every writer: a cached 4 MiB file read over stdio, over node:http
 * (JSON and SSE) and through the web handler answers exactly the file, and concurrent reads
 * answer the very same bytes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFolder } from '../providers/filesystem/folder-server.js';
import { createServer } from '../server/server.js';
import type { McpServer } from '../server/index.js';
import { modern, modernHeaders, modernMeta } from '../testing/messages.js';
import { withTimeout } from '../testing/sse.js';
import { createHttpHandler } from './http/server/web-handler.js';
import { serveHttp } from './node.js';
import { serveStdio } from './stdio/server/serve-stdio.js';

const FILE = randomBytes(4 * 1024 * 1024);
const URI = 'file:///big.bin';
let root: string;
let server: McpServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcpkit-shared-bytes-'));
  await writeFile(join(root, 'big.bin'), FILE);
  server = createServer({ name: 'shared', version: '1' });
  serveFolder(server, { root, settleMs: 0, tools: false, prompts: false });
  // A resource that speaks before its result (so HTTP answers as SSE), with the same contents.
  const blob = FILE.toString('base64');
  server.resource('test://sse', { name: 'sse' }, (_uri, _variables, ctx) => {
    ctx.progress(1, 2);
    return { contents: [{ uri: 'test://sse', mimeType: 'application/octet-stream', blob }] };
  });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The blob of a resources/read answer, decoded. */
function blobOf(message: unknown, id: unknown): Buffer {
  const m = message as { id: unknown; result?: { contents: Array<{ blob?: string }> } };
  expect(m.id).toBe(id);
  return Buffer.from(m.result?.contents[0]?.blob ?? '', 'base64');
}

const headers = (uri: string) => modernHeaders('resources/read', uri);

describe('large answers', () => {
  it('over stdio: each read of the cached file is one line that decodes to the file', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const chunks: Buffer[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk));
    const conn = serveStdio(server, { input, output });
    const requests = [1, 2, 3].map(() => modern('resources/read', { uri: URI }));
    // The first read fills the cache; the next two are written from it.
    for (const request of requests) input.write(`${JSON.stringify(request)}\n`);
    const lines = async (): Promise<string[]> => {
      for (;;) {
        const text = Buffer.concat(chunks).toString();
        const got = text.split('\n').filter((line) => line !== '');
        if (got.length >= 3 && text.endsWith('\n')) return got;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const got = await withTimeout(lines(), 20_000, 'three answers');
    // Concurrent requests may finish in any order: match each answer by its id.
    const answers = got.map((line) => JSON.parse(line) as { id: unknown });
    expect(answers.map((a) => a.id).sort()).toEqual(requests.map((r) => r.id).sort());
    for (const answer of answers) expect(blobOf(answer, answer.id).equals(FILE)).toBe(true);
    input.end();
    await conn.closed;
  });

  it('over node:http: concurrent reads answer identical bytes, the file exactly', async () => {
    const http = await serveHttp(server, { port: 0 });
    try {
      const read = async (id: number, uri = URI, sse = false): Promise<Buffer> => {
        const _meta = modernMeta(sse ? { progressToken: 'p' } : {});
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'resources/read',
          params: { uri, _meta },
        });
        const res = await fetch(http.url, { method: 'POST', headers: headers(uri), body });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe(
          sse ? 'text/event-stream' : 'application/json',
        );
        const bytes = Buffer.from(await res.arrayBuffer());
        if (res.headers.get('content-type')?.startsWith('application/json'))
          expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
        return bytes;
      };
      // The first read fills the cache.
      const first = JSON.parse((await read(1)).toString()) as unknown;
      expect(blobOf(first, 1).equals(FILE)).toBe(true);
      const [a, b] = await Promise.all([read(7), read(7)]);
      expect(a.equals(b as Buffer)).toBe(true);
      expect(blobOf(JSON.parse(a.toString()), 7).equals(FILE)).toBe(true);
      // As an SSE message (progress first): the same bytes inside one data line.
      const sse = (await read(8, 'test://sse', true)).toString();
      expect(sse).toContain('notifications/progress');
      const data = sse
        .split('\n\n')
        .find((event) => event.includes('"id":8'))
        ?.replace(/^event: message\ndata: /, '');
      expect(blobOf(JSON.parse(data ?? 'null'), 8).equals(FILE)).toBe(true);
    } finally {
      await http.close();
    }
  });

  it('through the web handler: a JSON body of parts with its exact length', async () => {
    const handle = createHttpHandler(server);
    try {
      const post = (id: number) =>
        handle(
          new Request('http://127.0.0.1/mcp', {
            method: 'POST',
            headers: { ...headers(URI), host: '127.0.0.1' },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id,
              method: 'resources/read',
              params: { uri: URI, _meta: modernMeta() },
            }),
          }),
        );
      await (await post(1)).arrayBuffer();
      const [a, b] = await Promise.all([post(2), post(2)]);
      const bytes = [Buffer.from(await a.arrayBuffer()), Buffer.from(await b.arrayBuffer())];
      expect(Number(a.headers.get('content-length'))).toBe(bytes[0]?.length);
      expect(bytes[0]?.equals(bytes[1] as Buffer)).toBe(true);
      expect(blobOf(JSON.parse(bytes[0]?.toString() ?? ''), 2).equals(FILE)).toBe(true);
    } finally {
      handle.close();
    }
  });
});
