import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../errors/protocol-error.js';
import { createServer } from '../../../server/server.js';
import { initializeRequest, legacy, modern } from '../../../testing/messages.js';
import { httpStatusFor } from './status.js';
import { createHttpHandler } from './web-handler.js';

// The status mapping lives in the HTTP transport: these cases run through the real handler,
// with the era decided at its edge from the headers, the body and the session.

type Json = Record<string, unknown>;
type Rpc = { id: unknown; error?: { code: number; message: string; data?: unknown } };

const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

function setup() {
  const server = createServer({ name: 'status', version: '1', onError: () => undefined });
  server.tool('echo', { description: 'echo' }, () => 'ok');
  const handle = createHttpHandler(server);
  return { server, handle };
}

/** Headers a well-behaved 2026-07-28 client sends for `body`, patched (null removes one). */
function modernHeaders(body: Json, patch: Record<string, string | null> = {}) {
  const meta = (body['params'] as Json | undefined)?.['_meta'] as Json | undefined;
  const version = meta?.['io.modelcontextprotocol/protocolVersion'];
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': typeof version === 'string' ? version : '2026-07-28',
    'mcp-method': String(body['method']),
  };
  const params = body['params'] as Json | undefined;
  if (body['method'] === 'tools/call' || body['method'] === 'prompts/get')
    headers['mcp-name'] = String(params?.['name']);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete headers[k];
    else headers[k] = v;
  }
  return headers;
}

async function post(
  handle: (r: Request) => Promise<Response>,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; json: Rpc; response: Response }> {
  const response = await handle(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, json: (await response.json()) as Rpc, response };
}

describe('HTTP status of 2026-07-28 answers', () => {
  it('400 for a request without _meta, 400 for an unknown version, 404 for unknown methods', async () => {
    const { handle } = setup();
    const noMeta = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const a = await post(handle, noMeta, modernHeaders(noMeta));
    expect(a.json).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(a.status).toBe(400);
    const v999 = modern('tools/list', {
      _meta: { 'io.modelcontextprotocol/protocolVersion': 'v999' },
    });
    const b = await post(handle, v999, modernHeaders(v999));
    expect(b.json).toMatchObject({
      error: { code: -32022, data: { supported: ['2026-07-28'], requested: 'v999' } },
    });
    expect(b.status).toBe(400);
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'nope/nope']) {
      const body = modern(method);
      const r = await post(handle, body, modernHeaders(body));
      expect(r.json).toMatchObject({ error: { code: -32601 } });
      expect(r.status).toBe(404);
    }
    handle.close();
  });

  it.each(PROTOTYPE_NAMES)('404 for the method %s (a name on Object.prototype)', async (name) => {
    const { handle } = setup();
    const body = modern(name);
    const r = await post(handle, body, modernHeaders(body));
    expect(r.json).toMatchObject({ error: { code: -32601, data: { method: name } } });
    expect(r.status).toBe(404);
    handle.close();
  });

  it('200 for invalid params of a call, 400 for a message that is no request', async () => {
    const { handle } = setup();
    // Over HTTP a numeric name cannot match its Mcp-Name header; an unknown tool is the same case.
    const call = modern('tools/call', { name: 'nope' });
    const r = await post(handle, call, modernHeaders(call));
    expect(r.json).toMatchObject({ error: { code: -32602, data: { name: 'nope' } } });
    expect(r.status).toBe(200);
    const bad = { jsonrpc: '2.0', id: 1, method: 'x', params: 1 };
    const b = await post(handle, bad, modernHeaders(bad));
    expect(b.json).toMatchObject({ error: { code: -32600 } });
    expect(b.status).toBe(400);
    handle.close();
  });

  it('checks the version header against _meta before the version itself (-32020, 400)', async () => {
    const { handle } = setup();
    const v999 = modern('tools/list', {
      _meta: { 'io.modelcontextprotocol/protocolVersion': 'v999' },
    });
    const a = await post(
      handle,
      v999,
      modernHeaders(v999, { 'mcp-protocol-version': '2026-07-28' }),
    );
    expect(a.json).toMatchObject({
      error: { code: -32020, data: { header: 'MCP-Protocol-Version' } },
    });
    expect(a.status).toBe(400);
    const body = modern('tools/list');
    const b = await post(handle, body, modernHeaders(body, { 'mcp-protocol-version': null }));
    expect(b.json).toMatchObject({
      error: { code: -32020, data: { header: 'MCP-Protocol-Version' } },
    });
    expect(b.status).toBe(400);
    handle.close();
  });

  it('checks missing _meta keys before any header (-32602 first, as the spec orders them)', async () => {
    const { handle } = setup();
    const body = {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    };
    // No clientCapabilities and a wrong Mcp-Method: the missing key is reported.
    const r = await post(handle, body, modernHeaders(body, { 'mcp-method': 'tools/call' }));
    expect(r.json).toMatchObject({
      id: 9,
      error: {
        code: -32602,
        data: { field: 'params._meta["io.modelcontextprotocol/clientCapabilities"]' },
      },
    });
    expect(r.status).toBe(400);
    handle.close();
  });
});

describe('HTTP status of 2025-11-25 answers', () => {
  const legacyHeaders = { 'content-type': 'application/json', accept: 'application/json' };

  it.each([
    ['an unknown method', () => legacy('tasks/list', {}), -32601],
    ['a 2026-07-28-only method', () => legacy('server/discover', {}), -32601],
    ['invalid params', () => legacy('resources/read', {}), -32602],
    ['an unknown log level', () => legacy('logging/setLevel', { level: 'loud' }), -32602],
  ])('answers %s in a session in-band, with HTTP 200', async (_what, make, code) => {
    const { handle } = setup();
    const init = await post(handle, initializeRequest(), legacyHeaders);
    const session = init.response.headers.get('mcp-session-id');
    expect(session).toBeTruthy();
    const headers = {
      ...legacyHeaders,
      'mcp-session-id': session as string,
      'mcp-protocol-version': '2025-11-25',
    };
    const req = make();
    const r = await post(handle, req, headers);
    expect(r.json).toMatchObject({ id: req.id, error: { code } });
    expect(r.status).toBe(200);
    handle.close();
  });
});

describe('HTTP status inside a 2025-11-25 session', () => {
  const headers = { 'content-type': 'application/json', accept: 'application/json' };

  async function session() {
    const server = createServer({ name: 'status', version: '1', onError: () => undefined });
    server.tool('refuse', {}, () => {
      throw ProtocolError.invalidRequest('not like this');
    });
    const handle = createHttpHandler(server);
    const init = await post(handle, initializeRequest(), headers);
    const id = init.response.headers.get('mcp-session-id') as string;
    return { handle, headers: { ...headers, 'mcp-session-id': id } };
  }

  it('answers a -32600 a handler threw in-band, with 200', async () => {
    const { handle, headers: h } = await session();
    const r = await post(handle, legacy('tools/call', { name: 'refuse' }), h);
    expect(r.json).toMatchObject({ error: { code: -32600, message: 'not like this' } });
    expect(r.status).toBe(200);
    handle.close();
  });

  it('answers a message that is no valid JSON-RPC with 400', async () => {
    const { handle, headers: h } = await session();
    const r = await post(handle, { jsonrpc: '1.0', id: 3, method: 'tools/list' }, h);
    expect(r.json).toMatchObject({ error: { code: -32600 } });
    expect(r.status).toBe(400);
    handle.close();
  });
});

describe('subscriptions/listen without text/event-stream', () => {
  it('reports mismatched headers (-32020, 400) before the missing SSE (406)', async () => {
    const { handle } = setup();
    const listen = modern('subscriptions/listen', { notifications: {} });
    const json = { 'content-type': 'application/json', accept: 'application/json' };
    const wrong = await post(handle, listen, {
      ...modernHeaders(listen, { 'mcp-method': 'tools/list' }),
      ...json,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ error: { code: -32020, data: { header: 'Mcp-Method' } } });
    const right = await post(handle, listen, { ...modernHeaders(listen), ...json });
    expect(right.status).toBe(406);
    handle.close();
  });
});

describe('an endpoint with legacy: false', () => {
  it('answers initialize with 400 and -32022 naming the versions, and GET with 405', async () => {
    const server = createServer({ name: 'status', version: '1' });
    const handle = createHttpHandler(server, { legacy: false });
    const init = initializeRequest();
    const r = await post(handle, init, {
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({
      id: init.id,
      error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } },
    });
    expect(server.connectionCount).toBe(1); // the endpoint's stateless connection only
    const get = await handle(
      new Request('http://127.0.0.1/mcp', { headers: { 'mcp-session-id': 'x' } }),
    );
    expect(get.status).toBe(405);
    handle.close();
  });
});

describe('httpStatusFor', () => {
  const error = (code: number, data?: unknown) => ({
    jsonrpc: '2.0' as const,
    id: 1,
    error: data === undefined ? { code, message: 'm' } : { code, message: 'm', data },
  });

  it.each([
    ['a result', { jsonrpc: '2.0' as const, id: 1, result: {} }, 200, 200],
    ['-32700', error(-32700), 400, 200],
    ['-32600', error(-32600), 400, 200],
    ['-32601', error(-32601), 404, 200],
    ['-32020', error(-32020), 400, 200],
    ['-32021', error(-32021), 400, 200],
    ['-32022', error(-32022), 400, 200],
    ['-32602 about _meta', error(-32602, { field: 'params._meta' }), 400, 200],
    ['-32602 about a call', error(-32602, { field: 'params.name' }), 200, 200],
    ['-32602 without data', error(-32602), 200, 200],
    ['-32603', error(-32603), 200, 200],
    ['-32002', error(-32002), 200, 200],
  ])('%s: modern %i, legacy %i', (_what, response, modernStatus, legacyStatus) => {
    expect(httpStatusFor(response, 'modern')).toBe(modernStatus);
    expect(httpStatusFor(response, 'legacy')).toBe(legacyStatus);
  });

  it('answers 400 in both eras for a message that is no valid JSON-RPC', () => {
    expect(httpStatusFor(error(-32600), 'legacy', false)).toBe(400);
    expect(httpStatusFor(error(-32600), 'modern', false)).toBe(400);
  });
});
