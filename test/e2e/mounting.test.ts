/**
 * The HTTP handlers mounted in real frameworks over real sockets: node:http, Express 5 (with and
 * without express.json(), `app.all` and `app.use`, at /mcp and elsewhere), Fastify 5 (its
 * parsed body handed over) and Hono on @hono/node-server (the web handler). A body a framework
 * parsed already is served, not waited for, and the body cap and depth limit still apply to it.
 */
import { createServer as createNodeServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as serveHono } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type McpServer } from '../../src/server/index.js';
import { createHttpHandler } from '../../src/transports/http/server/index.js';
import { toNodeHandler } from '../../src/transports/node.js';
import { initializeRequest, legacy, modern, modernHeaders } from '../../src/testing/messages.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function mcpServer(options: { maxDepth?: number } = {}): McpServer {
  const server = createServer({ name: 'mounted', version: '1.0.0', ...options });
  server.tool(
    'shout',
    {
      description: 'Upper-cases a text',
      input: { type: 'object', properties: { text: {} }, required: ['text'] },
    },
    ({ text }) => JSON.stringify(text).toUpperCase(),
  );
  return server;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** POSTs a 2026-07-28 tools/call of shout; resolves with the status and the parsed answer. */
async function shout(url: string, text: unknown, headers: Record<string, string> = {}) {
  const body = modern('tools/call', { name: 'shout', arguments: { text } });
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...modernHeaders('tools/call', 'shout'), ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000), // a body waited for would hang: fail, not hang
  });
  const json = (await res.json()) as {
    id: unknown;
    result?: { content: Array<{ text: string }> };
    error?: { code: number; message: string };
  };
  return { status: res.status, json, id: body.id };
}

describe('node:http', () => {
  it('serves /mcp and answers another path 404 (no framework routed it)', async () => {
    const url = await listen(createNodeServer(toNodeHandler(mcpServer())));
    const ok = await shout(`${url}/mcp`, 'hi');
    expect(ok.status).toBe(200);
    expect(ok.json.result?.content[0]?.text).toBe('"HI"');
    const other = await shout(`${url}/other`, 'hi');
    expect(other.status).toBe(404);
    expect(other.json.error?.message).toMatch(/the MCP endpoint is \/mcp/);
  });
});

describe('a body handed over that is not JSON data', () => {
  it('gets 400 -32700 naming req.body; the process and the next request are fine', async () => {
    const handler = toNodeHandler(mcpServer());
    let next: unknown = { jsonrpc: '2.0', id: 1, method: 'x', params: { n: 1n } };
    const url = await listen(
      createNodeServer((req, res) => {
        handler(req, res, next);
        next = undefined;
      }),
    );
    const bad = await shout(`${url}/mcp`, 'ignored');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({
      code: -32700,
      message: expect.stringMatching(/req\.body/),
    });
    expect((await shout(`${url}/mcp`, 'then')).json.result?.content[0]?.text).toBe('"THEN"');
  });
});

describe('what a framework leaves in req.body', () => {
  it('req.body set by a middleware that read nothing: the stream is read as usual', async () => {
    const app = express();
    app.use((req, _res, next) => {
      // As body-parser 1.x and many auth middlewares do, on every request.
      (req as { body?: unknown }).body ??= {};
      (req.body as Record<string, unknown>)['userId'] = 'u1';
      next();
    });
    app.all('/mcp', toNodeHandler(mcpServer()));
    const url = await listen(createNodeServer(app));
    expect((await shout(`${url}/mcp`, 'real')).json.result?.content[0]?.text).toBe('"REAL"');
  });

  it('a null body handed over is the body: 400 -32600, not a wait on the spent stream', async () => {
    const handler = toNodeHandler(mcpServer());
    const url = await listen(createNodeServer((req, res) => handler(req, res, null)));
    const r = await shout(`${url}/mcp`, 'ignored');
    expect(r.status).toBe(400);
    expect(r.json.error?.code).toBe(-32600);
  });

  it('a body read by someone else and not handed over: 500 saying so, at once', async () => {
    const handler = toNodeHandler(mcpServer());
    const url = await listen(
      createNodeServer((req, res) => {
        req.resume(); // a parser that keeps what it read
        req.once('end', () => handler(req, res));
      }),
    );
    const r = await shout(`${url}/mcp`, 'lost');
    expect(r.status).toBe(500);
    expect(r.json.error?.message).toMatch(/read before the MCP handler and not handed over/);
  });
});

describe('Express 5', () => {
  it.each([
    ['app.all', false],
    ['app.all', true],
    ['app.use', false],
    ['app.use', true],
  ] as const)('%s("/mcp", handler), express.json() before it: %s', async (how, json) => {
    const app = express();
    if (json) app.use(express.json());
    const handler = toNodeHandler(mcpServer());
    if (how === 'app.all') app.all('/mcp', handler);
    else app.use('/mcp', handler);
    const url = await listen(createNodeServer(app));
    const r = await shout(`${url}/mcp`, 'hello');
    expect(r.status).toBe(200);
    expect(r.json.id).toBe(r.id);
    expect(r.json.result?.content[0]?.text).toBe('"HELLO"');
  });

  it('mounted elsewhere (app.use("/api/v1/mcp")) with no option; the rest of the app is its own', async () => {
    const app = express();
    app.use(express.json());
    app.use('/api/v1/mcp', toNodeHandler(mcpServer()));
    app.get('/health', (_req, res) => void res.send('ok'));
    const url = await listen(createNodeServer(app));
    expect((await shout(`${url}/api/v1/mcp`, 'x')).json.result?.content[0]?.text).toBe('"X"');
    expect(await (await fetch(`${url}/health`)).text()).toBe('ok');
  });

  it('a legacy session through express.json(): initialize, then a call in the session', async () => {
    const app = express();
    app.use(express.json());
    app.all('/mcp', toNodeHandler(mcpServer()));
    const url = `${await listen(createNodeServer(app))}/mcp`;
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const init = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(initializeRequest()),
    });
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id');
    expect(session).toBeTruthy();
    await init.text();
    const call = legacy('tools/call', { name: 'shout', arguments: { text: 'old' } });
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        ...headers,
        'mcp-session-id': session as string,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify(call),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: call.id,
      result: { content: [{ type: 'text', text: '"OLD"' }] },
    });
  });

  it('a parsed body past maxBodyBytes (by its serialised size) gets 413, as a raw one does', async () => {
    const app = express();
    app.use(express.json({ limit: '1mb' }));
    app.all('/mcp', toNodeHandler(mcpServer(), { maxBodyBytes: 2000 }));
    const url = await listen(createNodeServer(app));
    const small = await shout(`${url}/mcp`, 'a'.repeat(1500));
    expect(small.status).toBe(200);
    const big = await shout(`${url}/mcp`, 'a'.repeat(2500));
    expect(big.status).toBe(413);
    expect(big.json.error?.message).toMatch(/exceeds 2000 bytes \(maxBodyBytes\)/);
  });

  it('the depth limit holds for a parsed body: the same answer as without express.json()', async () => {
    let deep: unknown = 'core';
    for (let i = 0; i < 10; i++) deep = [deep];
    const answers = [];
    for (const json of [false, true]) {
      const app = express();
      if (json) app.use(express.json());
      app.all('/mcp', toNodeHandler(mcpServer({ maxDepth: 5 })));
      const url = await listen(createNodeServer(app));
      const r = await shout(`${url}/mcp`, deep);
      answers.push([r.status, r.json.error?.code, r.json.error?.message]);
    }
    expect(answers[0]?.[1]).toBeTypeOf('number');
    expect(answers[0]?.[2]).toMatch(/maxDepth 5/);
    expect(answers[1]).toEqual(answers[0]);
  });
});

describe('Fastify 5', () => {
  it('its parsed request.body handed over (reply.hijack(): the handler answers)', async () => {
    const fastify = Fastify();
    const handler = toNodeHandler(mcpServer());
    fastify.all('/mcp', (request, reply) => {
      reply.hijack();
      handler(request.raw, reply.raw, request.body);
    });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => fastify.close());
    const { port } = fastify.server.address() as AddressInfo;
    const r = await shout(`http://127.0.0.1:${port}/mcp`, 'fast');
    expect(r.status).toBe(200);
    expect(r.json.result?.content[0]?.text).toBe('"FAST"');
  });
});

describe('Hono on @hono/node-server', () => {
  it('the web handler on app.all("/mcp")', async () => {
    const app = new Hono();
    const handler = createHttpHandler(mcpServer());
    app.all('/mcp', (c) => handler(c.req.raw));
    const port = await new Promise<number>((resolve) => {
      const server = serveHono({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
        resolve(info.port),
      );
      cleanups.push(() => new Promise<void>((done) => server.close(() => done())));
    });
    const r = await shout(`http://127.0.0.1:${port}/mcp`, 'hono');
    expect(r.status).toBe(200);
    expect(r.json.result?.content[0]?.text).toBe('"HONO"');
  });
});
