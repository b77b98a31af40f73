import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createE2eServer } from '../../../testing/e2e-server.js';
import {
  openSse,
  recordingSink,
  sendJson,
  serveScript,
  sseData,
  type Script,
  type TestServer,
} from '../../../testing/http-test-server.js';
import { modern, modernHeaders } from '../../../testing/messages.js';
import { until } from '../../../testing/sse.js';
import type { JSONRPCRequest } from '../../../protocol/jsonrpc.js';
import { HttpClientTransport } from './client-transport.js';
import type { HttpClientOptions } from './client-options.js';
import { DEFAULT_CLIENT_MAX_RESPONSE_BYTES } from './index.js';
import { createHttpHandler } from '../server/web-handler.js';

/** Every suite runs over both request paths: node:http (the Node default) and web fetch. */
const REQUESTERS = ['node', 'fetch'] as const;
let chosen: (typeof REQUESTERS)[number] = 'node';

const servers: TestServer[] = [];
const transports: HttpClientTransport[] = [];

afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(script: Script, options: Partial<HttpClientOptions> = {}) {
  const server = await serveScript(script);
  servers.push(server);
  const transport = new HttpClientTransport({ url: server.url, requester: chosen, ...options });
  transports.push(transport);
  const record = recordingSink();
  await transport.start(record.sink);
  return { server, transport, record };
}

const call = (id: number, method = 'tools/list'): JSONRPCRequest => ({
  jsonrpc: '2.0',
  id,
  method,
  params: {},
});
const result = (id: unknown, value: Record<string, unknown> = { ok: true }) => ({
  jsonrpc: '2.0',
  id,
  result: value,
});
const echo: Script = (r, res) => sendJson(res, 200, result(r.json?.['id']));

describe.each(REQUESTERS)('over %s', (requester) => {
  beforeEach(() => {
    chosen = requester;
  });

  describe('HttpClientTransport: answers', () => {
    it('POSTs one message with the required, extra and computed headers; a JSON answer', async () => {
      const { server, transport, record } = await setup(echo, {
        headers: { authorization: 'Bearer t0ken', accept: 'text/html' },
      });
      expect(transport.kind).toBe('http');
      expect(transport.maxMessageBytes).toBe(DEFAULT_CLIENT_MAX_RESPONSE_BYTES);
      expect(DEFAULT_CLIENT_MAX_RESPONSE_BYTES).toBe(33_554_432);
      await transport.request(call(1), {
        headers: { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' },
      });
      await until(() => record.messages.length === 1, 'the answer');
      expect(record.messages[0]).toEqual(result(1));
      const [sent] = server.requests;
      expect(sent?.method).toBe('POST');
      expect(sent?.json).toEqual(call(1));
      expect(sent?.headers).toMatchObject({
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer t0ken',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      });
      expect(sent?.headers['mcp-session-id']).toBeUndefined();
    });

    it('reads an SSE answer as it arrives: a progress notification, then the result', async () => {
      const progress = {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progress: 1 },
      };
      const { transport, record } = await setup((r, res) => {
        openSse(res);
        res.write(': keep-alive\n\n');
        res.write(sseData(progress));
        setTimeout(() => res.end(sseData(result(r.json?.['id']))), 50);
      });
      await transport.request(call(2));
      await until(() => record.messages.length === 1, 'the progress');
      expect(record.messages).toEqual([progress]);
      await until(() => record.messages.length === 2, 'the result');
      expect(record.messages[1]).toEqual(result(2));
      expect(record.failed).toEqual([]);
    });

    it('warns about a garbage event and goes on reading the stream', async () => {
      const { transport, record } = await setup((r, res) => {
        openSse(res);
        res.write('data: not json\n\n');
        res.end(sseData(result(r.json?.['id'])));
      });
      await transport.request(call(3));
      await until(() => record.messages.length === 1, 'the result');
      expect(record.warnings).toEqual([
        { code: 'INVALID_MESSAGE', message: expect.stringContaining('not JSON') },
      ]);
    });

    it('fails a request whose stream is cut mid-event with STREAM_INTERRUPTED (2026-07-28)', async () => {
      const { server, transport, record } = await setup((_r, res) => {
        openSse(res);
        res.write('id: 1\ndata: {"jsonrpc":"2.0","id":4,"res');
        setTimeout(() => res.destroy(), 20);
      });
      await transport.request(call(4));
      await until(() => record.failed.length === 1, 'the failure');
      expect(record.failed[0]?.id).toBe(4);
      expect(record.failed[0]?.error.code).toBe('STREAM_INTERRUPTED');
      expect(record.failed[0]?.error.message).toMatch(/request 4 ended before its response/);
      expect(record.messages).toEqual([]);
      // No resumption in 2026-07-28, event id or not.
      expect(server.requests.map((r) => r.method)).toEqual(['POST']);
    });

    it('fails a 100k-deep answer clearly instead of crashing', async () => {
      const deep = '['.repeat(100_000) + ']'.repeat(100_000);
      const { transport, record } = await setup((r, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"jsonrpc":"2.0","id":${String(r.json?.['id'])},"result":{"x":${deep}}}`);
      });
      await transport.request(call(5));
      await until(() => record.failed.length === 1, 'the failure');
      expect(record.failed[0]?.error.code).toBe('INVALID_RESPONSE');
      expect(record.failed[0]?.error.message).toMatch(/more than 64 levels below "result"/);
    });
  });

  describe('HttpClientTransport: size caps', () => {
    const CAP = 64 * 1024;

    it('aborts a JSON body past maxResponseBytes while it streams, and frees the socket', async () => {
      let released = false;
      const { transport, record } = await setup(
        (_r, res) => {
          res.on('close', () => (released = true));
          res.writeHead(200, { 'content-type': 'application/json' });
          // No Content-Length and no end: only the cap can stop this body.
          res.write(`{"jsonrpc":"2.0","id":6,"result":{"x":"${'a'.repeat(CAP)}`);
        },
        { maxResponseBytes: CAP },
      );
      expect(transport.maxMessageBytes).toBe(CAP);
      await transport.request(call(6));
      await until(() => record.failed.length === 1, 'the failure');
      const { error } = record.failed[0] ?? {};
      expect(error?.code).toBe('RESPONSE_TOO_LARGE');
      expect(error?.message).toMatch(/larger than 65536 bytes \(maxResponseBytes\)/);
      await until(() => released, 'the server socket to close');
    });

    it('refuses at once a body whose Content-Length passes the cap', async () => {
      const { transport, record } = await setup(
        (_r, res) => sendJson(res, 200, { x: 'b'.repeat(CAP) }),
        {
          maxResponseBytes: CAP,
        },
      );
      await transport.request(call(7));
      await until(() => record.failed.length === 1, 'the failure');
      expect(record.failed[0]?.error.code).toBe('RESPONSE_TOO_LARGE');
    });

    it("stops reading a JSON error body at the request's own maxResponseBytes", async () => {
      let released = false;
      const { transport, record } = await setup((_r, res) => {
        res.on('close', () => (released = true));
        res.writeHead(400, { 'content-type': 'application/json' });
        // No Content-Length and no end: only the request's limit can stop this body.
        res.write(
          `{"jsonrpc":"2.0","id":12,"error":{"code":-32603,"message":"${'e'.repeat(4 * CAP)}`,
        );
      });
      await transport.request(call(12), { maxResponseBytes: CAP });
      await until(() => record.failed.length === 1, 'the failure');
      expect(record.failed[0]?.error).toMatchObject({ code: 'HTTP_ERROR', status: 400 });
      await until(() => released, 'the server socket to close');
    });

    it('fails on an SSE event past the cap, after delivering the events before it', async () => {
      const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info' } };
      const { transport, record } = await setup(
        (_r, res) => {
          openSse(res);
          res.write(sseData(note));
          res.write(`data: ${'c'.repeat(CAP * 2)}`);
        },
        { maxResponseBytes: CAP },
      );
      await transport.request(call(8));
      await until(() => record.failed.length === 1, 'the failure');
      expect(record.messages).toEqual([note]);
      expect(record.failed[0]?.error.code).toBe('RESPONSE_TOO_LARGE');
      expect(record.failed[0]?.error.message).toMatch(/an SSE event/);
    });
  });

  describe('HttpClientTransport: failures', () => {
    it('delivers a JSON-RPC error body of a 400 as a message (era detection reads it)', async () => {
      const error = {
        jsonrpc: '2.0',
        id: 9,
        error: { code: -32022, message: 'Unsupported version' },
      };
      const { transport, record } = await setup((_r, res) => sendJson(res, 400, error));
      await transport.request(call(9));
      await until(() => record.messages.length === 1, 'the error');
      expect(record.messages[0]).toEqual(error);
      expect(record.failed).toEqual([]);
    });

    it('takes a modern error with id null as the answer of the one request its POST carried', async () => {
      const error = (code: number) => ({
        jsonrpc: '2.0',
        id: null,
        error: { code, message: 'refused', data: { supported: ['2027-01-01'] } },
      });
      const { transport, record } = await setup((r, res) =>
        sendJson(res, 400, error(r.json?.['id'] === 9 ? -32022 : -32600)),
      );
      await transport.request(call(9));
      await until(() => record.messages.length === 1, 'the error');
      expect(record.messages[0]).toEqual({ ...error(-32022), id: 9 });
      // Any other code with id null is no answer: an HTTP_ERROR with the status.
      await transport.request(call(10));
      await until(() => record.failed.length === 1, 'the failure');
      expect(record.failed[0]?.error).toMatchObject({ code: 'HTTP_ERROR', status: 400 });
    });

    it.each([
      [404, 'Not Found'],
      [405, 'Method Not Allowed'],
    ])('fails a bodiless %i with HTTP_ERROR and the status on the error', async (status, text) => {
      const { server, transport, record } = await setup((_r, res) => {
        res.writeHead(status);
        res.end();
      });
      await transport.request(call(10));
      await until(() => record.failed.length === 1, 'the failure');
      const error = record.failed[0]?.error as unknown as {
        code: string;
        status: number;
        message: string;
      };
      expect(error.code).toBe('HTTP_ERROR');
      expect(error.status).toBe(status);
      expect(error.message).toBe(`POST ${server.url} answered ${status} ${text}`);
    });

    it('quotes a text error body with its control characters escaped', async () => {
      const { transport, record } = await setup((_r, res) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end('bad\u001b[31m gateway\u0007');
      });
      await transport.request(call(11));
      await until(() => record.failed.length === 1, 'the failure');
      expect(record.failed[0]?.error.message).toMatch(
        /answered 502 Bad Gateway: bad\\u001b\[31m gateway\\u0007$/,
      );
    });

    it('refuses a redirect by default, naming the status and Location', async () => {
      const { server, transport, record } = await setup((_r, res) => {
        res.writeHead(307, { location: '/elsewhere?token=secret' });
        res.end();
      });
      await transport.request(call(12));
      await until(() => record.failed.length === 1, 'the failure');
      const error = record.failed[0]?.error as unknown as {
        code: string;
        status: number;
        message: string;
      };
      expect(error.code).toBe('HTTP_REDIRECT');
      expect(error.status).toBe(307);
      expect(error.message).toContain(
        `307 Temporary Redirect (Location ${server.origin}/elsewhere)`,
      );
      expect(error.message).not.toContain('secret');
      expect(server.requests).toHaveLength(1);
    });

    it('with allowRedirects, follows same-origin hops only (extra headers stay home)', async () => {
      const other = await serveScript(echo);
      servers.push(other);
      const { server, transport, record } = await setup(
        (r, res, req) => {
          if (r.json?.['id'] === 13 && req.url === '/mcp') {
            res.writeHead(308, { location: '/moved' });
            res.end();
          } else if (r.json?.['id'] === 14) {
            res.writeHead(307, { location: other.url });
            res.end();
          } else {
            echo(r, res, undefined as never);
          }
        },
        { allowRedirects: true, headers: { authorization: 'Bearer s' } },
      );
      await transport.request(call(13));
      await until(() => record.messages.length === 1, 'the answer after the hop');
      expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
      expect(server.requests[1]?.headers['authorization']).toBe('Bearer s');
      await transport.request(call(14));
      await until(() => record.failed.length === 1, 'the refusal');
      expect(record.failed[0]?.error.message).toMatch(/same-origin hops only/);
      expect(other.requests).toHaveLength(0);
    });

    it('reports a refused connection as HTTP_ERROR with the socket error', async () => {
      const server = await serveScript(echo);
      await server.close();
      const transport = new HttpClientTransport({ url: server.url, requester: chosen });
      transports.push(transport);
      const record = recordingSink();
      await transport.start(record.sink);
      await transport.request(call(15));
      await until(() => record.failed.length === 1, 'the failure');
      expect(record.failed[0]?.error.code).toBe('HTTP_ERROR');
      expect(record.failed[0]?.error.message).toMatch(
        new RegExp(`^POST ${server.url} failed: connect ECONNREFUSED`),
      );
      expect(record.failed[0]?.error.cause).toBeInstanceOf(Error);
    });

    it('rejects sends before start() and after close()', async () => {
      const transport = new HttpClientTransport({ url: 'http://127.0.0.1:9/mcp' });
      await expect(transport.request(call(16))).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
      expect(() => new HttpClientTransport({ url: 'ftp://x/' })).toThrow(/http: or https:/);
    });
  });

  describe('HttpClientTransport: cancel, close, fetch', () => {
    it('cancel aborts the POST: the server sees its socket close, nothing is reported', async () => {
      let gone = false;
      const { transport, record } = await setup((_r, res) => {
        openSse(res);
        res.on('close', () => (gone = true));
      }, {});
      await transport.request(call(17), { longLived: true });
      await new Promise((r) => setTimeout(r, 50));
      transport.cancel(17);
      await until(() => gone, 'the server to see the socket close');
      await new Promise((r) => setTimeout(r, 20));
      expect(record.failed).toEqual([]);
    });

    it('close aborts what is in flight and reports PEER_CLOSED; start works again', async () => {
      const { transport, record } = await setup((r, res) => {
        if (r.json?.['id'] === 18) return openSse(res);
        echo(r, res, undefined as never);
      });
      await transport.request(call(18));
      await transport.close();
      expect(record.closed.map((e) => [e.code, e.message])).toEqual([
        ['PEER_CLOSED', 'closed by the client'],
      ]);
      expect(record.failed).toEqual([]);
      await expect(transport.notify({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({
        code: 'NOT_CONNECTED',
      });
      await transport.start(record.sink);
      await transport.request(call(19));
      await until(() => record.messages.length === 1, 'the answer after restart');
    });

    it('a notification resolves on 202 and rejects on an error status', async () => {
      const { transport } = await setup((r, res) => {
        res.writeHead(r.json?.['method'] === 'bad' ? 400 : 202);
        res.end();
      });
      await transport.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await expect(transport.notify({ jsonrpc: '2.0', method: 'bad' })).rejects.toMatchObject({
        code: 'HTTP_ERROR',
        status: 400,
      });
    });
  });
});

describe('HttpClientTransport: an injected fetch', () => {
  it('uses an injected fetch: a tools/list against mcpkit’s own web handler', async () => {
    const server = createE2eServer();
    const handle = createHttpHandler(server);
    const seen: string[] = [];
    const transport = new HttpClientTransport({
      url: 'http://127.0.0.1/mcp',
      fetch: (input, init) => {
        seen.push(`${init?.method} ${String(input)}`);
        return handle(new Request(input, init));
      },
    });
    transports.push(transport);
    const record = recordingSink();
    await transport.start(record.sink);
    const message = modern('tools/list');
    await transport.request(message, { headers: modernHeaders('tools/list') });
    await until(() => record.messages.length === 1, 'tools/list');
    const answer = record.messages[0] as unknown as {
      id: unknown;
      result: { tools: Array<{ name: string }> };
    };
    expect(answer.id).toBe(message.id);
    expect(answer.result.tools.map((t) => t.name)).toContain('echo');
    expect(seen).toEqual(['POST http://127.0.0.1/mcp']);
    handle.close();
    server.close();
  });
});
