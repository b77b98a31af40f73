import { describe, expect, it } from 'vitest';
import type { Tool } from '../protocol/index.js';
import { ScriptedTransport, result, settle, silence } from '../testing/scripted-transport.js';
import { McpClient } from './client.js';
import { MAX_REJECTED_TOOLS, paramHeaderValues, paramHeadersOf } from './tool-headers.js';

type Obj = Record<string, unknown>;

const tool = (properties: Obj, name = 't'): Tool =>
  ({ name, inputSchema: { type: 'object', properties } }) as Tool;

describe('paramHeadersOf', () => {
  it('reads the mirrored properties', () => {
    expect(
      paramHeadersOf(
        tool({
          region: { type: 'string', 'x-mcp-header': 'Region' },
          n: { type: 'integer', 'x-mcp-header': 'Count' },
          dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
          plain: { type: 'string' },
        }),
      ),
    ).toEqual({
      headers: [
        { property: 'region', header: 'Region' },
        { property: 'n', header: 'Count' },
        { property: 'dry', header: 'Dry-Run' },
      ],
    });
  });

  it('a tool without properties has none', () => {
    expect(paramHeadersOf({ name: 't', inputSchema: { type: 'object' } } as Tool)).toEqual({
      headers: [],
    });
  });

  it.each<[string, Obj]>([
    ['empty', { a: { type: 'string', 'x-mcp-header': '' } }],
    ['not a string', { a: { type: 'string', 'x-mcp-header': 7 } }],
    ['on an object', { a: { type: 'object', 'x-mcp-header': 'A' } }],
    ['on an array', { a: { type: 'array', 'x-mcp-header': 'A' } }],
    ['on null', { a: { type: 'null', 'x-mcp-header': 'A' } }],
    ['on a number', { a: { type: 'number', 'x-mcp-header': 'A' } }],
    ['on an untyped property', { a: { 'x-mcp-header': 'A' } }],
    [
      'duplicate, case-insensitive',
      {
        a: { type: 'string', 'x-mcp-header': 'Region' },
        b: { type: 'string', 'x-mcp-header': 'REGION' },
      },
    ],
    ['a space', { a: { type: 'string', 'x-mcp-header': 'My Region' } }],
    ['a colon', { a: { type: 'string', 'x-mcp-header': 'Region:x' } }],
    ['non-ASCII', { a: { type: 'string', 'x-mcp-header': 'Régión' } }],
    ['a control character', { a: { type: 'string', 'x-mcp-header': 'Reg\u0001ion' } }],
    ['a newline', { a: { type: 'string', 'x-mcp-header': 'Region\n' } }],
  ])('invalid: %s', (_what, properties) => {
    const r = paramHeadersOf(tool(properties));
    expect(r).toHaveProperty('problem');
    expect((r as { problem: string }).problem).toContain('inputSchema.properties[');
  });
});

describe('paramHeaderValues', () => {
  const headers = [
    { property: 's', header: 'S' },
    { property: 'i', header: 'I' },
    { property: 'b', header: 'B' },
  ];
  it('strings encoded, integers and booleans as strings', () => {
    expect(paramHeaderValues(headers, { s: 'us-west', i: 42, b: false })).toEqual({
      'Mcp-Param-S': 'us-west',
      'Mcp-Param-I': '42',
      'Mcp-Param-B': 'false',
    });
    expect(paramHeaderValues(headers, { s: 'zürich' })).toEqual({
      'Mcp-Param-S': '=?base64?esO8cmljaA==?=',
    });
  });
  it('null and absent arguments send no header', () => {
    expect(paramHeaderValues(headers, { s: null })).toEqual({});
    expect(paramHeaderValues(headers, undefined)).toEqual({});
  });
});

describe('Mcp-Param-* through the client', () => {
  const listed = [
    {
      name: 'deploy',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          replicas: { type: 'integer', 'x-mcp-header': 'Replicas' },
          force: { type: 'boolean', 'x-mcp-header': 'Force' },
        },
      },
    },
    {
      name: 'bad',
      inputSchema: {
        type: 'object',
        properties: { q: { type: 'object', 'x-mcp-header': 'Q' } },
      },
    },
  ];
  const list = { tools: listed, resultType: 'complete', ttlMs: 0, cacheScope: 'public' };
  const call = { content: [], resultType: 'complete' };

  async function open(kind: 'stdio' | 'http', legacy = false) {
    const t = new ScriptedTransport({ kind })
      .onRequest('tools/list', result(list))
      .onRequest('tools/call', result(call));
    if (legacy) t.legacy();
    else t.modern();
    const c = await new McpClient({ transport: t, cache: false }).connect();
    return { t, c };
  }

  it('fetches the tool list once when absent and mirrors the arguments', async () => {
    const { t, c } = await open('http');
    await c.callTool('deploy', { region: 'eu-1', replicas: 3, force: true });
    await c.callTool('deploy', { region: null });
    expect(t.requests('tools/list')).toHaveLength(1);
    const [first, second] = t.sent.filter(
      (s) => 'method' in s.message && s.message.method === 'tools/call',
    );
    expect(first!.headers).toMatchObject({
      'Mcp-Param-Region': 'eu-1',
      'Mcp-Param-Replicas': '3',
      'Mcp-Param-Force': 'true',
    });
    expect(Object.keys(second!.headers).filter((h) => h.startsWith('Mcp-Param-'))).toEqual([]);
  });

  it('two calls at once still fetch the tool list once', async () => {
    const { t, c } = await open('http');
    await Promise.all([
      c.callTool('deploy', { region: 'a' }),
      c.callTool('deploy', { region: 'b' }),
    ]);
    expect(t.requests('tools/list')).toHaveLength(1);
    expect(
      t.sent.filter((s) => s.headers['Mcp-Param-Region']).map((s) => s.headers['Mcp-Param-Region']),
    ).toEqual(['a', 'b']);
  });

  it('a tools/list_changed notification makes the next call fetch the list again', async () => {
    const { t, c } = await open('http');
    await c.callTool('deploy', {});
    t.pushNotification('notifications/tools/list_changed');
    await c.callTool('deploy', {});
    expect(t.requests('tools/list')).toHaveLength(2);
  });

  it('a tool fixed by the time of a tools/list_changed is no longer refused', async () => {
    let fixed = false;
    const tool = (): Obj => ({
      name: 'bad',
      inputSchema: {
        type: 'object',
        properties: { q: { type: fixed ? 'string' : 'object', 'x-mcp-header': 'Q' } },
      },
    });
    const t = new ScriptedTransport({ kind: 'http' })
      .modern()
      .onRequest('tools/list', () => result({ ...list, tools: [tool()] }))
      .onRequest('tools/call', result(call));
    const c = await new McpClient({ transport: t, cache: false }).connect();
    await c.listTools();
    await expect(c.callTool('bad', { q: 'x' })).rejects.toMatchObject({ code: 'TOOL_REJECTED' });
    fixed = true;
    t.pushNotification('notifications/tools/list_changed');
    await c.callTool('bad', { q: 'x' });
    expect(t.last('tools/call').headers).toMatchObject({ 'Mcp-Param-Q': 'x' });
    await c.close();
  });

  it.each([
    ['stdio', false],
    ['http', true],
  ] as const)('no tool list is fetched over %s (legacy: %s)', async (kind, legacy) => {
    const { t, c } = await open(kind, legacy);
    await c.callTool('deploy', { region: 'x' });
    expect(t.requests('tools/list')).toHaveLength(0);
    expect(t.last('tools/call').headers).not.toHaveProperty('Mcp-Param-Region');
  });

  it('a dropped tool is refused over stdio too, without sending anything', async () => {
    const { t, c } = await open('stdio');
    await c.listTools();
    const before = t.sent.length;
    await expect(c.callTool('bad', { q: 'x' })).rejects.toMatchObject({ code: 'TOOL_REJECTED' });
    expect(t.sent.length).toBe(before);
  });

  it('a tool with invalid annotations is dropped with a warning; calling it is TOOL_REJECTED', async () => {
    const { t, c } = await open('http');
    const tools = await c.listTools();
    expect(tools.map((x) => x.name)).toEqual(['deploy']);
    expect(c.warnings).toContainEqual(
      expect.objectContaining({ code: 'DROPPED_TOOL', message: expect.stringContaining('"bad"') }),
    );
    await expect(c.callTool('bad', { q: {} })).rejects.toMatchObject({ code: 'TOOL_REJECTED' });
    expect(t.requests('tools/call')).toHaveLength(0);
  });

  it("a call's timeout and signal bound the tool list it waits for", async () => {
    const t = new ScriptedTransport({ kind: 'http' })
      .modern()
      .onRequest('tools/list', silence)
      .onRequest('tools/call', result(call));
    const c = await new McpClient({ transport: t, cache: false, requestTimeoutMs: 5000 }).connect();
    const started = Date.now();
    await expect(c.callTool('deploy', {}, { timeoutMs: 50 })).rejects.toMatchObject({
      code: 'REQUEST_TIMEOUT',
    });
    const aborted = new AbortController();
    const cancelled = c.callTool('deploy', {}, { signal: aborted.signal });
    setTimeout(() => aborted.abort(), 20);
    await expect(cancelled).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(t.requests('tools/call')).toHaveLength(0);
    await c.close();
  });

  it('the time a call waited for the tool list counts against its timeout', async () => {
    const t = new ScriptedTransport({ kind: 'http' })
      .modern()
      .onRequest('tools/list', async () => {
        await settle(300);
        return result(list);
      })
      .onRequest('tools/call', silence);
    const c = await new McpClient({ transport: t, cache: false }).connect();
    const started = Date.now();
    await expect(c.callTool('deploy', {}, { timeoutMs: 500 })).rejects.toMatchObject({
      code: 'REQUEST_TIMEOUT',
      // The message names the timeout the caller set, not what was left of it.
      message: 'tools/call got no answer within 500 ms',
    });
    expect(Date.now() - started).toBeLessThan(700);
    await c.close();
  });

  it('an unknown tool is still sent (the server answers for it)', async () => {
    const { t, c } = await open('http');
    await c.callTool('other', { region: 'x' });
    expect(t.requests('tools/call')).toHaveLength(1);
  });

  it('remembers at most MAX_REJECTED_TOOLS dropped names, the oldest forgotten first', async () => {
    const bad = (i: number): Obj => ({
      name: `bad-${i}`,
      inputSchema: { type: 'object', properties: { q: { type: 'object', 'x-mcp-header': 'Q' } } },
    });
    const names = Array.from({ length: MAX_REJECTED_TOOLS + 1 }, (_, i) => i);
    const t = new ScriptedTransport({ kind: 'http' })
      .modern()
      .onRequest('tools/list', result({ ...list, tools: names.map(bad) }))
      .onRequest('tools/call', result(call));
    const c = await new McpClient({ transport: t, cache: false }).connect();
    expect(await c.listTools()).toEqual([]);
    for (const i of [1, MAX_REJECTED_TOOLS]) {
      await expect(c.callTool(`bad-${i}`, {})).rejects.toMatchObject({ code: 'TOOL_REJECTED' });
    }
    // The first of MAX_REJECTED_TOOLS + 1 is no longer remembered: sent, the server answers.
    await c.callTool('bad-0', {});
    expect(t.requests('tools/call')).toHaveLength(1);
    await c.close();
  });
});
