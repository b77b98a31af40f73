import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openSse,
  recordingSink,
  sendJson,
  serveScript,
  sseData,
  type Recorded,
  type Script,
  type TestServer,
} from '../../../testing/http-test-server.js';
import { until } from '../../../testing/sse.js';
import type { JSONRPCRequest } from '../../../protocol/jsonrpc.js';
import type { HttpClientOptions } from './client-options.js';
import { HttpClientTransport } from './client-transport.js';

/** Every suite runs over both request paths: node:http (the Node default) and web fetch. */
const REQUESTERS = ['node', 'fetch'] as const;
let chosen: (typeof REQUESTERS)[number] = 'node';

const servers: TestServer[] = [];
const transports: HttpClientTransport[] = [];

afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const V = '2025-11-25';
const VERSION = { 'MCP-Protocol-Version': V };
const SESSION = 'sess-1';
const call = (id: number, method: string): JSONRPCRequest => ({ jsonrpc: '2.0', id, method });
const result = (id: unknown) => ({ jsonrpc: '2.0', id, result: {} });
const initialize: JSONRPCRequest = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: V, capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

/** A legacy server: `initialize` mints the session, `rest` answers everything else. */
function legacyServer(rest: Script): Script {
  return (r, res, req) => {
    if (r.json?.['method'] === 'initialize') {
      return sendJson(res, 200, result(r.json['id']), { 'mcp-session-id': SESSION });
    }
    rest(r, res, req);
  };
}

/** Started, initialized, and told the era: what the core does before anything else. */
async function connected(rest: Script, options: Partial<HttpClientOptions> = {}) {
  const server = await serveScript(legacyServer(rest));
  servers.push(server);
  const transport = new HttpClientTransport({ url: server.url, requester: chosen, ...options });
  transports.push(transport);
  const record = recordingSink();
  await transport.start(record.sink);
  await transport.request(initialize, { headers: VERSION });
  await until(() => record.messages.length === 1, 'the initialize answer');
  expect(transport.sessionId).toBe(SESSION);
  transport.setEra('legacy', V);
  record.messages.length = 0;
  return { server, transport, record };
}

const gets = (server: TestServer): Recorded[] => server.requests.filter((r) => r.method === 'GET');

describe.each(REQUESTERS)('over %s', (requester) => {
  beforeEach(() => {
    chosen = requester;
  });

  describe('HttpClientTransport, 2025-11-25: sessions', () => {
    it('sends the session id once given, and DELETEs the session on close', async () => {
      const { server, transport, record } = await connected((r, res) => {
        if (r.method === 'DELETE') return void res.writeHead(200).end();
        if (r.json?.['id'] === undefined) return void res.writeHead(202).end();
        sendJson(res, 200, result(r.json['id']));
      });
      expect(server.requests[0]?.headers['mcp-session-id']).toBeUndefined();
      await transport.notify(
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { headers: VERSION },
      );
      await transport.request(call(1, 'tools/list'), { headers: VERSION });
      await until(() => record.messages.length === 1, 'tools/list');
      for (const sent of server.requests.slice(1)) {
        expect(sent.headers).toMatchObject({
          'mcp-session-id': SESSION,
          'mcp-protocol-version': V,
        });
      }
      await transport.close();
      const del = server.requests.at(-1);
      expect(del?.method).toBe('DELETE');
      expect(del?.headers).toMatchObject({ 'mcp-session-id': SESSION, 'mcp-protocol-version': V });
      expect(transport.sessionId).toBeUndefined();
    });

    it('a 404 to a request with the session id expires it: SESSION_EXPIRED', async () => {
      const { server, transport, record } = await connected((r, res) => {
        if (r.method === 'DELETE') return void res.writeHead(405).end();
        sendJson(res, 404, {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32001, message: 'Session not found' },
        });
      });
      await transport.request(call(2, 'tools/list'), { headers: VERSION });
      await until(() => record.failed.length === 1, 'the failure');
      const error = record.failed[0]?.error as unknown as { code: string; status: number };
      expect(error).toMatchObject({ code: 'SESSION_EXPIRED', status: 404 });
      expect(transport.sessionId).toBeUndefined();
      await transport.close();
      expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);
    });

    it('after a 404 only initialize goes out: the rest fails with SESSION_EXPIRED unsent', async () => {
      let gone = true;
      const { server, transport, record } = await connected((r, res) => {
        if (r.method === 'DELETE') return void res.writeHead(200).end();
        if (gone) return sendJson(res, 404, {});
        if (r.json?.['id'] === undefined) return void res.writeHead(202).end();
        sendJson(res, 200, result(r.json['id']));
      });
      await transport.request(call(2, 'tools/list'), { headers: VERSION });
      await until(() => record.failed.length === 1, 'the 404');
      const sent = server.requests.length;
      await transport.request(call(3, 'tools/list'), { headers: VERSION });
      await until(() => record.failed.length === 2, 'the refusal');
      expect(record.failed[1]).toMatchObject({ id: 3, error: { code: 'SESSION_EXPIRED' } });
      expect(String(record.failed[1]?.error.message)).toContain(`session ${SESSION}`);
      const note = { jsonrpc: '2.0' as const, method: 'notifications/roots/list_changed' };
      await expect(transport.notify(note)).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
      expect(server.requests).toHaveLength(sent);
      // The core initializes again (resetSession first): that goes out, and so does the rest.
      gone = false;
      transport.resetSession();
      await transport.request({ ...initialize, id: 4 }, { headers: VERSION });
      await until(() => record.messages.length === 1, 'the initialize answer');
      await transport.request(call(5, 'tools/list'), { headers: VERSION });
      await until(() => record.messages.length === 2, 'the answer');
      const again = server.requests.slice(sent);
      expect(again.map((r) => [r.json?.['id'], r.headers['mcp-session-id']])).toEqual([
        [4, undefined],
        [5, SESSION],
      ]);
    });

    it('tells the server about a cancellation (a closed stream is not one in 2025-11-25)', async () => {
      const { server, transport } = await connected((r, res) => {
        if (r.json?.['method'] === 'notifications/cancelled') return void res.writeHead(202).end();
        openSse(res);
      });
      await transport.request(call(3, 'tools/call'), { headers: VERSION });
      await until(() => server.requests.length === 2, 'the call');
      transport.cancel(3, 'user');
      await until(() => server.requests.length === 3, 'the notification');
      expect(server.requests[2]?.json).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 3, reason: 'user' },
      });
      expect(server.requests[2]?.headers['mcp-protocol-version']).toBe(V);
    });
  });

  describe('HttpClientTransport, 2025-11-25: the GET stream', () => {
    it('delivers a server request from the GET stream; aborted on close', async () => {
      const sampling = { jsonrpc: '2.0', id: 's1', method: 'sampling/createMessage', params: {} };
      let gone = false;
      const { server, transport, record } = await connected((r, res) => {
        if (r.method === 'GET') {
          res.on('close', () => (gone = true));
          openSse(res);
          return void res.write(sseData(sampling, 'g1'));
        }
        res.writeHead(r.method === 'DELETE' ? 200 : 202).end();
      });
      await transport.openServerStream();
      await until(() => record.messages.length === 1, 'the server request');
      expect(record.messages[0]).toEqual(sampling);
      expect(gets(server)[0]?.headers).toMatchObject({
        accept: 'text/event-stream',
        'mcp-session-id': SESSION,
        'mcp-protocol-version': V,
      });
      await transport.respond({ jsonrpc: '2.0', id: 's1', result: {} }, { headers: VERSION });
      await transport.close();
      await until(() => gone, 'the GET stream to close');
    });

    it('resolves quietly when the server has no GET stream (405), and at once for 2026-07-28', async () => {
      const { server, transport, record } = await connected(
        (_r, res) => void res.writeHead(405).end(),
      );
      await transport.openServerStream();
      expect(gets(server)).toHaveLength(1);
      transport.setEra('modern', '2026-07-28');
      await transport.openServerStream();
      expect(gets(server)).toHaveLength(1);
      expect(record.warnings).toEqual([]);
    });

    it('reopens a dropped GET stream with Last-Event-ID after retry ms', async () => {
      const note = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
      const { server, transport, record } = await connected((r, res) => {
        if (r.method !== 'GET') return void res.writeHead(200).end();
        openSse(res);
        if (gets(server).length === 1) return void res.end('id: g1\nretry: 30\ndata: \n\n');
        res.write(sseData(note, 'g2'));
      });
      await transport.openServerStream();
      await until(() => record.messages.length === 1, 'the notification after the reconnect');
      const [first, second] = gets(server);
      expect(second?.headers['last-event-id']).toBe('g1');
      expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(25);
    });

    it('paces reconnects even when the server says retry: 0 and every stream makes progress', async () => {
      const { server, transport } = await connected((r, res) => {
        if (r.method !== 'GET') return void res.writeHead(200).end();
        openSse(res);
        res.end(`id: g${gets(server).length}\nretry: 0\ndata: \n\n`);
      });
      await transport.openServerStream();
      await new Promise((resolve) => setTimeout(resolve, 450));
      // At most one GET per MIN_RECONNECT_DELAY_MS (100 ms), not a tight loop.
      expect(gets(server).length).toBeGreaterThanOrEqual(2);
      expect(gets(server).length).toBeLessThanOrEqual(6);
    });
  });

  describe('HttpClientTransport, 2025-11-25: resumption', () => {
    // The conformance scenario sse-retry: priming event (id, retry: 500), the POST stream closed
    // after 50 ms, the answer only on the GET that carries Last-Event-ID, no sooner than retry.
    it('resumes a stream closed before its answer: GET + Last-Event-ID after retry ms', async () => {
      const retry = 300;
      let closedAt = 0;
      let getClosed = false;
      const { server, transport, record } = await connected((r, res) => {
        if (r.method === 'GET') {
          res.on('close', () => (getClosed = true));
          openSse(res);
          res.write(`id: event-2\nretry: ${retry}\ndata: \n\n`);
          return void res.write(
            `event: message\nid: event-3\ndata: ${JSON.stringify(result(4))}\n\n`,
          );
        }
        if (r.method === 'DELETE') return void res.writeHead(200).end();
        openSse(res);
        res.write(`id: event-1\nretry: ${retry}\ndata: \n\n`);
        setTimeout(() => {
          closedAt = Date.now();
          res.end();
        }, 50);
      });
      await transport.request(call(4, 'tools/call'), { headers: VERSION });
      await until(() => record.messages.length === 1, 'the answer on the GET stream');
      expect(record.messages[0]).toEqual(result(4));
      expect(record.failed).toEqual([]);
      const [get] = gets(server);
      expect(get?.headers).toMatchObject({
        'last-event-id': 'event-1',
        'mcp-session-id': SESSION,
        'mcp-protocol-version': V,
        accept: 'text/event-stream',
      });
      expect((get?.at ?? 0) - closedAt).toBeGreaterThanOrEqual(retry - 50);
      // The continuation served its one answer: the client lets go of it.
      await until(() => getClosed, 'the client to close the GET');
    });

    it('gives up after maxReconnects resumptions without news: STREAM_INTERRUPTED', async () => {
      const { server, transport, record } = await connected(
        (r, res) => {
          openSse(res);
          res.end('id: p1\nretry: 10\ndata: \n\n');
          void r;
        },
        { maxReconnects: 2 },
      );
      await transport.request(call(5, 'tools/call'), { headers: VERSION });
      await until(() => record.failed.length === 1, 'the failure');
      expect(record.failed[0]?.error.code).toBe('STREAM_INTERRUPTED');
      expect(record.failed[0]?.error.message).toMatch(/2 reconnections \(maxReconnects\)/);
      expect(gets(server)).toHaveLength(2);
    });

    it('fails the request when the server cannot resume (405 to the GET)', async () => {
      const { transport, record } = await connected((r, res) => {
        if (r.method === 'GET') return void res.writeHead(405).end();
        openSse(res);
        res.end('id: p1\nretry: 10\ndata: \n\n');
      });
      await transport.request(call(6, 'tools/call'), { headers: VERSION });
      await until(() => record.failed.length === 1, 'the failure');
      expect(record.failed[0]?.error).toMatchObject({ code: 'HTTP_ERROR', status: 405 });
    });
  });
});
