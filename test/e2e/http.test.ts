/**
 * Streamable HTTP end to end over a real socket on 127.0.0.1: serveHttp in-process (so the test
 * can drive server.notifyListChanged and inspect server.listenerCount), plus the built CLI as a child
 * process. Every bad request must get the right HTTP status, the right JSON-RPC code and a
 * message that names the problem, and must not disturb requests in flight.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type McpServer } from '../../src/server/index.js';
import { serveHttp, type RunningHttpServer } from '../../src/transports/node.js';
import { initializeRequest, legacy, modern } from '../../src/testing/messages.js';
import { SseReader, until, withTimeout } from '../../src/testing/sse.js';
import { createE2eServer } from '../../src/testing/e2e-server.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const PROTOCOL = '2026-07-28';
const MAX_BODY = 16 * 1024;

type Json = Record<string, unknown>;
type RpcError = {
  jsonrpc: '2.0';
  id: unknown;
  error: { code: number; message: string; data?: unknown };
};
/** Header overrides: a string sets, null removes. */
type HeaderPatch = Record<string, string | null>;

const b64 = (s: string) => `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;

/** The headers a conforming 2026-07-28 client sends for `body`. */
function headersFor(body: unknown, patch: HeaderPatch = {}): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL,
  };
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const { method, params } = body as { method?: unknown; params?: Json };
    if (typeof method === 'string') headers['mcp-method'] = method;
    const name =
      method === 'resources/read'
        ? params?.['uri']
        : method === 'tools/call' || method === 'prompts/get'
          ? params?.['name']
          : undefined;
    if (typeof name === 'string') headers['mcp-name'] = name;
  }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete headers[key];
    else headers[key] = value;
  }
  return headers;
}

function poster(url: () => string) {
  return (body: unknown, patch: HeaderPatch = {}, init: RequestInit = {}): Promise<Response> =>
    fetch(url(), {
      method: 'POST',
      headers: headersFor(body, patch),
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...init,
    });
}

/** Reads a JSON error answer and checks the envelope. */
async function errorOf(res: Response): Promise<RpcError> {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const json = (await res.json()) as RpcError;
  expect(json.jsonrpc).toBe('2.0');
  expect(typeof json.error?.message).toBe('string');
  return json;
}

/** A request through node:http, which (unlike fetch) lets the test set Host. */
function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'POST', headers: options.headers ?? {}, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const call = (name: string, args: Json, meta: Json = {}) =>
  modern('tools/call', { name, arguments: args, _meta: meta });
const textOf = (m: unknown): unknown =>
  (m as { result?: { content?: Array<{ text?: string }> } }).result?.content?.[0]?.text;

describe('HTTP (serveHttp on 127.0.0.1, in-process)', () => {
  let server: McpServer;
  let running: RunningHttpServer;
  const aborted: string[] = [];
  const late = new Map<string, boolean>();
  const post = poster(() => running.url);

  beforeAll(async () => {
    server = createE2eServer({
      onAbort: (tag) => aborted.push(tag),
      onLate: (tag, was) => late.set(tag, was),
    });
    running = await serveHttp(server, { host: '127.0.0.1', port: 0, maxBodyBytes: MAX_BODY });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });
  afterAll(async () => {
    await running?.close();
  });

  describe('bad POSTs', () => {
    it.each([
      {
        name: 'malformed JSON',
        body: '{"jsonrpc":"2.0",',
        status: 400,
        code: -32700,
        message: /^Parse error: /,
      },
      {
        name: 'a batch array',
        body: [modern('tools/list'), modern('server/discover')],
        status: 400,
        code: -32600,
        message: /batches are not supported/,
      },
      {
        name: 'a JSON value that is not an object',
        body: 'null',
        status: 400,
        code: -32600,
        message: /must be a JSON object/,
      },
      {
        name: 'a wrong jsonrpc version',
        body: { ...modern('tools/list'), jsonrpc: '1.0', id: 'v1' },
        status: 400,
        code: -32600,
        message: /"jsonrpc" must be "2\.0"/,
        id: 'v1',
      },
      {
        name: 'a wrong Content-Type',
        body: modern('tools/list'),
        patch: { 'content-type': 'text/plain' },
        status: 415,
        code: -32600,
        message: /Content-Type must be application\/json/,
        id: null,
      },
      {
        name: 'no Content-Type',
        body: modern('tools/list'),
        patch: { 'content-type': null },
        status: 415,
        code: -32600,
        message: /Content-Type must be application\/json/,
        id: null,
      },
      ...[
        'application/json-patch+json',
        'application/json;charset=utf-16',
        'application/json; charset=iso-8859-1',
        'application/json; charset=utf-8; version=2',
        'application/jsonx',
        'text/json',
      ].map((type) => ({
        name: `Content-Type ${type}`,
        body: modern('tools/list'),
        patch: { 'content-type': type },
        status: 415,
        code: -32600,
        message: /Content-Type must be application\/json \(optionally with charset=utf-8\); got "/,
        id: null,
      })),
      {
        name: 'an Accept listing neither JSON nor SSE',
        body: modern('tools/list'),
        patch: { accept: 'text/html, image/png' },
        status: 406,
        code: -32600,
        message: /Accept must list application\/json and text\/event-stream/,
        id: null,
      },
      {
        name: 'an unknown method',
        body: { ...modern('nope/nope'), id: 'unknown' },
        status: 404,
        code: -32601,
        message: /Method not found: nope\/nope/,
        id: 'unknown',
      },
      {
        name: 'a request without _meta',
        body: { jsonrpc: '2.0', id: 'no-meta', method: 'tools/list', params: {} },
        status: 400,
        code: -32602,
        message: /params\._meta is required/,
        id: 'no-meta',
        data: { field: 'params._meta' },
      },
      {
        name: 'a missing MCP-Protocol-Version header',
        body: modern('tools/list'),
        patch: { 'mcp-protocol-version': null },
        status: 400,
        code: -32020,
        message: /MCP-Protocol-Version header is required/,
        data: { header: 'MCP-Protocol-Version' },
      },
      {
        name: 'an MCP-Protocol-Version header that does not match _meta',
        body: modern('tools/list'),
        patch: { 'mcp-protocol-version': '2025-06-18' },
        status: 400,
        code: -32020,
        message:
          /MCP-Protocol-Version header "2025-06-18" does not match _meta protocolVersion "2026-07-28"/,
        data: { header: 'MCP-Protocol-Version' },
      },
      {
        name: 'a version header that does not match an unsupported _meta version (-32020 before -32022)',
        body: modern('tools/list', {
          _meta: { 'io.modelcontextprotocol/protocolVersion': 'v999' },
        }),
        status: 400,
        code: -32020,
        message:
          /MCP-Protocol-Version header "2026-07-28" does not match _meta protocolVersion "v999"/,
      },
      {
        name: 'subscriptions/listen with an Accept that lacks text/event-stream',
        body: modern('subscriptions/listen', { notifications: { toolsListChanged: true } }),
        patch: { accept: 'application/json' },
        status: 406,
        code: -32600,
        message:
          /subscriptions\/listen answers with an SSE stream; Accept must list text\/event-stream/,
      },
      {
        name: 'a missing Mcp-Method header',
        body: modern('tools/list'),
        patch: { 'mcp-method': null },
        status: 400,
        code: -32020,
        message: /Mcp-Method header is required/,
        data: { header: 'Mcp-Method' },
      },
      {
        name: 'an Mcp-Method header that does not match the body',
        body: modern('tools/list'),
        patch: { 'mcp-method': 'prompts/list' },
        status: 400,
        code: -32020,
        message: /Mcp-Method header "prompts\/list" does not match method "tools\/list"/,
        data: { header: 'Mcp-Method' },
      },
      {
        name: 'a missing Mcp-Name header on tools/call',
        body: call('echo', { text: 'x' }),
        patch: { 'mcp-name': null },
        status: 400,
        code: -32020,
        message: /Mcp-Name header is required for tools\/call/,
        data: { header: 'Mcp-Name' },
      },
      {
        name: 'an Mcp-Name header that does not match params.name',
        body: call('echo', { text: 'x' }),
        patch: { 'mcp-name': 'slow' },
        status: 400,
        code: -32020,
        message: /Mcp-Name header "slow" does not match params\.name/,
        data: { header: 'Mcp-Name' },
      },
      {
        name: 'a base64 Mcp-Name that decodes to another name',
        body: call('echo', { text: 'x' }),
        patch: { 'mcp-name': b64('slow') },
        status: 400,
        code: -32020,
        message: /Mcp-Name header "slow" does not match params\.name/,
      },
      {
        name: 'a malformed base64 Mcp-Name',
        body: call('echo', { text: 'x' }),
        patch: { 'mcp-name': '=?base64?not base64!?=' },
        status: 400,
        code: -32020,
        message: /Mcp-Name header has a malformed =\?base64\?…\?= value/,
      },
      {
        name: 'an Mcp-Name header that does not match params.uri',
        body: modern('resources/read', { uri: 'mem://hello' }),
        patch: { 'mcp-name': 'mem://other' },
        status: 400,
        code: -32020,
        message: /Mcp-Name header "mem:\/\/other" does not match params\.uri/,
      },
      {
        name: 'an unsupported protocol version (v999)',
        body: modern('tools/list', {
          _meta: { 'io.modelcontextprotocol/protocolVersion': 'v999' },
        }),
        patch: { 'mcp-protocol-version': 'v999' },
        status: 400,
        code: -32022,
        message: /Unsupported protocol version "v999"/,
        data: { supported: ['2026-07-28'], requested: 'v999' },
      },
      {
        name: 'an unknown Mcp-Session-Id',
        body: legacy('tools/list', {}),
        patch: { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': 'no-such-session' },
        status: 404,
        code: -32600,
        message: /Session not found/,
      },
    ] as Array<{
      name: string;
      body: unknown;
      patch?: HeaderPatch;
      status: number;
      code: number;
      message: RegExp;
      id?: unknown;
      data?: unknown;
    }>)('$name -> $status / $code', async ({ body, patch, status, code, message, id, data }) => {
      const res = await post(body, patch);
      expect(res.status).toBe(status);
      const json = await errorOf(res);
      expect(json.error.code).toBe(code);
      expect(json.error.message).toMatch(message);
      const bodyId =
        typeof body === 'object' && body !== null && !Array.isArray(body)
          ? (body as Json)['id']
          : null;
      // The id is echoed when the body was read and carried one; refusals before reading the body use null.
      expect(json.id).toBe(id !== undefined ? id : typeof bodyId === 'number' ? bodyId : null);
      if (data !== undefined) expect(json.error.data).toEqual(data);
    });

    it.each(['content-length', 'chunked'])(
      'answers a body over maxBodyBytes (%s) with 413 naming the limit, then serves the next request',
      async (framing) => {
        const huge = JSON.stringify(call('echo', { text: 'x'.repeat(MAX_BODY) }));
        const bytes = new TextEncoder().encode(huge);
        const body =
          framing === 'chunked'
            ? new ReadableStream<Uint8Array>({
                start(c) {
                  for (let at = 0; at < bytes.length; at += 4096)
                    c.enqueue(bytes.subarray(at, at + 4096));
                  c.close();
                },
              })
            : huge;
        const res = await fetch(running.url, {
          method: 'POST',
          headers: headersFor(JSON.parse(huge)),
          body,
          ...(framing === 'chunked' ? { duplex: 'half' } : {}),
        } as RequestInit);
        expect(res.status).toBe(413);
        const json = await errorOf(res);
        expect(json.error.code).toBe(-32600);
        expect(json.error.message).toContain('maxBodyBytes');
        expect(json.error.message).toContain(String(MAX_BODY));
        const next = call('echo', { text: 'after 413' });
        const ok = await post(next);
        expect(ok.status).toBe(200);
        expect(textOf(await ok.json())).toBe('after 413');
      },
    );

    it('survives a client that dies in the middle of its body, and serves the next request', async () => {
      const { port } = running;
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(
            'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
              'Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":"2.0",',
            () => {
              socket.destroy();
              resolve();
            },
          );
        });
        socket.on('error', reject);
      });
      const next = call('echo', { text: 'after a dead client' });
      const res = await post(next);
      expect(res.status).toBe(200);
      expect(textOf(await res.json())).toBe('after a dead client');
    });

    it.each([
      'application/json',
      'Application/JSON',
      'application/json;charset=utf-8',
      'application/json ; Charset = "UTF-8"',
    ])('accepts Content-Type %j', async (type) => {
      const req = call('echo', { text: type });
      const res = await post(req, { 'content-type': type });
      expect(res.status).toBe(200);
      expect(textOf(await res.json())).toBe(type);
    });

    it('answers a resources/read whose URI passes the 16 KiB header limit with a JSON 431 that says why', async () => {
      const uri = `mem://hello/${'x'.repeat(17 * 1024)}`;
      const req = modern('resources/read', { uri });
      const res = await post(req);
      expect(res.status).toBe(431);
      const json = await errorOf(res);
      expect(json.error.code).toBe(-32600);
      expect(json.error.message).toContain('16384 bytes (maxHeaderBytes)');
      expect(json.error.message).toMatch(/cannot be read over HTTP: use stdio, or shorter URIs/);
      // The server goes on serving.
      const ok = await post(call('echo', { text: 'after 431' }));
      expect(textOf(await ok.json())).toBe('after 431');
    });

    it('answers a notification with 202 and an empty body', async () => {
      const res = await post({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 'nothing' },
      });
      expect(res.status).toBe(202);
      expect(await res.text()).toBe('');
    });
  });

  describe('methods, paths and sessions', () => {
    it.each([
      {
        name: 'GET without a session',
        method: 'GET',
        status: 405,
        message: /2026-07-28 uses POST only/,
        allow: 'POST',
      },
      {
        name: 'DELETE without a session',
        method: 'DELETE',
        status: 405,
        message: /no sessions to delete/,
        allow: 'POST',
      },
      {
        name: 'PUT',
        method: 'PUT',
        status: 405,
        message: /Method PUT not allowed/,
        allow: 'POST, GET, DELETE',
      },
      {
        name: 'PATCH',
        method: 'PATCH',
        status: 405,
        message: /Method PATCH not allowed/,
        allow: 'POST, GET, DELETE',
      },
      {
        name: 'GET with an unknown session',
        method: 'GET',
        session: 'nope',
        status: 404,
        message: /Session not found/,
      },
      {
        name: 'DELETE with an unknown session',
        method: 'DELETE',
        session: 'nope',
        status: 404,
        message: /Session not found/,
      },
      {
        name: 'POST to another path',
        method: 'POST',
        path: '/other',
        status: 404,
        message: /the MCP endpoint is \/mcp/,
      },
      {
        name: 'POST to a sub-path',
        method: 'POST',
        path: '/mcp/x',
        status: 404,
        message: /the MCP endpoint is \/mcp/,
      },
    ] as Array<{
      name: string;
      method: string;
      session?: string;
      path?: string;
      status: number;
      message: RegExp;
      allow?: string;
    }>)('$name -> $status', async ({ method, session, path, status, message, allow }) => {
      const url = new URL(running.url);
      if (path) url.pathname = path;
      const body =
        method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify(modern('tools/list'));
      const headers = {
        ...headersFor(body ? JSON.parse(body) : {}),
        ...(session ? { 'mcp-session-id': session } : {}),
      };
      const res = await fetch(url, { method, headers, ...(body ? { body } : {}) });
      expect(res.status).toBe(status);
      if (allow) expect(res.headers.get('allow')).toBe(allow);
      const json = await errorOf(res);
      expect(json.error.code).toBe(-32600);
      expect(json.error.message).toMatch(message);
    });

    it('runs a legacy session: initialize, initialized, tools/list, GET stream, DELETE, then 404', async () => {
      const init = initializeRequest();
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const res = await fetch(running.url, { method: 'POST', headers, body: JSON.stringify(init) });
      expect(res.status).toBe(200);
      const session = res.headers.get('mcp-session-id');
      expect(session).toMatch(/^[0-9a-f-]{36}$/);
      expect(await res.json()).toMatchObject({
        id: init.id,
        result: { protocolVersion: '2025-11-25', serverInfo: { name: 'mcpkit-e2e' } },
      });
      const inSession = {
        ...headers,
        'mcp-session-id': session!,
        'mcp-protocol-version': '2025-11-25',
      };
      const legacyPost = (body: unknown) =>
        fetch(running.url, { method: 'POST', headers: inSession, body: JSON.stringify(body) });

      const initialized = await legacyPost({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(initialized.status).toBe(202);
      expect(await initialized.text()).toBe('');

      const list = legacy('tools/list', {});
      const listed = await legacyPost(list);
      expect(listed.status).toBe(200);
      expect(listed.headers.get('mcp-session-id')).toBe(session);
      const tools = (await listed.json()) as {
        id: unknown;
        result: { tools: Array<{ name: string }>; resultType?: unknown };
      };
      expect(tools.id).toBe(list.id);
      expect(tools.result.tools.map((t) => t.name)).toEqual(['echo', 'slow', 'late', 'progress']);
      expect(tools.result.resultType).toBeUndefined();

      // The session's GET stream carries server notifications.
      const get = new AbortController();
      const stream = await fetch(running.url, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': session! },
        signal: get.signal,
      });
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toBe('text/event-stream');
      const events = new SseReader(stream.body);
      expect(await events.nextBlock()).toMatchObject({ comments: ['stream open'] });
      const second = await fetch(running.url, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': session! },
      });
      expect(second.status).toBe(409);
      expect((await errorOf(second)).error.message).toMatch(/already has a GET stream/);
      server.notifyListChanged('tools');
      expect(await events.next()).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
      });

      const del = await fetch(running.url, {
        method: 'DELETE',
        headers: { 'mcp-session-id': session! },
      });
      expect(del.status).toBe(200);
      // Deleting the session ends its GET stream.
      expect(await events.next()).toBeUndefined();
      get.abort();

      const after = await legacyPost(legacy('tools/list', {}));
      expect(after.status).toBe(404);
      expect((await errorOf(after)).error.message).toMatch(/Session not found/);
      const again = await fetch(running.url, {
        method: 'DELETE',
        headers: { 'mcp-session-id': session! },
      });
      expect(again.status).toBe(404);
    });
  });

  describe('DNS-rebinding guard', () => {
    it.each([
      {
        name: 'a foreign Host',
        headers: { host: 'evil.example' },
        status: 403,
        message: /Host "evil\.example" is not allowed/,
      },
      {
        name: 'a foreign Host with a port',
        headers: { host: 'evil.example:80' },
        status: 403,
        message: /Host "evil\.example:80" is not allowed/,
      },
      {
        name: 'a foreign Origin',
        headers: { origin: 'http://evil.example' },
        status: 403,
        message: /Origin "http:\/\/evil\.example" is not allowed/,
      },
      {
        name: 'a lookalike Origin',
        headers: { origin: 'http://localhost.evil.example' },
        status: 403,
        message: /is not allowed/,
      },
      {
        name: 'Origin: null',
        headers: { origin: 'null' },
        status: 403,
        message: /Origin "null" is not a valid origin/,
      },
      { name: 'a localhost Origin', headers: { origin: 'http://localhost:5173' }, status: 200 },
      { name: 'a 127.0.0.1 Origin', headers: { origin: 'http://127.0.0.1:8080' }, status: 200 },
      { name: 'Host localhost', headers: { host: 'localhost' }, status: 200 },
    ] as Array<{
      name: string;
      headers: Record<string, string>;
      status: number;
      message?: RegExp;
    }>)('$name -> $status', async ({ headers, status, message }) => {
      const body = modern('tools/list');
      const res = await rawRequest(running.url, {
        headers: { ...headersFor(body), ...headers },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(status);
      const json = JSON.parse(res.body) as RpcError & { result?: unknown };
      if (message) {
        expect(json.error.code).toBe(-32600);
        expect(json.error.message).toMatch(message);
      } else {
        expect(json).toMatchObject({ id: body.id, result: { tools: expect.any(Array) } });
      }
    });
  });

  describe('responses and streams', () => {
    it('answers a plain request with application/json on one line', async () => {
      const req = modern('tools/list');
      const res = await post(req);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      const text = await res.text();
      expect(text.trim()).not.toContain('\n');
      expect(JSON.parse(text)).toMatchObject({
        id: req.id,
        result: { tools: expect.any(Array), resultType: 'complete' },
      });
    });

    it('accepts the =?base64?…?= form of Mcp-Name when it decodes to the right name', async () => {
      const req = call('echo', { text: 'via base64' });
      const res = await post(req, { 'mcp-name': b64('echo') });
      expect(res.status).toBe(200);
      expect(textOf(await res.json())).toBe('via base64');
      const read = modern('resources/read', { uri: 'mem://hello' });
      const res2 = await post(read, { 'mcp-name': b64('mem://hello') });
      expect(res2.status).toBe(200);
      expect(await res2.json()).toMatchObject({
        result: { contents: [{ uri: 'mem://hello', text: 'Hello, e2e' }] },
      });
    });

    it('streams progress as text/event-stream, progress events before the result', async () => {
      const req = call('progress', { steps: 3 }, { progressToken: 'p-http' });
      const res = await post(req);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.headers.get('x-accel-buffering')).toBe('no');
      const messages = await new SseReader(res.body).rest();
      expect(messages.slice(0, 3)).toEqual(
        [1, 2, 3].map((i) => ({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'p-http', progress: i, total: 3, message: `step ${i}` },
        })),
      );
      expect(messages).toHaveLength(4);
      expect(messages[3]).toMatchObject({
        id: req.id,
        result: { content: [{ text: 'progress done after 3 steps' }] },
      });
    });

    it('subscriptions/listen: acknowledgement first, tagged list_changed, and closing the stream removes the listener', async () => {
      const baseline = server.listenerCount;
      const req = modern('subscriptions/listen', {
        notifications: { toolsListChanged: true, promptsListChanged: false },
      });
      const abort = new AbortController();
      const res = await post(req, {}, { signal: abort.signal });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const events = new SseReader(res.body);
      const tag = { 'io.modelcontextprotocol/subscriptionId': req.id };
      expect(await events.next()).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { toolsListChanged: true }, _meta: tag },
      });
      expect(server.listenerCount).toBe(baseline + 1);
      server.notifyListChanged('prompts'); // not subscribed: must not arrive
      server.notifyListChanged('tools');
      expect(await events.next()).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: tag },
      });
      abort.abort();
      await until(
        () => server.listenerCount === baseline,
        'the listener to be removed after the client closed the stream',
      );
    });

    it('cancels a request whose client went away, and others are unaffected', async () => {
      const gone = new AbortController();
      const victimReq = call('slow', { tag: 'http-gone', ms: 5000 });
      const victim = post(victimReq, {}, { signal: gone.signal });
      const other = call('slow', { tag: 'http-stays', ms: 100 });
      const otherRes = post(other);
      // Hang up only once the victim is running in its handler.
      await until(() => server.isHandling(victimReq.id), 'the slow request to be in flight');
      gone.abort();
      await expect(victim).rejects.toThrow();
      await until(() => aborted.includes('http-gone'), 'the slow handler to see its abort signal');
      const res = await otherRes;
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        id: other.id,
        result: { content: [{ text: 'slow http-stays done' }] },
      });
    });

    it('ignores notifications/cancelled over stateless HTTP: request ids of different clients collide', async () => {
      const req = call('slow', { tag: 'http-not-cancelled', ms: 300 });
      const pending = post(req);
      await until(() => server.isHandling(req.id), 'the slow request to be in flight');
      const cancel = await post({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: req.id },
      });
      expect(cancel.status).toBe(202);
      const res = await pending;
      expect(await res.json()).toMatchObject({
        id: req.id,
        result: { content: [{ text: 'slow http-not-cancelled done' }] },
      });
      expect(aborted).not.toContain('http-not-cancelled');
    });

    it('aborts ctx.signal even when the handler first looks at it after the client went away', async () => {
      const gone = new AbortController();
      const req = call('late', { tag: 'late-look', ms: 300 });
      const pending = post(req, {}, { signal: gone.signal });
      await until(() => server.isHandling(req.id), 'the late request to be in flight');
      gone.abort();
      await expect(pending).rejects.toThrow();
      await until(() => late.has('late-look'), 'the late handler to look at its signal');
      expect(late.get('late-look')).toBe(true);
    });

    it('keeps concurrent requests intact while bad ones arrive', async () => {
      const slow = call('slow', { tag: 'concurrent', ms: 300 });
      const slowRes = post(slow);
      const echoes = [1, 2, 3].map((i) => call('echo', { text: `concurrent ${i}` }));
      const bad = await Promise.all([
        post('{nope'),
        post(call('echo', { text: 'y'.repeat(MAX_BODY) })),
        post(modern('tools/list'), { 'content-type': 'text/plain' }),
        post({ jsonrpc: '2.0', id: 'cc-no-meta', method: 'tools/list', params: {} }),
        post(modern('tools/list'), { 'mcp-method': 'tools/call' }),
        post([slow]),
        ...echoes.map((e) => post(e)),
      ]);
      expect(bad.map((r) => r.status)).toEqual([400, 413, 415, 400, 400, 400, 200, 200, 200]);
      for (const [i, r] of bad.slice(6).entries()) {
        expect(await r.json()).toMatchObject({
          id: echoes[i]!.id,
          result: { content: [{ text: `concurrent ${i + 1}` }] },
        });
      }
      await Promise.all(bad.slice(0, 6).map((r) => r.text()));
      const res = await slowRes;
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        id: slow.id,
        result: { content: [{ text: 'slow concurrent done' }] },
      });
    });
  });
});

describe('HTTP (serveHttp): work that outlives its request, and unencodable results', () => {
  let server: McpServer;
  let running: RunningHttpServer;
  let thrown: unknown = 'not called yet';
  let later: Promise<void> | undefined;
  const post = poster(() => running.url);

  beforeAll(async () => {
    server = createServer({ name: 'outlives', version: '1' });
    server.tool('outlives', {}, (_a, ctx) => {
      later = (async () => {
        await new Promise((r) => setTimeout(r, 20));
        try {
          ctx.progress(1, 2, 'still working');
          ctx.log('info', 'late log');
          thrown = undefined;
        } catch (error) {
          thrown = error;
        }
      })();
      return 'gave up waiting';
    });
    server.tool('bigint', {}, () => ({
      content: [{ type: 'text', text: 'x' }],
      structuredContent: { n: 10n },
    }));
    running = await serveHttp(server, { port: 0, keepAliveMs: 10 });
  });
  afterAll(async () => {
    await running?.close();
  });

  it('drops a notification sent after the JSON reply: ctx.progress() does not throw', async () => {
    const req = call('outlives', {}, { progressToken: 'p' });
    const res = await post(req);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toMatchObject({ id: req.id, result: expect.any(Object) });
    await later;
    expect(thrown).toBeUndefined();
  });

  it('close() ends a listen stream with its SubscriptionsListenResult before cutting connections', async () => {
    const s = createServer({ name: 'closing', version: '1' });
    const r = await serveHttp(s, { port: 0 });
    const req = modern('subscriptions/listen', { notifications: { toolsListChanged: true } });
    const res = await poster(() => r.url)(req);
    const events = new SseReader(res.body);
    expect(await events.next()).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
    });
    await r.close();
    expect(await events.rest(2000)).toEqual([
      {
        jsonrpc: '2.0',
        id: req.id,
        result: {
          _meta: expect.objectContaining({ 'io.modelcontextprotocol/subscriptionId': req.id }),
          resultType: 'complete',
        },
      },
    ]);
  });

  it('answers a JSON -32603 for a result that cannot be encoded (not an empty 500)', async () => {
    const req = call('bigint', {});
    const res = await post(req);
    expect(res.status).toBe(200);
    expect(await errorOf(res)).toMatchObject({
      id: req.id,
      error: { code: -32603, message: expect.stringMatching(/could not be encoded/) },
    });
  });
});

describe('HTTP: the built CLI (`mcpkit serve --http 127.0.0.1:0`)', () => {
  let child: ChildProcessWithoutNullStreams | undefined;
  let url = '';
  const post = poster(() => url);

  beforeAll(async () => {
    const proc = spawn(process.execPath, [CLI, 'serve', '--http', '127.0.0.1:0'], {
      stdio: 'pipe',
    });
    child = proc;
    proc.stderr.resume();
    let out = '';
    proc.stdout.setEncoding('utf8');
    url = await withTimeout(
      new Promise<string>((resolve, reject) => {
        proc.stdout.on('data', (chunk: string) => {
          out += chunk;
          const line = out.split('\n');
          if (line.length > 1) resolve(line[0]!.trim());
        });
        proc.once('exit', (code) =>
          reject(new Error(`the CLI exited (${code}) before printing its URL`)),
        );
      }),
      10_000,
      'the CLI to print its URL',
    );
  });
  afterAll(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('prints a 127.0.0.1 URL and serves server/discover', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const req = modern('server/discover');
    const res = await post(req);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: req.id,
      result: { supportedVersions: ['2026-07-28'], resultType: 'complete' },
    });
  });

  it.each([
    {
      name: 'malformed JSON',
      send: () => post('{x'),
      status: 400,
      code: -32700,
      message: /Parse error/,
    },
    {
      name: 'v999',
      send: () =>
        post(
          modern('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': 'v999' } }),
          { 'mcp-protocol-version': 'v999' },
        ),
      status: 400,
      code: -32022,
      message: /v999/,
    },
    {
      name: 'a foreign Origin',
      send: () => post(modern('tools/list'), { origin: 'http://evil.example' }),
      status: 403,
      code: -32600,
      message: /Origin/,
    },
    {
      name: 'GET without a session',
      send: () => fetch(url),
      status: 405,
      code: -32600,
      message: /POST only/,
    },
    {
      name: 'an unknown method',
      send: () => post(modern('nope/nope')),
      status: 404,
      code: -32601,
      message: /nope\/nope/,
    },
  ])('$name -> $status / $code', async ({ send, status, code, message }) => {
    const res = await send();
    expect(res.status).toBe(status);
    const json = await errorOf(res);
    expect(json.error.code).toBe(code);
    expect(json.error.message).toMatch(message);
  });

  it('calls the search tool of mcpkit serve (Mcp-Name in base64 form) and exits 0 on SIGTERM', async () => {
    const req = call('search', { query: 'stdio' });
    const res = await post(req, { 'mcp-name': b64('search') });
    expect(res.status).toBe(200);
    expect(textOf(await res.json())).toMatch(/\d+ files? match "stdio"/);
    const proc = child!;
    const exited = new Promise<number | null>((resolve) =>
      proc.once('exit', (code) => resolve(code)),
    );
    proc.kill('SIGTERM');
    expect(await withTimeout(exited, 10_000, 'the CLI to exit on SIGTERM')).toBe(0);
  });
});

describe('HTTP (serveHttp): listen streams whose client stops reading', () => {
  const LIMIT = 256 * 1024;
  let server: McpServer;
  let running: RunningHttpServer;
  const warnings: string[] = [];
  /** Every response this server made, weakly: those of gone clients must be collectable. */
  const responses: Array<WeakRef<object>> = [];
  const post = poster(() => running.url);
  const filter = { notifications: { resourceSubscriptions: ['mem://big/'] } };
  // Long URIs fill the socket buffers in fewer notifications.
  const big = (i: number) => `mem://big/${i}/${'p'.repeat(2000)}`;
  const turn = () => new Promise((r) => setTimeout(() => setImmediate(r), 1));

  beforeAll(async () => {
    server = createServer({
      name: 'slow-readers',
      version: '1',
      maxListenQueueBytes: LIMIT,
      onWarning: (m) => warnings.push(m),
    });
    running = await serveHttp(server, { port: 0 });
    running.http.on('request', (_req, res) => responses.push(new WeakRef(res)));
  });
  afterAll(async () => {
    await running?.close();
  });

  /** A listen stream over a raw socket that never reads its response. */
  async function stuckListen(): Promise<{ socket: ReturnType<typeof connect>; id: unknown }> {
    const req = modern('subscriptions/listen', filter);
    const body = JSON.stringify(req);
    const socket = connect(running.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.pause();
    const head = Object.entries({
      host: `127.0.0.1:${running.port}`,
      ...headersFor(req),
      'content-length': String(Buffer.byteLength(body)),
    }).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.write(`POST /mcp HTTP/1.1\r\n${head.join('')}\r\n${body}`);
    await until(() => server.listenerCount === 1, 'the listen stream to open');
    return { socket, id: req.id };
  }

  /**
   * Sends 100 distinct updates (about 200 KiB) in bursts with a turn of the event loop between:
   * more than a client that is not reading takes, under the limit (the stream stays open).
   */
  async function congest(from: number, send = (uri: string) => server.notifyResourceUpdated(uri)) {
    let i = from;
    while (i < from + 100) {
      send(big(i++));
      if (i % 50 === 0) await turn();
    }
    expect(server.listenerCount, 'the stream to be open still').toBeGreaterThan(0);
    return i;
  }

  it('ends the stream past maxListenQueueBytes with a warning', async () => {
    const { socket, id } = await stuckListen();
    for (let i = 0; i < 20_000 && server.listenerCount === 1; i++) {
      server.notifyResourceUpdated(big(i));
      server.notifyResourceUpdated(big(i)); // a repeat
      if (i % 20 === 0) await turn(); // room for a drain, would the client read
    }
    expect(server.listenerCount).toBe(0);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        new RegExp(`ended subscriptions/listen ${id}: .*maxListenQueueBytes \\(${LIMIT}\\)`),
      ),
    );
    socket.destroy();
  });

  it('forgets a stuck stream whose client went away: no listener, nothing held or buffered', async () => {
    const { socket } = await stuckListen();
    await congest(100_000);
    socket.destroy();
    await until(() => server.listenerCount === 0, 'the listener to be removed');
    // Nothing keeps a gone client's response (and what it buffered) alive.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    await until(() => {
      gc();
      return responses.every((r) => r.deref() === undefined);
    }, 'the responses of gone clients to be collected');
  });

  it('a client that reads late still gets every distinct update, in order', async () => {
    const req = modern('subscriptions/listen', filter);
    const abort = new AbortController();
    const res = await post(req, {}, { signal: abort.signal });
    const events = new SseReader(res.body);
    expect(await events.next()).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
    });
    const sent: string[] = [];
    const send = (uri: string) => {
      sent.push(uri);
      server.notifyResourceUpdated(uri);
    };
    const i = await congest(200_000, send);
    // Repeats of held and of written URIs, and new ones: well under the limit.
    for (let k = 0; k < 10; k++) {
      send(big(i - 1));
      send(big(200_000 + k));
      send(big(i + k));
    }
    const distinct = [...new Set(sent)];
    const firsts: string[] = [];
    while (firsts.length < distinct.length) {
      const m = (await events.next()) as { params?: { uri?: string } } | undefined;
      const uri = m?.params?.uri;
      if (uri === undefined) break;
      if (!firsts.includes(uri)) firsts.push(uri);
    }
    expect(firsts).toEqual(distinct);
    expect(server.listenerCount).toBe(1);
    abort.abort();
    await until(() => server.listenerCount === 0, 'the listener to be removed');
  });
});
