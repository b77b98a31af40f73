/**
 * The node adapter over real loopback sockets: request bodies bounded in time and in total
 * (bodyTimeoutMs, maxBodyTotalBytes), and what node's parser refuses answered as JSON-RPC
 * (431 for headers over maxHeaderBytes, 408 for slow headers, 400 for bad requests).
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modern } from '../testing/messages.js';
import { until, withTimeout } from '../testing/sse.js';
import { createE2eServer } from '../testing/e2e-server.js';
import type { McpServer } from '../server/index.js';
import { serveHttp, toNodeHandler, type NodeHandler, type RunningHttpServer } from './node.js';

const MAX_BODY = 64 * 1024;
const TOTAL = 4 * MAX_BODY;
const IDLE_MS = 300;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** Whether the server closed the connection after answering. */
  closed: boolean;
}

/** Parses what a raw socket received: one HTTP/1.1 response with a Content-Length body. */
function parseAnswer(raw: string, closed: boolean): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const text = raw.slice(end + 4);
  return {
    status: Number(statusLine!.split(' ')[1]),
    headers,
    body: text ? JSON.parse(text) : undefined,
    closed,
  };
}

/** A client that writes `head` (and then what the test writes) and reads one answer. */
function rawClient(port: number, head: string) {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined); // a reset after the answer is not the test's concern
  socket.write(head);
  let raw = '';
  const answer = new Promise<RawAnswer>((resolve) => {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (raw += chunk));
    socket.once('close', () => resolve(parseAnswer(raw, true)));
  });
  return { socket, answer: withTimeout(answer, 10_000, 'the server to answer and close') };
}

const postHead = (extra: string) =>
  'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
  `Accept: application/json, text/event-stream\r\n${extra}\r\n`;

async function listen(http: Server): Promise<number> {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return (http.address() as AddressInfo).port;
}

describe('toNodeHandler: stalled request bodies are bounded in time and in total', () => {
  let server: McpServer;
  let handler: NodeHandler;
  let http: Server;
  let port = 0;

  beforeAll(async () => {
    server = createE2eServer();
    handler = toNodeHandler(server, {
      maxBodyBytes: MAX_BODY,
      maxBodyTotalBytes: TOTAL,
      bodyTimeoutMs: IDLE_MS,
    });
    http = createHttpServer(handler);
    port = await listen(http);
  });
  afterAll(async () => {
    handler.close();
    server.close();
    http.closeAllConnections();
    await new Promise((r) => http.close(r));
  });

  it('answers a body that stops short of its Content-Length with 408, closes, and releases its bytes', async () => {
    const { answer } = rawClient(port, postHead('Content-Length: 1000\r\n') + '{"jsonrpc":"2.0",');
    await until(() => handler.bufferedBodyBytes === 1000, 'the declared length to be reserved');
    const res = await answer;
    expect(res.status).toBe(408);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['connection']).toBe('close');
    expect(res.body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(/300 ms \(bodyTimeoutMs\)/) },
    });
    expect(res.closed).toBe(true);
    expect(handler.bufferedBodyBytes).toBe(0);
  });

  it('holds at most maxBodyTotalBytes for many stalled near-maximal bodies: the rest get 503 unread', async () => {
    // The attack, scaled down: 20 bodies of MAX_BODY - 1 of a declared MAX_BODY, stalled.
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, handler.bufferedBodyBytes)), 1);
    try {
      const clients = Array.from({ length: 20 }, () => {
        const c = rawClient(port, postHead(`Content-Length: ${MAX_BODY}\r\n`));
        c.socket.write(Buffer.alloc(MAX_BODY - 1, 0x20));
        return c;
      });
      const answers = await Promise.all(clients.map((c) => c.answer));
      const statuses = answers.map((a) => a.status);
      expect(statuses.every((s) => s === 408 || s === 503)).toBe(true);
      expect(statuses.filter((s) => s === 408).length).toBeGreaterThanOrEqual(TOTAL / MAX_BODY);
      expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
      const busy = answers.find((a) => a.status === 503)!;
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.body).toMatchObject({
        error: { code: -32603, message: expect.stringMatching(/maxBodyTotalBytes/) },
      });
      expect(answers.every((a) => a.closed)).toBe(true);
    } finally {
      clearInterval(watch);
    }
    expect(peak).toBeLessThanOrEqual(TOTAL);
    expect(handler.bufferedBodyBytes).toBe(0);
  });

  it('counts chunked bodies as their bytes arrive, and refuses the one that would pass the total', async () => {
    const chunk = (n: number) => `${n.toString(16)}\r\n${' '.repeat(n)}\r\n`;
    const full = Array.from({ length: TOTAL / MAX_BODY }, () =>
      rawClient(port, postHead('Transfer-Encoding: chunked\r\n') + chunk(MAX_BODY - 10)),
    );
    await until(
      () => handler.bufferedBodyBytes === full.length * (MAX_BODY - 10),
      'the chunked bodies to be buffered',
    );
    const over = rawClient(port, postHead('Transfer-Encoding: chunked\r\n') + chunk(100));
    expect((await over.answer).status).toBe(503);
    expect(handler.bufferedBodyBytes).toBe(full.length * (MAX_BODY - 10));
    for (const x of full) expect((await x.answer).status).toBe(408);
    expect(handler.bufferedBodyBytes).toBe(0);
  });

  it('releases the bytes of a body whose client goes away, and serves the next request', async () => {
    const { socket, answer } = rawClient(port, postHead('Content-Length: 5000\r\n') + '{"a":');
    await until(() => handler.bufferedBodyBytes === 5000, 'the body to be reserved');
    socket.destroy();
    await answer;
    await until(() => handler.bufferedBodyBytes === 0, 'the aborted body to be released');
    const req = modern('tools/call', { name: 'echo', arguments: { text: 'after' } });
    const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'echo',
      },
      body: JSON.stringify(req),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: req.id,
      result: { content: [{ text: 'after' }] },
    });
    expect(handler.bufferedBodyBytes).toBe(0);
  });
});

describe('toNodeHandler: a large declared body', () => {
  it('is read whole (one buffer of its length) and answered exactly', async () => {
    const server = createE2eServer();
    const running = await serveHttp(server, { port: 0, maxBodyBytes: 4 * 1024 * 1024 });
    try {
      const text = 'é'.repeat(300 * 1024); // 600 KiB of UTF-8, split across many socket reads
      const body = modern('tools/call', { name: 'echo', arguments: { text } });
      const response = await fetch(running.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'echo',
        },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as { result: { content: Array<{ text: string }> } };
      expect(json.result.content[0]?.text).toBe(text);
    } finally {
      await running.close();
    }
  });
});

describe('serveHttp: what node refuses before the handler is answered as JSON-RPC', () => {
  let server: McpServer;
  let running: RunningHttpServer;

  beforeAll(async () => {
    server = createE2eServer();
    running = await serveHttp(server, { port: 0, headerTimeoutMs: 200, maxHeaderBytes: 4096 });
  });
  afterAll(async () => {
    await running?.close();
  });

  it('answers headers over maxHeaderBytes with 431 saying why a long URI cannot be read over HTTP', async () => {
    const uri = `mem://${'x'.repeat(5000)}`;
    const req = modern('resources/read', { uri });
    const res = await fetch(running.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'resources/read',
        'mcp-name': uri,
      },
      body: JSON.stringify(req),
    });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toBe('application/json');
    const json = (await res.json()) as { error: { code: number; message: string } };
    expect(json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(json.error.message).toMatch(/exceed 4096 bytes \(maxHeaderBytes\)/);
    expect(json.error.message).toMatch(/Mcp-Name/);
    expect(json.error.message).toMatch(/use stdio, or shorter URIs/);
  });

  it('answers headers that do not arrive within headerTimeoutMs with 408 and closes', async () => {
    const { answer } = rawClient(running.port, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const res = await answer;
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/within 200 ms \(headerTimeoutMs\)/) },
    });
    expect(res.closed).toBe(true);
  });

  it.each([
    ['a malformed request line', 'NOT HTTP AT ALL\r\n\r\n'],
    ['a bad header', 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n'],
  ])('answers %s with 400 and a JSON-RPC body', async (_name, head) => {
    const res = await rawClient(running.port, head).answer;
    expect(res.status).toBe(400);
    expect(res.headers['connection']).toBe('close');
    expect(res.body).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/^Bad Request: /) },
    });
  });

  it('still serves requests after refusing those', async () => {
    const req = modern('server/discover');
    const res = await fetch(running.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      },
      body: JSON.stringify(req),
    });
    expect(res.status).toBe(200);
  });
});
