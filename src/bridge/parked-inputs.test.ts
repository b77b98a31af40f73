import { afterEach, describe, expect, it } from 'vitest';
import { McpClient, type InputHandlers } from '../client/index.js';
import { createServer, type McpServer } from '../server/index.js';
import { MemoryClientTransport } from '../testing/memory-client-transport.js';
import { createBridge, type Bridge, type CreateBridgeOptions } from './create-bridge.js';

type Obj = Record<string, unknown>;

interface Seen {
  cancelled: number;
  caps: string[];
  refused: string[];
}

const elicit = (message: string) => ({
  method: 'elicitation/create' as const,
  params: { message, requestedSchema: { type: 'object', properties: { v: { type: 'string' } } } },
});

/** A 2025-11-25 upstream (the bridge pins the era) whose tools ask for input. */
function upstream(seen: Seen): McpServer {
  const server = createServer({ name: 'legacy-up', version: '1.0.0' });
  server.tool(
    'ask',
    { input: { type: 'object', properties: { n: { type: 'number' } } } },
    async (args, ctx) => {
      ctx.signal.addEventListener('abort', () => seen.cancelled++, { once: true });
      const { who } = await ctx.ask({ who: elicit(`who? ${String(args['n'] ?? '')}`) });
      return `hello ${JSON.stringify((who['content'] as Obj | undefined)?.['v'])}`;
    },
  );
  server.tool('three', {}, async (_args, ctx) => {
    const r = await ctx.ask({
      name: elicit('name?'),
      sample: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } },
      dirs: { method: 'roots/list', params: {} },
    });
    return `got ${Object.keys(r).sort().join(',')}`;
  });
  server.tool('two-rounds', {}, async (_args, ctx) => {
    const { a } = await ctx.ask({ a: elicit('first?') });
    const { b } = await ctx.ask({ b: elicit('second?') });
    return `${JSON.stringify(a['content'])} ${JSON.stringify(b['content'])}`;
  });
  server.tool('flood', {}, async (_args, ctx) => {
    const many = Object.fromEntries(
      Array.from({ length: 70 }, (_, i) => [`k${i}`, elicit(`${i}`)]),
    );
    await ctx.ask(many);
    return 'answered';
  });
  // Each input asked on its own, so that the refused ones do not end the call.
  const separately = async (
    ctx: Parameters<Parameters<McpServer['tool']>[2]>[1],
    n: number,
    message: string,
  ) => {
    const asks = Array.from({ length: n }, (_, i) =>
      ctx.ask({ [`k${i}`]: elicit(message) }).catch((e: Error & { code?: unknown }) => {
        seen.refused.push(`${String(e.code)} ${e.message}`);
      }),
    );
    await Promise.all(asks);
    return 'answered';
  };
  server.tool('twenty', {}, (_args, ctx) => separately(ctx, 20, 'one of many'));
  server.tool('huge', {}, (_args, ctx) => separately(ctx, 1, 'x'.repeat(1024 * 1024 + 1)));
  server.tool('caps', {}, (_args, ctx) => {
    seen.caps = ['elicitation', 'sampling', 'roots'].filter((c) => ctx.hasCapability(c));
    return seen.caps.join(',') || 'none';
  });
  return server;
}

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close().catch(() => undefined);
});

async function setup(options: Partial<CreateBridgeOptions> = {}, lanes = false) {
  const seen: Seen = { cancelled: 0, caps: [], refused: [] };
  const up = upstream(seen);
  const bridge: Bridge = await createBridge({
    transport: new MemoryClientTransport(up),
    client: { era: 'legacy' },
    profile: { name: 'passthrough', readsResources: true },
    forwardInput: true,
    // Each memory transport is a session of its own, as a new HTTP session is.
    ...(lanes ? { moreTransport: () => new MemoryClientTransport(up) } : {}),
    ...options,
  });
  open.push(bridge);
  const host = async (handlers: InputHandlers = { elicitation: () => ({ action: 'accept' }) }) => {
    const client = await new McpClient({
      transport: new MemoryClientTransport(bridge.server),
      era: 'modern',
      cache: false,
      handlers,
    }).connect();
    open.push(client);
    return client;
  };
  return { bridge, up, seen, host };
}

const call = (client: McpClient, params: Obj) =>
  client.request('tools/call', params, { inputRequired: 'return' });

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: Error & { code?: unknown }) => e,
  );

describe('a 2026-07-28 host in front of a 2025-11-25 upstream (parked input requests)', () => {
  it("answers the upstream's elicitation through input_required and the host's retry", async () => {
    const { host } = await setup();
    const client = await host({
      elicitation: () => ({ action: 'accept', content: { v: 'Ada' } }),
    });
    const result = await client.callTool('ask', {});
    expect(result.content).toEqual([{ type: 'text', text: 'hello "Ada"' }]);
  });

  it('returns input_required with the upstream key, serverInfo and an opaque single-use state', async () => {
    const { host } = await setup();
    const client = await host();
    const first = await call(client, { name: 'ask', arguments: {} });
    expect(first['resultType']).toBe('input_required');
    expect(Object.keys(first['inputRequests'] as Obj)).toEqual(['who']);
    expect((first['inputRequests'] as Record<string, Obj>)['who']?.['method']).toBe(
      'elicitation/create',
    );
    expect(first['requestState']).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((first['_meta'] as Obj)['io.modelcontextprotocol/serverInfo']).toMatchObject({
      name: 'legacy-up',
    });
    const retry = {
      name: 'ask',
      arguments: {},
      inputResponses: { who: { action: 'accept', content: { v: 'x' } } },
      requestState: first['requestState'],
    };
    const done = await call(client, retry);
    expect(done['content']).toEqual([{ type: 'text', text: 'hello "x"' }]);
    const again = await failure(call(client, retry));
    expect(again?.message).toMatch(/params\.requestState is unknown or has expired/);
  });

  it('asks for the inputs the upstream asks together in one round', async () => {
    const { host } = await setup();
    const client = await host({
      elicitation: () => ({ action: 'accept', content: { v: 'a' } }),
      sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' }),
      roots: () => ({ roots: [] }),
    });
    const first = await call(client, { name: 'three', arguments: {} });
    expect(Object.keys(first['inputRequests'] as Obj).sort()).toEqual(['dirs', 'name', 'sample']);
    // The first round's call is cancelled with its host connection (one open call at a time).
    await client.close();
    const result = await (
      await host({
        elicitation: () => ({ action: 'accept', content: { v: 'a' } }),
        sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' }),
        roots: () => ({ roots: [] }),
      })
    ).callTool('three', {});
    expect(result.content).toEqual([{ type: 'text', text: 'got dirs,name,sample' }]);
  });

  it('goes round again when the upstream asks again, with a new requestState', async () => {
    const { host } = await setup();
    const client = await host();
    const r1 = await call(client, { name: 'two-rounds', arguments: {} });
    const r2 = await call(client, {
      name: 'two-rounds',
      arguments: {},
      inputResponses: { a: { action: 'accept', content: { v: '1' } } },
      requestState: r1['requestState'],
    });
    expect(Object.keys(r2['inputRequests'] as Obj)).toEqual(['b']);
    expect(r2['requestState']).not.toBe(r1['requestState']);
    const r3 = await call(client, {
      name: 'two-rounds',
      arguments: {},
      inputResponses: { b: { action: 'accept', content: { v: '2' } } },
      requestState: r2['requestState'],
    });
    expect(r3['content']).toEqual([{ type: 'text', text: '{"v":"1"} {"v":"2"}' }]);
  });

  it("never lets another host connection answer a host's parked call", async () => {
    const { host } = await setup();
    const a = await host();
    const b = await host();
    const first = await call(a, { name: 'ask', arguments: {} });
    const retry = {
      name: 'ask',
      arguments: {},
      inputResponses: { who: { action: 'accept', content: { v: 'mallory' } } },
      requestState: first['requestState'],
    };
    const stolen = await failure(call(b, retry));
    expect(stolen).toMatchObject({ code: -32602 });
    expect(stolen?.message).toMatch(/requestState is unknown or has expired/);
    // Still parked for its own host.
    const own = await call(a, {
      ...retry,
      inputResponses: { who: { action: 'accept', content: { v: 'alice' } } },
    });
    expect(own['content']).toEqual([{ type: 'text', text: 'hello "alice"' }]);
  });

  it('refuses a requestState replayed for other arguments, and a tampered one', async () => {
    const { host } = await setup();
    const client = await host();
    const first = await call(client, { name: 'ask', arguments: { n: 1 } });
    const answer = { who: { action: 'accept', content: { v: 'z' } } };
    const other = await failure(
      call(client, {
        name: 'ask',
        arguments: { n: 2 },
        inputResponses: answer,
        requestState: first['requestState'],
      }),
    );
    expect(other?.message).toMatch(/params\.requestState belongs to another request/);
    const tampered = await failure(
      call(client, {
        name: 'ask',
        arguments: { n: 1 },
        inputResponses: answer,
        requestState: `${String(first['requestState'])}x`,
      }),
    );
    expect(tampered).toMatchObject({ code: -32602 });
    const ok = await call(client, {
      name: 'ask',
      arguments: { n: 1 },
      inputResponses: answer,
      requestState: first['requestState'],
    });
    expect(ok['content']).toEqual([{ type: 'text', text: 'hello "z"' }]);
  });

  it('cancels the parked upstream call when the host does not come back within the TTL', async () => {
    const { host, seen } = await setup({ inputTtlMs: 20 });
    const client = await host();
    const first = await call(client, { name: 'ask', arguments: {} });
    await expect.poll(() => seen.cancelled, { timeout: 5_000 }).toBe(1);
    const late = await failure(
      call(client, {
        name: 'ask',
        arguments: {},
        inputResponses: { who: { action: 'accept' } },
        requestState: first['requestState'],
      }),
    );
    expect(late).toMatchObject({ code: -32602 });
    expect(late?.message).toMatch(/params\.requestState is unknown or has expired.*20 ms/);
  });

  it("one host: a call asking while the host's other call waits gets its own input_required", async () => {
    const { host, seen, bridge } = await setup();
    const client = await host();
    const first = await call(client, { name: 'ask', arguments: { n: 1 } });
    const second = await call(client, { name: 'ask', arguments: { n: 2 } });
    expect(second['resultType']).toBe('input_required');
    expect(JSON.stringify(second['inputRequests'])).toContain('who? 2');
    expect(seen.cancelled).toBe(0);
    for (const [parked, n, v] of [
      [second, 2, 'two'],
      [first, 1, 'one'],
    ] as const) {
      const done = await call(client, {
        name: 'ask',
        arguments: { n },
        inputResponses: { who: { action: 'accept', content: { v } } },
        requestState: parked['requestState'],
      });
      expect(done['content']).toEqual([{ type: 'text', text: `hello "${v}"` }]);
    }
    expect((bridge.server as unknown as { parking: { size: number } }).parking.size).toBe(0);
  });

  it('keeps at most 16 inputs waiting per call: more fail back to the upstream at once', async () => {
    const { host, seen } = await setup();
    const client = await host();
    const result = await call(client, { name: 'twenty', arguments: {} });
    expect(Object.keys(result['inputRequests'] as Obj)).toHaveLength(16);
    expect(seen.refused).toHaveLength(4);
    expect(seen.refused[0]).toMatch(/waits for 16 inputs already/);
  });

  it('answers an over-size input request to the upstream with -32602 naming params', async () => {
    const { host, seen } = await setup();
    const client = await host();
    const result = await call(client, { name: 'huge', arguments: {} });
    expect(result['resultType']).not.toBe('input_required');
    expect(seen.refused).toHaveLength(1);
    expect(seen.refused[0]).toMatch(/^-32602 .*params is \d+ bytes serialised/);
  });

  it('fails the upstream request for a capability the host did not declare', async () => {
    const { host } = await setup();
    const client = await host({ sampling: () => ({}) });
    const error = await failure(client.callTool('ask', {}));
    expect(error?.message).toMatch(/the host does not support elicitation\/create/);
  });

  it('with another transport, the upstream sees just the capabilities the host declared', async () => {
    const { host, seen } = await setup({}, true);
    const client = await host({ sampling: () => ({}) });
    expect((await client.callTool('caps', {})).content).toEqual([
      { type: 'text', text: 'sampling' },
    ]);
    expect(seen.caps).toEqual(['sampling']);
    const all = await host({
      elicitation: () => ({ action: 'accept' }),
      sampling: () => ({}),
      roots: () => ({ roots: [] }),
    });
    await all.callTool('caps', {});
    expect(seen.caps).toEqual(['elicitation', 'sampling', 'roots']);
  });
});
