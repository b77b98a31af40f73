/**
 * Over real HTTP, nothing of a request outlives it: its request and response objects go once it
 * is answered, though its answer is kept (encoded once per version), the body watch's timer runs
 * on, and the folder's caches hold what it read. Through the node handler and the web handler.
 */
import { createServer as createNodeServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFolder } from '../../../providers/filesystem/folder-server.js';
import { createServer } from '../../../server/server.js';
import { stillAlive } from '../../../testing/gc.js';
import { modernHeaders, modernMeta } from '../../../testing/messages.js';
import { toNodeHandler } from '../../node.js';
import { createHttpHandler } from './web-handler.js';

const FILES = 5;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcpkit-retention-'));
  for (let i = 0; i < FILES; i++) await writeFile(join(root, `f${i}.md`), `# file ${i}\n`);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Each request of a run: distinct reads (twice: the second ones answered from their encoding), search, review. */
function requests(): Array<{ headers: Record<string, string>; body: string }> {
  const out: Array<{ headers: Record<string, string>; body: string }> = [];
  let id = 1;
  const add = (method: string, params: Record<string, unknown>, name: string) =>
    out.push({
      headers: { ...modernHeaders(method, name), host: '127.0.0.1' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: id++,
        method,
        params: { ...params, _meta: modernMeta() },
      }),
    });
  for (let round = 0; round < 2; round++)
    for (let i = 0; i < FILES; i++)
      add('resources/read', { uri: `file:///f${i}.md` }, `file:///f${i}.md`);
  add('tools/call', { name: 'search', arguments: { query: 'file' } }, 'search');
  add('prompts/get', { name: 'review-file', arguments: { path: 'f0.md' } }, 'review-file');
  return out;
}

/** A served folder, watched: its reads' answers are kept encoded (what could hold a request). */
async function served() {
  const server = createServer({ name: 'retention', version: '1' });
  const provider = serveFolder(server, { root, watch: true });
  await provider.settled();
  expect(provider.watching).toBe(true);
  return { server, close: () => (provider.close(), server.close()) };
}

describe('what a request leaves behind over HTTP', () => {
  it('through the node handler: no request or response object stays alive', async () => {
    const { server, close } = await served();
    const handler = toNodeHandler(server);
    const seen: Array<WeakRef<object>> = [];
    const http: Server = createNodeServer((req: IncomingMessage, res) => {
      seen.push(new WeakRef(req), new WeakRef(res));
      void handler(req, res);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
      for (const r of requests()) {
        const res = await fetch(url, { method: 'POST', headers: r.headers, body: r.body });
        expect(res.status, await res.text()).toBe(200);
      }
      expect(seen).toHaveLength(2 * requests().length);
      expect((await stillAlive(seen)).length).toBe(0);
    } finally {
      handler.close();
      close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it('through the web handler: no Request stays alive', async () => {
    const { server, close } = await served();
    const handle = createHttpHandler(server);
    const seen: Array<WeakRef<Request>> = [];
    try {
      // Made in a function of its own: no local of this test's frame holds the last one.
      const send = async (r: { headers: Record<string, string>; body: string }) => {
        const req = new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: r.headers,
          body: r.body,
        });
        seen.push(new WeakRef(req));
        const res = await handle(req);
        return { status: res.status, text: await res.text() };
      };
      for (const r of requests()) {
        const { status, text } = await send(r);
        expect(status, text).toBe(200);
      }
      expect((await stillAlive(seen)).length).toBe(0);
    } finally {
      handle.close();
      close();
    }
  });
});
