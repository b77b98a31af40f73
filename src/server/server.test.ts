import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '../protocol/jsonrpc.js';
import { initializeRequest, legacy, modern } from '../testing/messages.js';
import { createServer } from './server.js';

function setup() {
  const server = createServer({ name: 'unit', version: '1.2.3', pageSize: 2 });
  const sent: JSONRPCMessage[] = [];
  const peer = server.connect({ transport: 'memory', send: (m) => sent.push(m) });
  server.tool(
    'echo',
    {
      description: 'echo',
      input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    ({ text }: { text: string }) => text,
  );
  server.tool('boom', { description: 'throws' }, () => {
    throw new Error('kaput');
  });
  server.resource('mem://a', { name: 'a', mimeType: 'text/plain' }, () => 'A');
  server.resource('mem://b', { name: 'b' }, () => ({
    blob: 'AAEC',
    mimeType: 'application/octet-stream',
  }));
  server.resource('mem://c', { name: 'c' }, () => 'C');
  server.resource('files://{name}', { name: 'file' }, (_u, v) =>
    v['name'] === 'x' ? `file ${String(v['name'])}` : undefined,
  );
  server.prompt('p', { arguments: [{ name: 'who', required: true }] }, ({ who }) => `hi ${who}`);
  return { server, peer, sent };
}

describe('modern era', () => {
  it('answers server/discover with versions, capabilities, cache hints and serverInfo', async () => {
    const { peer } = setup();
    const res = await peer.handle(modern('server/discover'));
    expect(res).toMatchObject({
      result: {
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'unit', version: '1.2.3' } },
      },
    });
  });

  it('refuses requests without _meta, with an unknown version, and unknown methods', async () => {
    const { peer } = setup();
    const noMeta = await peer.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(noMeta).toMatchObject({ id: 1, error: { code: -32602 } });
    const v999 = await peer.handle(
      modern('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': 'v999' } }),
    );
    expect(v999).toMatchObject({
      error: { code: -32022, data: { supported: ['2026-07-28'], requested: 'v999' } },
    });
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'nope/nope']) {
      const r = await peer.handle(modern(method));
      expect(r).toMatchObject({ error: { code: -32601 } });
    }
  });

  it('gives transports the input schema of a registered tool, as tools/list shows it', async () => {
    const { server, peer } = setup();
    const listed = (await peer.handle(modern('tools/list'))) as unknown as {
      result: { tools: Array<{ name: string; inputSchema: unknown }> };
    };
    const echo = listed.result.tools.find((t) => t.name === 'echo');
    expect(server.toolInputSchema('echo')).toEqual(echo?.inputSchema);
    expect(server.toolInputSchema('echo')).toMatchObject({
      properties: { text: { type: 'string' } },
    });
    for (const name of ['nope', 'constructor', '__proto__']) {
      expect(server.toolInputSchema(name)).toBeUndefined();
    }
  });

  it('validates params against the schema and names the field', async () => {
    const { peer } = setup();
    const r = await peer.handle(modern('resources/read', { uri: 'not a uri' }));
    expect(r).toMatchObject({
      error: {
        code: -32602,
        message: 'resources/read: params.uri must be an absolute URI (RFC 3986)',
      },
    });
  });

  it('calls tools: text, invalid arguments, unknown tool and thrown errors', async () => {
    const { peer } = setup();
    expect(
      await peer.handle(modern('tools/call', { name: 'echo', arguments: { text: 'hi' } })),
    ).toMatchObject({
      result: { content: [{ type: 'text', text: 'hi' }], resultType: 'complete' },
    });
    expect(await peer.handle(modern('tools/call', { name: 'echo', arguments: {} }))).toMatchObject({
      result: {
        isError: true,
        content: [{ text: 'Invalid arguments for tool "echo": text is required' }],
      },
    });
    expect(await peer.handle(modern('tools/call', { name: 'nope' }))).toMatchObject({
      error: { code: -32602, data: { name: 'nope' } },
    });
    expect(await peer.handle(modern('tools/call', { name: 'boom' }))).toMatchObject({
      result: { isError: true, content: [{ text: 'Tool "boom" failed: kaput' }] },
    });
  });

  it('reads resources and templates, and answers not found with -32602 and data.uri', async () => {
    const { peer } = setup();
    expect(await peer.handle(modern('resources/read', { uri: 'mem://a' }))).toMatchObject({
      result: {
        contents: [{ uri: 'mem://a', mimeType: 'text/plain', text: 'A' }],
        ttlMs: 0,
        cacheScope: 'private',
      },
    });
    expect(await peer.handle(modern('resources/read', { uri: 'files://x' }))).toMatchObject({
      result: { contents: [{ uri: 'files://x', text: 'file x' }] },
    });
    expect(await peer.handle(modern('resources/read', { uri: 'files://y' }))).toMatchObject({
      error: { code: -32602, data: { uri: 'files://y' } },
    });
    expect(await peer.handle(modern('resources/read', { uri: 'mem://zzz' }))).toMatchObject({
      error: { code: -32602, message: 'Resource not found: mem://zzz' },
    });
  });

  it('pages lists with stable cursors and refuses a forged cursor', async () => {
    const { peer } = setup();
    const first = await peer.handle(modern('resources/list'));
    const page1 = (
      first as unknown as { result: { resources: { uri: string }[]; nextCursor: string } }
    ).result;
    expect(page1.resources.map((r) => r.uri)).toEqual(['mem://a', 'mem://b']);
    const second = await peer.handle(modern('resources/list', { cursor: page1.nextCursor }));
    expect(
      (second as unknown as { result: { resources: { uri: string }[]; nextCursor?: string } })
        .result,
    ).toMatchObject({
      resources: [{ uri: 'mem://c' }],
    });
    expect(
      (second as unknown as { result: { nextCursor?: string } }).result.nextCursor,
    ).toBeUndefined();
    expect(await peer.handle(modern('resources/list', { cursor: 'garbage!' }))).toMatchObject({
      error: { code: -32602 },
    });
  });

  it('gets prompts and requires their arguments', async () => {
    const { peer } = setup();
    expect(
      await peer.handle(modern('prompts/get', { name: 'p', arguments: { who: 'Ada' } })),
    ).toMatchObject({
      result: {
        messages: [{ role: 'user', content: { type: 'text', text: 'hi Ada' } }],
        resultType: 'complete',
      },
    });
    expect(await peer.handle(modern('prompts/get', { name: 'p' }))).toMatchObject({
      error: { code: -32602, message: 'prompts/get "p": argument "who" is required' },
    });
  });
});

describe('legacy era', () => {
  it('initializes, answers ping with {} and serves the shared methods without modern fields', async () => {
    const { peer } = setup();
    const init = await peer.handle(initializeRequest());
    expect(init).toMatchObject({
      result: { protocolVersion: '2025-11-25', serverInfo: { name: 'unit' } },
    });
    await peer.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(await peer.handle(legacy('ping'))).toEqual({
      jsonrpc: '2.0',
      id: expect.any(Number),
      result: {},
    });
    const list = await peer.handle(legacy('tools/list'));
    expect(list).toMatchObject({ result: { tools: [{ name: 'echo' }, { name: 'boom' }] } });
    expect((list as { result: Record<string, unknown> }).result['resultType']).toBeUndefined();
    expect(await peer.handle(legacy('resources/read', { uri: 'mem://nope' }))).toMatchObject({
      error: { code: -32002 },
    });
  });

  it('negotiates an older legacy version and falls back to the newest for unknown ones', async () => {
    const a = setup();
    const r1 = await a.peer.handle(
      legacy('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      }),
    );
    expect(r1).toMatchObject({ result: { protocolVersion: '2025-06-18' } });
    const b = setup();
    const r2 = await b.peer.handle(
      legacy('initialize', {
        protocolVersion: '1999-01-01',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      }),
    );
    expect(r2).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
  });

  it('refuses shared methods before initialize', async () => {
    const { peer } = setup();
    expect(await peer.handle(legacy('tools/list'), {})).toMatchObject({ error: { code: -32602 } });
  });

  it('validates setLevel and remembers subscriptions', async () => {
    const { server, peer, sent } = setup();
    await peer.handle(initializeRequest());
    await peer.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(await peer.handle(legacy('logging/setLevel', { level: 'loud' }))).toMatchObject({
      error: { code: -32602 },
    });
    expect(await peer.handle(legacy('resources/subscribe', { uri: 'mem://a' }))).toMatchObject({
      result: {},
    });
    server.notifyResourceUpdated('mem://a');
    server.notifyResourceUpdated('mem://b');
    expect(sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'mem://a' } },
    ]);
  });
});

describe('envelope errors', () => {
  it('answers invalid envelopes with -32600 and keeps serving', async () => {
    const { peer } = setup();
    expect(await peer.handle([1, 2])).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await peer.handle({ jsonrpc: '1.0', id: 9, method: 'x' })).toMatchObject({
      id: 9,
      error: { code: -32600 },
    });
    expect(await peer.handle(modern('tools/list'))).toMatchObject({
      result: { tools: expect.any(Array) },
    });
  });
});
