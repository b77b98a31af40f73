import { describe, expect, it } from 'vitest';
import type { McpKitError } from '../errors/index.js';
import { ScriptedTransport, result } from '../testing/scripted-transport.js';
import { McpClient } from './client.js';
import type { ClientWarning } from './options.js';
import { checkResult } from './result-check.js';

type Obj = Record<string, unknown>;

function run(method: string, raw: unknown, era: 'modern' | 'legacy' = 'modern') {
  const warnings: ClientWarning[] = [];
  const dropped: string[] = [];
  // checkResult answers synchronously when it can, and may throw: always a promise here.
  const out = (async () =>
    checkResult(
      era,
      method,
      raw,
      (w) => warnings.push(w),
      (n) => dropped.push(n),
    ))();
  return { out, warnings, dropped };
}

const codes = (ws: ClientWarning[]) => ws.map((w) => w.code);
const list = (field: string, entries: unknown[]) => ({
  [field]: entries,
  resultType: 'complete',
  ttlMs: 0,
  cacheScope: 'public',
});

describe('repairs (2026-07-28)', () => {
  it('a missing resultType, ttlMs and cacheScope are filled in, each with a warning', async () => {
    const { out, warnings } = run('resources/list', { resources: [] });
    expect(await out).toEqual({
      resources: [],
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
    });
    expect(codes(warnings)).toEqual(['REPAIRED_RESULT', 'REPAIRED_RESULT', 'REPAIRED_RESULT']);
    expect(warnings.map((w) => w.message).join(' ')).toMatch(/resultType.*ttlMs.*cacheScope/);
  });

  it('tools/call gets no ttlMs or cacheScope (it is not cacheable)', async () => {
    expect(await run('tools/call', { content: [] }).out).toEqual({
      content: [],
      resultType: 'complete',
    });
  });

  it('the raw result is not mutated', async () => {
    const raw = { resources: [] };
    await run('resources/list', raw).out;
    expect(raw).toEqual({ resources: [] });
  });

  it('legacy results are not repaired into modern shapes', async () => {
    const { out, warnings } = run('tools/list', { tools: [] }, 'legacy');
    expect(await out).toEqual({ tools: [] });
    expect(warnings).toEqual([]);
  });
});

describe('violations are INVALID_RESULT naming the schema path', () => {
  it.each<[string, unknown, string]>([
    ['tools/list', list('tools', [{ inputSchema: { type: 'object' } }]), 'tools[0].name'],
    ['resources/list', list('resources', [{ name: 'x' }]), 'resources[0].uri'],
    ['tools/call', { content: 'nope', resultType: 'complete' }, 'content'],
    [
      'resources/read',
      {
        contents: [{ uri: 'mem://a', blob: '@@@' }],
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'private',
      },
      'contents[0]',
    ],
    ['tools/list', { tools: [], resultType: 'complete', ttlMs: -1, cacheScope: 'public' }, 'ttlMs'],
    [
      'tools/list',
      { tools: [], resultType: 'complete', ttlMs: 0, cacheScope: 'world' },
      'cacheScope',
    ],
    ['tools/call', { content: [], resultType: 'partial' }, 'resultType'],
  ])('%s %j', async (method, raw, path) => {
    const error = (await run(method, raw).out.catch((e: unknown) => e)) as McpKitError;
    expect(error).toMatchObject({ code: 'INVALID_RESULT' });
    expect(error.message).toContain(method);
    expect(error.message).toContain(path);
  });

  it('a result that is not an object', async () => {
    await expect(run('tools/list', [1, 2]).out).rejects.toMatchObject({ code: 'INVALID_RESULT' });
  });
});

describe('content read leniently', () => {
  it('a blob without mimeType gets one, with a warning', async () => {
    const { out, warnings } = run('resources/read', {
      contents: [{ uri: 'mem://a.png', blob: 'iVBORw0KGgo=' }],
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
    });
    const contents = ((await out)['contents'] as Obj[])[0]!;
    expect(typeof contents['mimeType']).toBe('string');
    expect(contents['blob']).toBe('iVBORw0KGgo=');
    expect(codes(warnings)).toContain('REPAIRED_CONTENT');
  });

  it('an embedded blob in a tool result gets one too', async () => {
    const { out, warnings } = run('tools/call', {
      content: [{ type: 'resource', resource: { uri: 'mem://b', blob: 'AAEC' } }],
      resultType: 'complete',
    });
    const block = ((await out)['content'] as Obj[])[0]!;
    expect(typeof (block['resource'] as Obj)['mimeType']).toBe('string');
    expect(codes(warnings)).toContain('REPAIRED_CONTENT');
  });
  it('a "__proto__" key in a block never lends it unchecked icons', async () => {
    // As JSON.parse reads a server's answer: "__proto__" is an own key there.
    const raw = JSON.parse(
      '{"resultType":"complete","content":[{"type":"resource_link","uri":"https://a.example/x",' +
        '"name":"x","__proto__":{"icons":[{"src":"javascript:alert(1)"}]}}]}',
    ) as Obj;
    const { out, warnings } = run('tools/call', raw);
    const block = ((await out)['content'] as Obj[])[0]!;
    expect(block['icons']).toBeUndefined();
    expect(codes(warnings)).toEqual(['REPAIRED_CONTENT']);
  });
});

describe('plain text (the fast path)', () => {
  it('keeps plain text contents and blocks exactly as they came, without warnings', async () => {
    const item = { uri: 'mem://a', mimeType: 'text/plain', text: 'hi', _meta: { k: 1 } };
    const read = run('resources/read', {
      contents: [item],
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'public',
    });
    expect(((await read.out)['contents'] as Obj[])[0]).toBe(item);
    const block = { type: 'text', text: 'hi' };
    const call = run('tools/call', { content: [block], resultType: 'complete' });
    expect(((await call.out)['content'] as Obj[])[0]).toBe(block);
    expect([...read.warnings, ...call.warnings]).toEqual([]);
  });

  it('still reads text with something to repair leniently (a malformed mimeType)', async () => {
    const { out, warnings } = run('resources/read', {
      contents: [{ uri: 'mem://a', mimeType: 'not a type', text: 'hi' }],
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'public',
    });
    const contents = ((await out)['contents'] as Obj[])[0]!;
    expect(contents['mimeType']).not.toBe('not a type');
    expect(codes(warnings)).toContain('REPAIRED_CONTENT');
  });
});

describe('icons', () => {
  const icons = [
    { src: 'https://example.com/a.png' },
    { src: 'data:image/png;base64,AAAA' },
    { src: 'http://example.com/insecure.png' },
    { src: 'file:///etc/passwd' },
    { src: 'javascript:alert(1)' },
  ];
  it.each<[string, string, Obj]>([
    ['tools/list', 'tools', { name: 't', inputSchema: { type: 'object' }, icons }],
    ['resources/list', 'resources', { uri: 'mem://r', name: 'r', icons }],
    ['prompts/list', 'prompts', { name: 'p', icons }],
    [
      'resources/templates/list',
      'resourceTemplates',
      { uriTemplate: 'mem://{x}', name: 'x', icons },
    ],
  ])('%s: only https: and data: icons are kept, each drop warned', async (method, field, entry) => {
    const { out, warnings } = run(method, list(field, [entry]));
    const kept = ((await out)[field] as Obj[])[0]!['icons'];
    expect(kept).toEqual(icons.slice(0, 2));
    expect(codes(warnings)).toEqual(['DROPPED_ICON', 'DROPPED_ICON', 'DROPPED_ICON']);
  });
});

describe('server icons', () => {
  const icons = [{ src: 'https://example.com/s.png' }, { src: 'http://example.com/s.png' }];
  it('discover: serverInfo icons in _meta are held to the same rule', async () => {
    const key = 'io.modelcontextprotocol/serverInfo';
    const { out, warnings } = run('server/discover', {
      supportedVersions: ['2026-07-28'],
      capabilities: {},
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'public',
      _meta: { [key]: { name: 's', version: '1', icons } },
    });
    expect(((await out)['_meta'] as Obj)[key]).toEqual({
      name: 's',
      version: '1',
      icons: icons.slice(0, 1),
    });
    expect(codes(warnings)).toEqual(['DROPPED_ICON']);
  });
  it('initialize: serverInfo icons too', async () => {
    const { out, warnings } = run(
      'initialize',
      {
        protocolVersion: '2025-11-25',
        capabilities: {},
        serverInfo: { name: 's', version: '1', icons },
      },
      'legacy',
    );
    expect(((await out)['serverInfo'] as Obj)['icons']).toEqual(icons.slice(0, 1));
    expect(codes(warnings)).toEqual(['DROPPED_ICON']);
  });
});

describe('tools', () => {
  const bad = (name: string, schema: Obj) => ({
    name,
    inputSchema: { type: 'object', properties: { a: schema } },
  });

  it('tools with invalid x-mcp-header are dropped with a warning, valid ones kept', async () => {
    const tools = [
      {
        name: 'ok',
        inputSchema: { type: 'object', properties: { r: { type: 'string', 'x-mcp-header': 'R' } } },
      },
      bad('empty', { type: 'string', 'x-mcp-header': '' }),
      bad('object', { type: 'object', 'x-mcp-header': 'A' }),
      bad('space', { type: 'string', 'x-mcp-header': 'A B' }),
      { name: 'plain', inputSchema: { type: 'object' } },
    ];
    const { out, warnings, dropped } = run('tools/list', list('tools', tools));
    expect(((await out)['tools'] as Obj[]).map((t) => t['name'])).toEqual(['ok', 'plain']);
    expect(dropped).toEqual(['empty', 'object', 'space']);
    expect(codes(warnings)).toEqual(['DROPPED_TOOL', 'DROPPED_TOOL', 'DROPPED_TOOL']);
  });

  it('input schemas are kept exactly as sent: network $ref, $defs, $schema, additionalProperties', async () => {
    const inputSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        remote: { $ref: 'https://evil.example/schema.json#/x' },
        local: { $ref: '#/$defs/point' },
        any: {},
        tuple: { prefixItems: [{ type: 'number' }], items: false },
      },
      $defs: {
        point: {
          type: 'object',
          properties: { x: { type: 'number' } },
          unevaluatedProperties: false,
        },
      },
      additionalProperties: false,
      'x-vendor': { keep: [1, 'two', null] },
    };
    const sent = JSON.stringify(
      list('tools', [{ name: 't', inputSchema, outputSchema: { type: 'array' } }]),
    );
    const t = new ScriptedTransport()
      .modern()
      .onRequest('tools/list', () => result(JSON.parse(sent) as Obj));
    const c = await new McpClient({ transport: t }).connect();
    const [tool] = await c.listTools();
    expect(JSON.stringify(tool!.inputSchema)).toBe(JSON.stringify(inputSchema));
    expect(tool!.outputSchema).toEqual({ type: 'array' });
  });
});
