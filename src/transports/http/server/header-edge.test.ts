import { afterAll, describe, expect, it } from 'vitest';
import { modern, modernHeaders } from '../../../testing/messages.js';
import { createServer } from '../../../server/server.js';
import { createHttpHandler } from './web-handler.js';

// The HTTP transport checks 2026-07-28 headers at its edge, before the engine runs the request;
// what the engine would refuse first (not JSON-RPC, nested past maxDepth, a missing `_meta` key)
// must still be refused as the engine refuses it, and nothing refused here reaches a handler.

const calls: unknown[] = [];
const server = createServer({ name: 'edge', version: '1', maxDepth: 4 });
server.tool(
  'where',
  {
    input: {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        deep: { type: 'object' },
      },
    },
  },
  (args) => {
    calls.push(args);
    return 'ok';
  },
);
const handle = createHttpHandler(server);

afterAll(() => {
  handle.close();
  server.close();
});

type Answer = {
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

async function post(body: object, headers: Record<string, string>) {
  const res = await handle(
    new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(body) }),
  );
  return { status: res.status, json: (await res.json()) as Answer };
}

const where = (args: Record<string, unknown>) =>
  modern('tools/call', { name: 'where', arguments: args });
const headersOf = (region?: string) => ({
  ...modernHeaders('tools/call', 'where'),
  ...(region === undefined ? {} : { 'mcp-param-region': region }),
});

/** `levels` nested objects. */
function nest(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('2026-07-28 headers checked at the HTTP edge', () => {
  it('runs a call whose Mcp-Param header mirrors its argument', async () => {
    calls.length = 0;
    const { status, json } = await post(where({ region: 'eu' }), headersOf('eu'));
    expect(status).toBe(200);
    expect(json.result).toBeDefined();
    expect(calls).toEqual([{ region: 'eu' }]);
  });

  it.each([
    [
      'a mismatched Mcp-Param header',
      'us',
      /Mcp-Param-Region header does not match argument "region"/,
    ],
    ['a missing Mcp-Param header', undefined, /Mcp-Param-Region header is required/],
  ])('answers %s with -32020 and the id, without running the tool', async (_what, header, text) => {
    calls.length = 0;
    const request = where({ region: 'eu' });
    const { status, json } = await post(request, headersOf(header));
    expect(status).toBe(400);
    expect(json.id).toBe(request.id);
    expect(json.error).toMatchObject({ code: -32020, data: { header: 'Mcp-Param-Region' } });
    expect(json.error?.message).toMatch(text);
    expect(calls).toEqual([]);
  });

  it('answers a message that is no valid JSON-RPC as the engine does (-32600), before its headers', async () => {
    const request = { ...where({ region: 'eu' }), jsonrpc: '1.0' };
    const { status, json } = await post(request, headersOf('us'));
    expect(status).toBe(400);
    expect(json.error?.code).toBe(-32600);
    expect(json.error?.message).toMatch(/jsonrpc/);
  });

  it('answers a message nested past maxDepth as too deep, before its headers', async () => {
    calls.length = 0;
    const { status, json } = await post(where({ region: 'eu', deep: nest(8) }), headersOf('us'));
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ code: -32602, data: { reason: 'too-deep', limit: 4 } });
    expect(calls).toEqual([]);
  });

  it('answers a missing _meta key with -32602 before a header mismatch', async () => {
    const request = where({ region: 'eu' });
    delete (request.params._meta as Record<string, unknown>)[
      'io.modelcontextprotocol/clientCapabilities'
    ];
    const { status, json } = await post(request, {
      ...headersOf('eu'),
      'mcp-method': 'tools/list',
    });
    expect(status).toBe(400);
    expect(json.error).toMatchObject({
      code: -32602,
      data: { field: 'params._meta["io.modelcontextprotocol/clientCapabilities"]' },
    });
  });

  it('answers a header mismatch (-32020) before an unsupported version (-32022), and the version after', async () => {
    const request = modern('tools/list', {
      _meta: { 'io.modelcontextprotocol/protocolVersion': 'v999' },
    });
    const mismatched = await post(request, modernHeaders('tools/list'));
    expect(mismatched.json.error?.code).toBe(-32020);
    const agreed = await post(request, {
      ...modernHeaders('tools/list'),
      'mcp-protocol-version': 'v999',
    });
    expect(agreed.status).toBe(400);
    expect(agreed.json.error?.code).toBe(-32022);
  });
});
