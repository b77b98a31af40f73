/**
 * `McpClient` over `HttpClientTransport` when the server misbehaves around the handshake: a
 * session that expires on the GET stream, a GET stream that never answers, a modern error sent
 * with `id: null`. Over both request paths, against node:http servers on 127.0.0.1.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../../client/client.js';
import type { ClientWarning } from '../../../client/options.js';
import {
  openSse,
  sendJson,
  serveScript,
  sseData,
  type Recorded,
  type Script,
  type TestServer,
} from '../../../testing/http-test-server.js';
import { until } from '../../../testing/sse.js';
import type { HttpClientOptions } from './client-options.js';
import { HttpClientTransport } from './client-transport.js';

const REQUESTERS = ['node', 'fetch'] as const;
let chosen: (typeof REQUESTERS)[number] = 'node';

const servers: TestServer[] = [];
const clients: McpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const V = '2025-11-25';
const initResult = (id: unknown) => ({
  jsonrpc: '2.0',
  id,
  result: {
    protocolVersion: V,
    capabilities: { tools: {} },
    serverInfo: { name: 'scripted', version: '1' },
  },
});
const rpcError = (code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0',
  id: null,
  error: data === undefined ? { code, message } : { code, message, data },
});

async function setup(
  script: Script,
  client: { era?: 'legacy'; requestTimeoutMs?: number } = {},
  options: Partial<HttpClientOptions> = {},
) {
  const server = await serveScript(script);
  servers.push(server);
  const warnings: ClientWarning[] = [];
  const notes: unknown[] = [];
  const transport = new HttpClientTransport({ url: server.url, requester: chosen, ...options });
  const mcp = new McpClient({
    transport,
    ...client,
    onWarning: (w) => warnings.push(w),
    onNotification: (n) => notes.push(n),
  });
  clients.push(mcp);
  return { server, mcp, warnings, notes };
}

const rpcs = (server: TestServer): string[] =>
  server.requests.filter((r) => r.method === 'POST').map((r) => String(r.json?.['method']));

describe.each(REQUESTERS)('over %s', (requester) => {
  beforeEach(() => {
    chosen = requester;
  });

  describe('a 2025-11-25 session that expires on the GET stream', () => {
    it('fails the next request with SESSION_EXPIRED unsent; one initialize brings it back', async () => {
      let sessions = 0;
      const live = new Set<string>();
      const noSession: Recorded[] = [];
      const { server, mcp, warnings } = await setup(
        (r, res) => {
          const sent = r.headers['mcp-session-id'] as string | undefined;
          if (r.json?.['method'] === 'initialize') {
            const id = `s${++sessions}`;
            live.add(id);
            return sendJson(res, 200, initResult(r.json['id']), { 'mcp-session-id': id });
          }
          if (r.method === 'DELETE') return void res.writeHead(200).end();
          // What the official SDK answers to a request without a session id: a 400.
          if (sent === undefined) {
            noSession.push(r);
            return sendJson(
              res,
              400,
              rpcError(-32000, 'Bad Request: No valid session ID provided'),
            );
          }
          if (!live.has(sent)) return sendJson(res, 404, rpcError(-32001, 'Session not found'));
          if (r.method === 'GET') {
            if (sent !== 's1') return void res.writeHead(405).end();
            // The first session's stream drops after an event; the server restarts meanwhile.
            openSse(res);
            live.clear();
            return void res.end(`retry: 10\n${sseData({ jsonrpc: '2.0', method: 'x/y' }, 'e1')}`);
          }
          if (r.json?.['id'] === undefined) return void res.writeHead(202).end();
          sendJson(res, 200, { jsonrpc: '2.0', id: r.json['id'], result: { tools: [] } });
        },
        { era: 'legacy' },
        { maxReconnects: 1 },
      );
      await mcp.connect();
      // The resumption GET gets the 404: the session is gone, said once as a warning.
      await until(() => warnings.some((w) => w.code === 'SESSION_EXPIRED'), 'the expiry');
      expect(await mcp.listTools()).toEqual([]);
      expect(rpcs(server)).toEqual([
        'initialize',
        'notifications/initialized',
        'initialize',
        'notifications/initialized',
        'tools/list',
      ]);
      expect(noSession.map((r) => r.method)).toEqual([]);
      expect(server.requests.at(-1)?.headers['mcp-session-id']).toBe('s2');
    });
  });

  describe('a 2025-11-25 GET stream that is never answered', () => {
    it('does not hold connect(): it goes on after requestTimeoutMs, with a warning', async () => {
      const { mcp, warnings } = await setup(
        (r, res) => {
          if (r.method === 'GET') return; // no headers, ever
          if (r.json?.['method'] === 'initialize') {
            return sendJson(res, 200, initResult(r.json['id']), { 'mcp-session-id': 's' });
          }
          if (r.json?.['id'] === undefined)
            return void res.writeHead(r.method === 'DELETE' ? 200 : 202).end();
          sendJson(res, 200, { jsonrpc: '2.0', id: r.json['id'], result: { tools: [] } });
        },
        { era: 'legacy', requestTimeoutMs: 200 },
      );
      const started = Date.now();
      await mcp.connect();
      expect(Date.now() - started).toBeLessThan(2000);
      expect(warnings).toContainEqual({
        code: 'REQUEST_TIMEOUT',
        message: expect.stringContaining('no answer to the GET stream within 200 ms'),
      });
      expect(await mcp.listTools()).toEqual([]);
    });

    it('a notifications/initialized POST never answered fails connect() within requestTimeoutMs', async () => {
      const { mcp } = await setup(
        (r, res) => {
          if (r.json?.['method'] === 'notifications/initialized') return; // no headers, ever
          if (r.json?.['method'] === 'initialize') {
            return sendJson(res, 200, initResult(r.json['id']), { 'mcp-session-id': 's' });
          }
          res.writeHead(r.method === 'GET' ? 405 : 200).end();
        },
        { era: 'legacy', requestTimeoutMs: 200 },
      );
      const started = Date.now();
      await expect(mcp.connect()).rejects.toMatchObject({
        code: 'REQUEST_TIMEOUT',
        message: expect.stringContaining('notifications/initialized'),
      });
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('a GET stream answered late still delivers what the server sends on it', async () => {
      const note = {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 'late' },
      };
      const { mcp, notes } = await setup(
        (r, res) => {
          if (r.method === 'GET') {
            return void setTimeout(() => {
              openSse(res);
              res.write(sseData(note));
            }, 300);
          }
          if (r.json?.['method'] === 'initialize') {
            return sendJson(res, 200, initResult(r.json['id']), { 'mcp-session-id': 's' });
          }
          res.writeHead(r.method === 'DELETE' ? 200 : 202).end();
        },
        { era: 'legacy', requestTimeoutMs: 100 },
      );
      await mcp.connect();
      expect(notes).toEqual([]);
      await until(() => notes.length === 1, 'the notification of the late stream');
      expect(notes[0]).toEqual(note);
    });
  });

  describe('a 400 whose body is a modern error with id null', () => {
    it('answers the probe: -32022 listing no version we speak is UNSUPPORTED_VERSION', async () => {
      const { server, mcp } = await setup((_r, res) =>
        sendJson(
          res,
          400,
          rpcError(-32022, 'Unsupported protocol version', {
            supported: ['2027-01-01'],
            requested: '2026-07-28',
          }),
        ),
      );
      await expect(mcp.connect()).rejects.toMatchObject({ code: 'UNSUPPORTED_VERSION' });
      expect(rpcs(server)).toEqual(['server/discover']);
    });

    it('-32022 listing 2025-11-25 falls back to initialize', async () => {
      const { server, mcp } = await setup((r, res) => {
        if (r.json?.['method'] === 'server/discover') {
          return sendJson(res, 400, rpcError(-32022, 'Unsupported', { supported: [V] }));
        }
        if (r.json?.['method'] === 'initialize')
          return sendJson(res, 200, initResult(r.json['id']));
        res.writeHead(r.method === 'GET' ? 405 : 202).end();
      });
      await mcp.connect();
      expect(mcp.era).toBe('legacy');
      expect(rpcs(server)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    });

    it('a legacy -32000 with id null (HTTP_ERROR 400) still falls back to initialize', async () => {
      const { server, mcp } = await setup((r, res) => {
        if (r.json?.['method'] === 'server/discover') {
          return sendJson(res, 400, rpcError(-32000, 'Bad Request: Server not initialized'));
        }
        if (r.json?.['method'] === 'initialize')
          return sendJson(res, 200, initResult(r.json['id']));
        res.writeHead(r.method === 'GET' ? 405 : 202).end();
      });
      await mcp.connect();
      expect(mcp.era).toBe('legacy');
      expect(rpcs(server)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    });
  });
});
