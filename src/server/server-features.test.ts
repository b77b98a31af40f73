import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectInMemory } from '../transports/memory.js';
import { initializeRequest, legacy, modern } from '../testing/messages.js';
import { createServer } from './server.js';

const elicit = {
  method: 'elicitation/create' as const,
  params: {
    message: 'Name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
  },
};
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('tool schemas', () => {
  it('takes a Standard Schema (zod) for input and advertises its JSON Schema', async () => {
    const server = createServer({ name: 's', version: '1' });
    server.tool(
      'add',
      { description: 'adds', input: z.object({ a: z.number(), b: z.number() }) },
      ({ a, b }: { a: number; b: number }) => String(a + b),
    );
    const conn = connectInMemory(server);
    const list = await conn.send(modern('tools/list'));
    expect(list).toMatchObject({
      result: { tools: [{ name: 'add', inputSchema: { type: 'object', required: ['a', 'b'] } }] },
    });
    expect(
      await conn.send(modern('tools/call', { name: 'add', arguments: { a: 2, b: 3 } })),
    ).toMatchObject({ result: { content: [{ text: '5' }] } });
    const bad = await conn.send(modern('tools/call', { name: 'add', arguments: { a: 'x', b: 3 } }));
    expect(bad).toMatchObject({ result: { isError: true } });
    expect(JSON.stringify(bad)).toContain('a: ');
  });

  it('checks structuredContent against the output schema', async () => {
    const server = createServer({ name: 's', version: '1' });
    const output = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    server.tool('good', { output }, () => ({
      content: [{ type: 'text', text: '{"n":1}' }],
      structuredContent: { n: 1 },
    }));
    server.tool('bad', { output }, () => ({
      content: [{ type: 'text', text: '{}' }],
      structuredContent: { n: 'one' },
    }));
    const conn = connectInMemory(server);
    expect(await conn.send(modern('tools/call', { name: 'good' }))).toMatchObject({
      result: { structuredContent: { n: 1 } },
    });
    const errors: unknown[] = [];
    server.options.onError = (e) => errors.push(e);
    expect(await conn.send(modern('tools/call', { name: 'bad' }))).toMatchObject({
      error: { code: -32603 },
    });
  });

  it('refuses duplicate registrations and unregisters', async () => {
    const server = createServer({ name: 's', version: '1' });
    const remove = server.tool('t', {}, () => 'x');
    expect(() => server.tool('t', {}, () => 'y')).toThrow(/already registered/);
    remove();
    const conn = connectInMemory(server);
    expect(await conn.send(modern('tools/list'))).toMatchObject({ result: { tools: [] } });
  });
});

describe('cache hints', () => {
  it('uses per-server list hints and per-resource read hints', async () => {
    const server = createServer({
      name: 's',
      version: '1',
      cache: { ttlMs: 60_000, cacheScope: 'public' },
      readCache: { ttlMs: 5 },
    });
    server.resource(
      'mem://fixed',
      { name: 'fixed', ttlMs: 3_600_000, cacheScope: 'public' },
      () => 'x',
    );
    server.resource('mem://default', { name: 'default' }, () => 'y');
    const conn = connectInMemory(server);
    expect(await conn.send(modern('tools/list'))).toMatchObject({
      result: { ttlMs: 60_000, cacheScope: 'public' },
    });
    expect(await conn.send(modern('resources/read', { uri: 'mem://fixed' }))).toMatchObject({
      result: { ttlMs: 3_600_000, cacheScope: 'public' },
    });
    expect(await conn.send(modern('resources/read', { uri: 'mem://default' }))).toMatchObject({
      result: { ttlMs: 5, cacheScope: 'private' },
    });
  });
});

describe('progress and logs', () => {
  it('sends progress only with a token, and logs only at or above the requested level', async () => {
    const server = createServer({ name: 's', version: '1' });
    server.tool('work', {}, (_a, ctx) => {
      ctx.progress(1, 2);
      ctx.progress(1, 2); // not increasing: dropped
      ctx.progress(2, 2, 'done');
      ctx.log('debug', 'quiet');
      ctx.log('error', 'loud');
      return 'ok';
    });
    const seen: unknown[] = [];
    const notify = (m: unknown) => seen.push(m);
    const conn = connectInMemory(server);
    await conn.send(modern('tools/call', { name: 'work' }), {});
    expect(conn.received).toEqual([]);
    const peer = server.connect({ transport: 'memory', send: notify });
    await peer.handle(
      modern('tools/call', {
        name: 'work',
        _meta: { progressToken: 't1', 'io.modelcontextprotocol/logLevel': 'warning' },
      }),
    );
    expect(seen).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 't1', progress: 1, total: 2 },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 't1', progress: 2, total: 2, message: 'done' },
      },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: 'loud' } },
    ]);
  });
});

describe('MRTR (2026-07-28) and server requests (2025-11-25) through ctx.ask', () => {
  function server() {
    const s = createServer({ name: 's', version: '1', requestStateSecret: 'test-secret' });
    s.tool('greet', {}, async (_a, ctx) => {
      const { who } = await ctx.ask({ who: elicit });
      const { again } = await ctx.ask({ again: elicit });
      return `hello ${JSON.stringify(who['content'])} ${JSON.stringify(again['content'])}`;
    });
    return s;
  }
  const caps = { elicitation: {} };

  it('runs two rounds with a signed state and completes', async () => {
    const conn = connectInMemory(server());
    const r1 = (await conn.send(modern('tools/call', { name: 'greet' }, caps))) as {
      result: Record<string, unknown>;
    };
    expect(r1.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { who: elicit },
    });
    const state1 = r1.result['requestState'] as string;
    const r2 = (await conn.send(
      modern(
        'tools/call',
        { name: 'greet', inputResponses: { who: accept({ name: 'Ada' }) }, requestState: state1 },
        caps,
      ),
    )) as { result: Record<string, unknown> };
    expect(r2.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { again: elicit },
    });
    const state2 = r2.result['requestState'] as string;
    expect(state2).not.toBe(state1);
    const r3 = await conn.send(
      modern(
        'tools/call',
        { name: 'greet', inputResponses: { again: accept({ name: 'Bob' }) }, requestState: state2 },
        caps,
      ),
    );
    expect(r3).toMatchObject({
      result: {
        resultType: 'complete',
        content: [{ text: 'hello {"name":"Ada"} {"name":"Bob"}' }],
      },
    });
  });

  it('refuses an answer that is not the result of the request it answers, naming its key', async () => {
    const conn = connectInMemory(server());
    // A roots/list or sampling result passes for an input response, yet answers no elicitation.
    const sampled = { role: 'assistant', model: 'm', content: { type: 'text', text: 'Ada' } };
    for (const wrong of [{ roots: [] }, sampled]) {
      const answer = await conn.send(
        modern('tools/call', { name: 'greet', inputResponses: { who: wrong } }, caps),
      );
      expect(answer).toMatchObject({
        error: {
          code: -32602,
          data: { field: expect.stringMatching(/^params\.inputResponses\.who\b/) },
        },
      });
    }
    // A key the tool never asks for is not checked (nor used).
    const r1 = await conn.send(
      modern('tools/call', { name: 'greet', inputResponses: { other: { roots: [] } } }, caps),
    );
    expect(r1).toMatchObject({ result: { resultType: 'input_required' } });
  });

  it('rejects a tampered, foreign or forged state with -32602', async () => {
    const s = server();
    s.tool('other', {}, async (_a, ctx) => (await ctx.ask({ x: elicit }), 'ok'));
    const conn = connectInMemory(s);
    const r1 = (await conn.send(modern('tools/call', { name: 'greet' }, caps))) as {
      result: Record<string, unknown>;
    };
    const state = r1.result['requestState'] as string;
    const resp = { who: accept({ name: 'Ada' }) };
    for (const bad of [`${state}-TAMPERED`, `x${state}`, 'no-dot', '']) {
      expect(
        await conn.send(
          modern('tools/call', { name: 'greet', inputResponses: resp, requestState: bad }, caps),
        ),
      ).toMatchObject({ error: { code: -32602 } });
    }
    expect(
      await conn.send(
        modern('tools/call', { name: 'other', inputResponses: resp, requestState: state }, caps),
      ),
    ).toMatchObject({
      error: { code: -32602, message: 'params.requestState belongs to another request' },
    });
    const otherInstance = connectInMemory(
      createServer({ name: 's', version: '1', requestStateSecret: 'different' }),
    );
    expect(
      await otherInstance.send(modern('tools/call', { name: 'greet', requestState: state }, caps)),
    ).toMatchObject({ error: { code: -32602 } });
  });

  it('answers -32021 when the client lacks the capability', async () => {
    const conn = connectInMemory(server());
    expect(await conn.send(modern('tools/call', { name: 'greet' }, {}))).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } },
    });
  });

  it('sends real requests to a legacy client and waits for its answers', async () => {
    const conn = connectInMemory(server());
    await conn.send(initializeRequest(caps));
    conn.onMessage = (m) => {
      const req = m as { id?: string; method?: string };
      if (req.id !== undefined && req.method === 'elicitation/create') {
        void conn.send({ jsonrpc: '2.0', id: req.id, result: accept({ name: req.id }) });
      }
    };
    const res = await conn.send(legacy('tools/call', { name: 'greet' }));
    expect(res).toMatchObject({
      result: { content: [{ text: 'hello {"name":"mcpkit-1"} {"name":"mcpkit-2"}' }] },
    });
  });

  it('fails a tool cleanly when a legacy client answers with an error', async () => {
    const conn = connectInMemory(server());
    await conn.send(initializeRequest(caps));
    conn.onMessage = (m) => {
      const req = m as { id?: string };
      if (req.id !== undefined)
        void conn.send({
          jsonrpc: '2.0',
          id: req.id,
          error: { code: -1, message: 'user said no' },
        });
    };
    expect(await conn.send(legacy('tools/call', { name: 'greet' }))).toMatchObject({
      error: { code: -1, message: 'user said no' },
    });
  });
});

describe('cancellation and listen', () => {
  it('aborts a request on notifications/cancelled and sends no response', async () => {
    const server = createServer({ name: 's', version: '1' });
    let aborted = false;
    server.tool(
      'slow',
      {},
      (_a, ctx) =>
        new Promise((resolve) =>
          ctx.signal.addEventListener('abort', () => ((aborted = true), resolve('late'))),
        ),
    );
    const conn = connectInMemory(server);
    const msg = modern('tools/call', { name: 'slow' });
    const pending = conn.send(msg);
    await conn.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: msg.id },
    });
    expect(await pending).toBeUndefined();
    expect(aborted).toBe(true);
  });

  it('acknowledges first, honours the filter, tags frames and ends on cancel', async () => {
    const server = createServer({ name: 's', version: '1' });
    const conn = connectInMemory(server);
    const listen = modern('subscriptions/listen', {
      notifications: { promptsListChanged: true, resourceSubscriptions: ['mem://a'] },
    });
    const pending = conn.send(listen);
    await new Promise((r) => setTimeout(r, 10));
    server.notifyListChanged('tools');
    server.notifyListChanged('prompts');
    server.notifyResourceUpdated('mem://a/child');
    server.notifyResourceUpdated('mem://ab');
    const tag = { _meta: { 'io.modelcontextprotocol/subscriptionId': listen.id } };
    expect(conn.received).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: {
          notifications: { promptsListChanged: true, resourceSubscriptions: ['mem://a'] },
          ...tag,
        },
      },
      { jsonrpc: '2.0', method: 'notifications/prompts/list_changed', params: tag },
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'mem://a/child', ...tag },
      },
    ]);
    expect(server.listenerCount).toBe(1);
    await conn.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: listen.id },
    });
    expect(await pending).toBeUndefined();
    expect(server.listenerCount).toBe(0);
  });

  it('gives a legacy subscriber and a modern listener the same updates (one coverage rule)', async () => {
    const server = createServer({ name: 's', version: '1' });
    const modernConn = connectInMemory(server);
    const listen = modern('subscriptions/listen', {
      notifications: { resourceSubscriptions: ['mem://a'] },
    });
    const pending = modernConn.send(listen);
    const legacyConn = connectInMemory(server);
    await legacyConn.send(initializeRequest());
    await legacyConn.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await legacyConn.send(legacy('resources/subscribe', { uri: 'mem://a' }));
    await new Promise((r) => setTimeout(r, 10));
    const uris = ['mem://a', 'mem://a/b', 'mem://a#x', 'mem://a?v=2', 'mem://ab', 'mem://b'];
    for (const uri of uris) server.notifyResourceUpdated(uri);
    const updated = (received: Array<{ method?: string; params?: { uri?: unknown } }>) =>
      received
        .filter((m) => m.method === 'notifications/resources/updated')
        .map((m) => m.params?.uri);
    const covered = ['mem://a', 'mem://a/b', 'mem://a#x', 'mem://a?v=2'];
    expect(updated(modernConn.received as never)).toEqual(covered);
    expect(updated(legacyConn.received as never)).toEqual(covered);
    server.close();
    await pending;
  });

  it('ends listen streams with a result when the server closes', async () => {
    const server = createServer({ name: 's', version: '1' });
    const conn = connectInMemory(server);
    const listen = modern('subscriptions/listen', { notifications: { toolsListChanged: true } });
    const pending = conn.send(listen);
    await new Promise((r) => setTimeout(r, 10));
    server.close();
    expect(await pending).toMatchObject({
      id: listen.id,
      result: {
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/subscriptionId': listen.id },
      },
    });
  });
});

describe('2025-11-25 shapes', () => {
  it('drops non-object output schemas from legacy listings and non-object structuredContent from legacy results', async () => {
    const server = createServer({ name: 's', version: '1' });
    server.tool('list', { output: { type: 'array', items: { type: 'number' } } }, () => ({
      content: [{ type: 'text', text: '[1,2]' }],
      structuredContent: [1, 2],
    }));
    const modernConn = connectInMemory(server);
    expect(await modernConn.send(modern('tools/list'))).toMatchObject({
      result: { tools: [{ outputSchema: { type: 'array' } }] },
    });
    expect(await modernConn.send(modern('tools/call', { name: 'list' }))).toMatchObject({
      result: { structuredContent: [1, 2] },
    });
    const legacyConn = connectInMemory(server);
    await legacyConn.send(initializeRequest());
    const list = (await legacyConn.send(legacy('tools/list'))) as unknown as {
      result: { tools: Record<string, unknown>[] };
    };
    expect(list.result.tools[0]).not.toHaveProperty('outputSchema');
    const call = (await legacyConn.send(legacy('tools/call', { name: 'list' }))) as unknown as {
      result: Record<string, unknown>;
    };
    expect(call.result).not.toHaveProperty('structuredContent');
    expect(call.result['content']).toEqual([{ type: 'text', text: '[1,2]' }]);
  });
});

describe('requestState binding', () => {
  it('refuses a state replayed with other arguments or by another caller', async () => {
    const server = createServer({ name: 's', version: '1', requestStateSecret: 'k' });
    server.tool(
      'delete',
      { input: { type: 'object', properties: { path: { type: 'string' } } } },
      async (_a, ctx) => {
        await ctx.ask({ ok: elicit });
        return 'deleted';
      },
    );
    const peer = server.connect({ transport: 'memory', send: () => {} });
    const caps = { elicitation: {} };
    const r1 = (await peer.handle(
      modern('tools/call', { name: 'delete', arguments: { path: '/tmp/a' } }, caps),
      { authInfo: { sub: 'alice' } },
    )) as unknown as { result: { requestState: string } };
    const state = r1.result.requestState;
    const retry = (args: Record<string, unknown>) =>
      modern(
        'tools/call',
        {
          name: 'delete',
          arguments: args,
          inputResponses: { ok: accept({}) },
          requestState: state,
        },
        caps,
      );
    expect(
      await peer.handle(retry({ path: '/tmp/a' }), { authInfo: { sub: 'alice' } }),
    ).toMatchObject({ result: { content: [{ text: 'deleted' }] } });
    expect(
      await peer.handle(retry({ path: '/etc/passwd' }), { authInfo: { sub: 'alice' } }),
    ).toMatchObject({
      error: { code: -32602, message: 'params.requestState belongs to another request' },
    });
    expect(
      await peer.handle(retry({ path: '/tmp/a' }), { authInfo: { sub: 'mallory' } }),
    ).toMatchObject({ error: { code: -32602 } });
  });
});
