import { describe, expect, it } from 'vitest';
import {
  ScriptedTransport,
  initializeResult,
  result,
  rpcError,
} from '../testing/scripted-transport.js';
import { McpClient } from './client.js';
import { MAX_MESSAGE_BYTES_META, envelopeOf, standardHeaders, withMeta } from './envelope.js';
import type { Envelope } from './envelope.js';

type Obj = Record<string, unknown>;

const env = (era: 'modern' | 'legacy'): Envelope =>
  envelopeOf({
    era,
    protocolVersion: era === 'modern' ? '2026-07-28' : '2025-11-25',
    clientInfo: { name: 'c', version: '1' },
    capabilities: { elicitation: { form: {} } },
    maxMessageBytes: 777,
  });

const callResult = { content: [{ type: 'text', text: 'ok' }], resultType: 'complete' };
const readResult = {
  contents: [{ uri: 'mem://a', mimeType: 'text/plain', text: 'A' }],
  resultType: 'complete',
  ttlMs: 0,
  cacheScope: 'private',
};

describe('withMeta', () => {
  it('modern: protocolVersion, clientCapabilities, clientInfo and the cap; own keys kept', () => {
    const out = withMeta(env('modern'), { a: 1, _meta: { mine: true } }, { extra: 2 });
    expect(out).toEqual({
      a: 1,
      _meta: {
        mine: true,
        extra: 2,
        [MAX_MESSAGE_BYTES_META]: 777,
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
      },
    });
  });

  it('legacy: only the cap', () => {
    expect(withMeta(env('legacy'), {})).toEqual({ _meta: { [MAX_MESSAGE_BYTES_META]: 777 } });
  });

  it('the caller cannot override the reserved keys', () => {
    const out = withMeta(
      env('modern'),
      {},
      {
        'io.modelcontextprotocol/protocolVersion': '1999',
        [MAX_MESSAGE_BYTES_META]: 1,
      },
    );
    const meta = out['_meta'] as Obj;
    expect(meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    expect(meta[MAX_MESSAGE_BYTES_META]).toBe(777);
  });
});

describe('standardHeaders', () => {
  it.each([
    ['tools/call', { name: 'search' }, 'search'],
    ['prompts/get', { name: 'greet' }, 'greet'],
    ['resources/read', { uri: 'file:///a b' }, 'file:///a b'],
    ['tools/call', { name: 'café' }, '=?base64?Y2Fmw6k=?='],
    ['tools/call', { name: ' padded ' }, '=?base64?IHBhZGRlZCA=?='],
  ])('%s %j -> Mcp-Name %s', (method, params, name) => {
    expect(standardHeaders('2026-07-28', method, params)).toEqual({
      'Mcp-Method': method,
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Name': name,
    });
  });

  it('no Mcp-Name for other methods, no version header before one is known', () => {
    expect(standardHeaders(undefined, 'tools/list', { name: 'x' })).toEqual({
      'Mcp-Method': 'tools/list',
    });
  });
});

describe('what every request carries', () => {
  async function modernClient(kind: 'stdio' | 'http' = 'http') {
    const t = new ScriptedTransport({ kind, maxMessageBytes: 4096 })
      .modern()
      .onRequest(
        'tools/list',
        result({ tools: [], resultType: 'complete', ttlMs: 0, cacheScope: 'public' }),
      )
      .onRequest('tools/call', result(callResult))
      .onRequest('resources/read', result(readResult));
    const c = await new McpClient({
      transport: t,
      clientInfo: { name: 'h', version: '3' },
    }).connect();
    return { t, c };
  }

  it('modern: the per-request _meta on every request, discover included', async () => {
    const { t, c } = await modernClient();
    await c.callTool('x', {});
    await c.readResource('mem://a');
    for (const request of t.requests()) {
      expect(request.params['_meta']).toMatchObject({
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'h', version: '3' },
        'dev.mcpkit/maxMessageBytes': 4096,
      });
    }
    expect(t.requests().map((r) => r.method)).toEqual([
      'server/discover',
      'tools/list',
      'tools/call',
      'resources/read',
    ]);
  });

  it('modern over HTTP: MCP-Protocol-Version, Mcp-Method and Mcp-Name headers', async () => {
    const { t, c } = await modernClient();
    await c.callTool('naïve tool', {});
    await c.readResource('mem://a');
    expect(t.last('server/discover').headers).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'server/discover',
    });
    expect(t.last('tools/call').headers).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': '=?base64?bmHDr3ZlIHRvb2w=?=',
    });
    expect(t.last('resources/read').headers['Mcp-Name']).toBe('mem://a');
  });

  it("stdio: no headers are built at all (they are HTTP's)", async () => {
    const t = new ScriptedTransport({ kind: 'stdio' })
      .modern()
      .onRequest('tools/call', result({ content: [], resultType: 'complete' }));
    const c = await new McpClient({ transport: t }).connect();
    await c.callTool('x');
    expect(t.last('tools/call').headers).toEqual({});
  });

  it('legacy: the cap in _meta of every request, no modern keys', async () => {
    const t = new ScriptedTransport({ maxMessageBytes: 999, kind: 'http' })
      .legacy()
      .onRequest('tools/call', result({ content: [] }));
    const c = await new McpClient({ transport: t }).connect();
    await c.callTool('x');
    const call = t.last('tools/call').message as { params: Obj };
    expect(call.params['_meta']).toEqual({ 'dev.mcpkit/maxMessageBytes': 999 });
    expect(call.params).not.toHaveProperty('arguments');
    expect(t.last('tools/call').headers['MCP-Protocol-Version']).toBe('2025-11-25');
  });

  it('ids are unique per connection, across MRTR retries and reconnects', async () => {
    let round = 0;
    const t = new ScriptedTransport()
      .modern()
      .onRequest('tools/call', () =>
        round++ % 2 === 0
          ? result({ resultType: 'input_required', requestState: 's' })
          : result(callResult),
      );
    const c = await new McpClient({ transport: t }).connect();
    await c.callTool('a');
    await c.callTool('b');
    await c.reconnect();
    await c.callTool('c');
    const ids = t.requests().map((r) => r.id);
    expect(t.requests().map((r) => r.method)).toEqual([
      ...['server/discover', 'tools/call', 'tools/call', 'tools/call', 'tools/call'],
      ...['server/discover', 'tools/call', 'tools/call'],
    ]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('the caller _meta is merged in (RequestOptions.meta)', async () => {
    const { t, c } = await modernClient('stdio');
    await c.callTool('x', {}, { meta: { 'com.example/trace': 'abc' } });
    expect(t.last('tools/call').message).toMatchObject({
      params: { _meta: { 'com.example/trace': 'abc' } },
    });
  });

  it('a JSON-RPC error reaches the caller as a ProtocolError with code and data', async () => {
    const t = new ScriptedTransport()
      .modern()
      .onRequest('tools/call', rpcError(-32602, 'Unknown tool', { name: 'x' }));
    const c = await new McpClient({ transport: t }).connect();
    await expect(c.callTool('x')).rejects.toMatchObject({
      name: 'ProtocolError',
      code: -32602,
      data: { name: 'x' },
    });
  });

  it('legacy initialize result is not polluted by the probe: fresh headers for initialize', async () => {
    const t = new ScriptedTransport({ kind: 'http' })
      .onRequest('server/discover', rpcError(-32601))
      .onRequest('initialize', result(initializeResult()));
    await new McpClient({ transport: t }).connect();
    expect(t.last('initialize').headers).toEqual({ 'Mcp-Method': 'initialize' });
    expect(t.sent.find((s) => s.kind === 'notify')?.headers).toEqual({
      'Mcp-Method': 'notifications/initialized',
      'MCP-Protocol-Version': '2025-11-25',
    });
  });
});
