// Found by a cold review of the client; each was a failing test first.
import { describe, expect, it } from 'vitest';
import { ClientCache } from './cache.js';
import { McpKitError } from '../errors/index.js';
import { ScriptedTransport, result, settle, silence } from '../testing/scripted-transport.js';
import type { Reply } from '../testing/scripted-transport.js';
import { McpClient } from './client.js';

const sharedTools = {
  tools: [
    { name: 'ok', inputSchema: { type: 'object' } },
    {
      name: 'bad',
      inputSchema: { type: 'object', properties: { p: { type: 'object', 'x-mcp-header': 'P' } } },
    },
  ],
  resultType: 'complete',
  ttlMs: 60_000,
  cacheScope: 'public',
};
const SUB = 'io.modelcontextprotocol/subscriptionId';
const list = (extra = {}) => ({
  tools: [{ name: 'a', inputSchema: { type: 'object' } }],
  resultType: 'complete',
  ttlMs: 60_000,
  cacheScope: 'public',
  ...extra,
});

describe('hardening: cache', () => {
  it('a caller editing the first (uncached) result does not edit the cache', async () => {
    const t = new ScriptedTransport().modern().onRequest('tools/list', result(list()));
    const c = await new McpClient({ transport: t }).connect();
    const first = await c.request('tools/list');
    (first['tools'] as unknown[]).push({ name: 'injected-by-caller' });
    const second = await c.request('tools/list');
    expect((second['tools'] as unknown[]).length).toBe(1);
  });

  it('an answer in flight when list_changed arrives is not cached', async () => {
    let answer!: () => void;
    let n = 0;
    const t = new ScriptedTransport().modern().onRequest('tools/list', () => {
      n++;
      if (n === 1) return new Promise<Reply>((r) => (answer = () => r(result(list()))));
      return result(list({ tools: [{ name: 'b', inputSchema: { type: 'object' } }] }));
    });
    const c = await new McpClient({ transport: t }).connect();
    const p = c.request('tools/list');
    await settle();
    t.pushNotification('notifications/tools/list_changed'); // server changed the list
    answer(); // old page arrives afterwards
    await p;
    const again = await c.request('tools/list');
    expect((again['tools'] as { name: string }[])[0]!.name).toBe('b');
  });
});

describe('hardening: era', () => {
  it('a 2026-07-28 server request is refused: the handlers are never asked outside MRTR', async () => {
    let asked = 0;
    const t = new ScriptedTransport().modern();
    const c = await new McpClient({
      transport: t,
      handlers: {
        elicitation: () => {
          asked++;
          return { action: 'accept', content: {} };
        },
      },
    }).connect();
    t.push({
      jsonrpc: '2.0',
      id: 'srv-1',
      method: 'elicitation/create',
      params: { message: 'pw?', requestedSchema: { type: 'object', properties: {} } },
    });
    await settle(5);
    expect(c.era).toBe('modern');
    expect(asked).toBe(0);
    expect(t.sent.at(-1)?.message).toMatchObject({ id: 'srv-1', error: { code: -32601 } });
    expect(c.warnings.map((w) => w.code)).toContain('SERVER_REQUEST_REFUSED');
  });
});

describe('hardening: session re-init', () => {
  it('two requests that both see the session expire re-initialize once', async () => {
    const t = new ScriptedTransport({ kind: 'http' }).legacy();
    let n = 0;
    const fails: (() => void)[] = [];
    t.onRequest('tools/list', () => {
      n++;
      if (n <= 2)
        return new Promise<Reply>((r) =>
          fails.push(() => r({ fail: new McpKitError('SESSION_EXPIRED', '404') })),
        );
      return result({ tools: [] });
    });
    const c = await new McpClient({ transport: t }).connect();
    const a = c.request('tools/list', {}, { cache: false });
    const b = c.request('tools/list', {}, { cache: false });
    await settle();
    fails[0]!();
    await settle(5); // A's 404, re-init done
    fails[1]!(); // B's 404 (sent with the same old session) arrives later
    await Promise.all([a, b]);
    expect(t.requests('initialize').length).toBe(2);
  });
});

describe('hardening: close during connect', () => {
  it('close() during connect() leaves the client closed', async () => {
    const t = new ScriptedTransport().onRequest('server/discover', silence);
    const c = new McpClient({ transport: t });
    const p = c.connect().catch((e) => e);
    await settle();
    await c.close();
    await p;
    let msg = '';
    try {
      await c.request('tools/list');
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).toContain('closed');
  });
});

describe('hardening: MRTR __proto__ key', () => {
  it('an inputRequests key "__proto__" keeps its answer', async () => {
    const t = new ScriptedTransport().modern();
    const raw = JSON.parse(
      '{"resultType":"input_required","inputRequests":{"__proto__":{"method":"elicitation/create","params":{"message":"x","requestedSchema":{"type":"object","properties":{}}}}},"requestState":"s"}',
    );
    t.onRequests('tools/call', [result(raw), result({ content: [], resultType: 'complete' })]);
    const c = await new McpClient({
      transport: t,
      handlers: { elicitation: () => ({ action: 'accept', content: {} }) },
    }).connect();
    await c.callTool('x');
    const retry = t.requests('tools/call')[1]!;
    expect(JSON.parse(JSON.stringify(retry.params['inputResponses']))).toHaveProperty('__proto__');
  });
});

describe('hardening: unescaped server text in warnings', () => {
  it('server text in warnings is escaped (LISTEN_UNREQUESTED, DROPPED_TOOL)', async () => {
    const t = new ScriptedTransport({ kind: 'http' })
      .modern()
      .onRequest('subscriptions/listen', (m) => ({
        before: [
          {
            jsonrpc: '2.0',
            method: 'notifications/subscriptions/acknowledged',
            params: { notifications: {}, _meta: { [SUB]: m.id } },
          },
        ],
        then: silence,
      }))
      .onRequest(
        'tools/list',
        result({
          tools: [
            {
              name: 't',
              inputSchema: {
                type: 'object',
                properties: { 'p\u001b]0;pwned\u0007': { type: 'object', 'x-mcp-header': 'X' } },
              },
            },
          ],
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'public',
        }),
      );
    const c = await new McpClient({ transport: t }).connect();
    const s = await c.listen({ toolsListChanged: true });
    t.push({
      jsonrpc: '2.0',
      method: 'x\u001b[2J\u202e',
      params: { _meta: { [SUB]: t.requests('subscriptions/listen')[0]!.id } },
    });
    await c.listTools();
    await s.close();
    const raw = c.warnings.filter((w) => /[\u001b\u202e]/.test(w.message)).map((w) => w.code);
    expect(raw).toEqual([]);
    expect(c.warnings.map((w) => w.code)).toEqual(
      expect.arrayContaining(['LISTEN_UNREQUESTED', 'DROPPED_TOOL']),
    );
  });
});

describe('hardening: icons in content', () => {
  it('a resource_link in tools/call loses its javascript: and file: icons', async () => {
    const t = new ScriptedTransport().modern().onRequest(
      'tools/call',
      result({
        resultType: 'complete',
        content: [
          {
            type: 'resource_link',
            uri: 'file:///a',
            name: 'a',
            icons: [{ src: 'javascript:alert(1)' }, { src: 'file:///etc/passwd' }],
          },
        ],
      }),
    );
    const c = await new McpClient({ transport: t }).connect();
    const r = await c.callTool('x');
    expect((r.content[0] as { icons?: unknown[] }).icons ?? []).toEqual([]);
  });
});

describe('hardening: a shared cache store', () => {
  it('through a shared store, a second client still refuses a tool the first one dropped', async () => {
    const store = new ClientCache();
    const mk = async () => {
      const t = new ScriptedTransport({ kind: 'http' })
        .modern()
        .onRequest('tools/list', result(sharedTools))
        .onRequest('tools/call', result({ content: [], resultType: 'complete' }));
      return { t, c: await new McpClient({ transport: t, cache: { store } }).connect() };
    };
    const one = await mk();
    await one.c.listTools();
    await expect(one.c.callTool('bad', { p: {} })).rejects.toMatchObject({ code: 'TOOL_REJECTED' });
    const two = await mk();
    expect((await two.c.listTools()).map((t) => t.name)).toEqual(['ok']);
    const err = await two.c.callTool('bad', { p: {} }).catch((e) => e);
    expect(two.t.requests('tools/call').length).toBe(0);
    expect(err?.code).toBe('TOOL_REJECTED');
  });
});
