/**
 * The Node requester and keep-alive connections the server closed while they sat in the pool:
 * a request that reuses one fails before any answer, and is sent again on a new connection
 * when that is safe.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { Abort } from './client-abort.js';
import type { HttpRequest } from './client-requester.js';
import { NodeRequester, nodeModules } from './node-requester.js';

const cleanups: Array<() => Promise<unknown> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function requester(options: { staleRetryMs?: number } = {}): NodeRequester {
  const modules = nodeModules();
  if (!modules) throw new Error('this test needs Node.js >= 20.16');
  const made = new NodeRequester(modules, options);
  cleanups.push(() => made.close());
  return made;
}

const post = (url: string, body: string): HttpRequest => ({
  method: 'POST',
  url: new URL(url),
  headers: { 'content-type': 'text/plain' },
  body,
  signal: new Abort(),
});
const get = (url: string): HttpRequest => ({
  method: 'GET',
  url: new URL(url),
  headers: {},
  signal: new Abort(),
});

/**
 * A server in a worker thread, so that it closes idle connections while this thread is busy
 * (a loaded machine: the client has not seen the close yet when it reuses the connection). Its
 * keepAliveTimeout is 1 ms; Node >= 20.? adds a second to it on the socket, so the answer sets
 * the socket's own timeout to 1 ms. It sends `Connection: keep-alive` and no `Keep-Alive:
 * timeout=0` hint (a proxy that does not announce its idle timeout), which Node's agent would
 * take as "do not reuse".
 */
async function workerServer(): Promise<{ url: string; seen: () => Promise<string[]> }> {
  const worker = new Worker(
    `
    const http = require('node:http');
    const { parentPort } = require('node:worker_threads');
    const seen = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push(req.method + ' ' + body);
        res.setHeader('connection', 'keep-alive');
        res.on('finish', () => req.socket.setTimeout(1));
        res.end('ok:' + body);
      });
    });
    server.keepAliveTimeout = 1;
    let connections = 0;
    server.on('connection', () => connections++);
    parentPort.on('message', () => parentPort.postMessage({ seen, connections }));
    server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
    `,
    { eval: true },
  );
  cleanups.push(() => worker.terminate());
  const port = await new Promise<number>((resolve) =>
    worker.once('message', (m: { port: number }) => resolve(m.port)),
  );
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen: () =>
      new Promise((resolve) => {
        worker.once('message', (m: { seen: string[]; connections: number }) =>
          resolve([...m.seen, `${m.connections} connections`]),
        );
        worker.postMessage('report');
      }),
  };
}

/** Blocks this thread (the server's close arrives meanwhile, unread). */
function busy(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // spin
  }
}

describe('NodeRequester: stale keep-alive connections', () => {
  it('sends a POST again on a new connection when its reused one was closed by the server', async () => {
    const server = await workerServer();
    const node = requester();
    for (const body of ['a', 'b', 'c']) {
      const answer = await node.request(post(server.url, body));
      expect(await answer.readText(100)).toBe(`ok:${body}`);
      busy(50);
    }
    const answer = await node.request(get(server.url));
    expect(await answer.readText(100)).toBe('ok:');
    // Every reuse met a closed connection: each request went out again on a new one, once.
    expect(await server.seen()).toEqual(['POST a', 'POST b', 'POST c', 'GET ', '4 connections']);
  });

  /** A main-thread server; `handle` gets the request's number (1-based). */
  async function serve(handle: (n: number, req: IncomingMessage, res: ServerResponse) => void) {
    let count = 0;
    const server: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => handle(++count, req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/mcp`, count: () => count };
  }

  it('does not send a POST twice once the server may have read it (the reset came late)', async () => {
    // The second request is read, then its connection dropped without an answer (a crash).
    const server = await serve((n, req, res) => {
      if (n === 2) return void setTimeout(() => req.socket.destroy(), 100);
      res.end('ok');
    });
    const node = requester({ staleRetryMs: 20 });
    expect(await (await node.request(post(server.url, 'a'))).readText(10)).toBe('ok');
    await expect(node.request(post(server.url, 'b'))).rejects.toThrow(/socket hang up/);
    expect(server.count()).toBe(2);
  });

  it('sends a GET again on a new connection however late the reset (it changes nothing)', async () => {
    const server = await serve((n, req, res) => {
      if (n === 2) return void setTimeout(() => req.socket.destroy(), 100);
      res.end(`ok${n}`);
    });
    const node = requester({ staleRetryMs: 20 });
    expect(await (await node.request(get(server.url))).readText(10)).toBe('ok1');
    expect(await (await node.request(get(server.url))).readText(10)).toBe('ok3');
  });

  it('never sends again a request whose connection was new, or whose answer had begun', async () => {
    const server = await serve((n, req, res) => {
      if (n === 1) return void req.socket.destroy();
      if (n === 2) return void res.end('ok');
      // The status line came, then the connection broke.
      req.socket.end('HTTP/1.1 200 OK\r\nconte');
    });
    const node = requester();
    await expect(node.request(post(server.url, 'new'))).rejects.toThrow(/socket hang up/);
    expect(await (await node.request(post(server.url, 'a'))).readText(10)).toBe('ok');
    await expect(node.request(post(server.url, 'b'))).rejects.toBeInstanceOf(Error);
    expect(server.count()).toBe(3);
  });
});
