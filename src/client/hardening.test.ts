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
  it('a 2026-07-28 server request is dropped unanswered: the handlers are never asked outside MRTR', async () => {
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
    // The era has no server requests: answering each would let a server make the client write.
    expect(t.sent.some((s) => (s.message as { id?: unknown }).id === 'srv-1')).toBe(false);
    expect(c.warnings.map((w) => w.code)).toContain('SERVER_REQUEST_REFUSED');
  });

  it('a flood of 2026-07-28 server requests costs a few warnings and no answer', async () => {
    const t = new ScriptedTransport().modern();
    const c = await new McpClient({ transport: t }).connect();
    const before = t.sent.length;
    for (let i = 0; i < 1000; i++) t.push({ jsonrpc: '2.0', id: `p${i}`, method: 'ping' });
    await settle(5);
    expect(t.sent.length).toBe(before);
    const refused = c.warnings.filter((w) => w.code === 'SERVER_REQUEST_REFUSED');
    expect(refused.map((w) => w.message.match(/\((\d+) so far\)/)?.[1])).toEqual([
      undefined,
      '10',
      '100',
      '1000',
    ]);
  });
});

describe('hardening: 2025-11-25 server requests in flight', () => {
  it('at most 64 are answered at once; more are dropped unanswered, then taken again', async () => {
    let asked = 0;
    const release: (() => void)[] = [];
    const t = new ScriptedTransport().legacy();
    const c = await new McpClient({
      transport: t,
      handlers: {
        elicitation: () => {
          asked++;
          return new Promise((r) => release.push(() => r({ action: 'decline' })));
        },
      },
    }).connect();
    const ask = (id: string): void =>
      t.push({
        jsonrpc: '2.0',
        id,
        method: 'elicitation/create',
        params: { message: 'x?', requestedSchema: { type: 'object', properties: {} } },
      });
    for (let i = 0; i < 100; i++) ask(`e${i}`);
    await settle(5);
    expect(asked).toBe(64);
    expect(c.warnings.filter((w) => w.code === 'SERVER_REQUEST_DROPPED').length).toBe(2);
    for (const r of release) r();
    await settle(5);
    expect(t.responses().length).toBe(64);
    ask('later');
    await settle(5);
    expect(asked).toBe(65);
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
