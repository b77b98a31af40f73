import { afterEach, expect, it } from 'vitest';
import { McpClient } from '../client/index.js';
import { createServer, type McpServer } from '../server/index.js';
import { MemoryClientTransport } from '../testing/memory-client-transport.js';
import { createBridge, type Bridge, type CreateBridgeOptions } from './create-bridge.js';

type Obj = Record<string, unknown>;

const elicit = (message: string) => ({
  method: 'elicitation/create' as const,
  params: { message, requestedSchema: { type: 'object', properties: { v: { type: 'string' } } } },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const open: Bridge[] = [];
afterEach(async () => {
  for (const bridge of open.splice(0)) await bridge.close();
});

async function setup(up: McpServer, options: Partial<CreateBridgeOptions> = {}) {
  const bridge = await createBridge({
    transport: new MemoryClientTransport(up),
    client: { era: 'legacy' },
    profile: { name: 'passthrough', readsResources: true },
    forwardInput: true,
    ...options,
  });
  open.push(bridge);
  const host = () =>
    new McpClient({
      transport: new MemoryClientTransport(bridge.server),
      era: 'modern',
      cache: false,
      handlers: { elicitation: () => ({ action: 'accept' }) },
    }).connect();
  return { bridge, host };
}

const call = (client: McpClient, params: Obj) =>
  client.request('tools/call', params, { inputRequired: 'return' });

it("a parked call's later input request never reaches another host", async () => {
  const up = createServer({ name: 'u', version: '1' });
  let secret: unknown;
  up.tool('a', {}, async (_args, ctx) => {
    const later = sleep(300).then(() =>
      ctx.ask({ secret: elicit('A secret') }).catch((error: Error) => (secret = error.message)),
    );
    await Promise.all([ctx.ask({ first: elicit('A first') }), later]);
    return 'a done';
  });
  up.tool('b', {}, async () => {
    await sleep(1000);
    return 'b done';
  });
  const { host } = await setup(up);
  const a = await host();
  const b = await host();
  const first = await call(a, { name: 'a', arguments: {} });
  expect(Object.keys(first['inputRequests'] as Obj)).toEqual(['first']);
  const other = await call(b, { name: 'b', arguments: {} });
  expect(other['resultType']).not.toBe('input_required');
  expect(other['content']).toEqual([{ type: 'text', text: 'b done' }]);
  expect(String(secret)).toMatch(/outside a request the bridge can tie it to/);
});

it('a host that closes its connection has its parked calls cancelled upstream at once', async () => {
  const up = createServer({ name: 'u', version: '1' });
  let cancelled = 0;
  up.tool('ask', {}, async (_args, ctx) => {
    ctx.signal.addEventListener('abort', () => cancelled++, { once: true });
    await ctx.ask({ who: elicit('who?') });
    return 'ok';
  });
  const { bridge, host } = await setup(up);
  const a = await host();
  const first = await call(a, { name: 'ask', arguments: {} });
  expect(first['resultType']).toBe('input_required');
  await a.close();
  await expect.poll(() => cancelled, { timeout: 5_000 }).toBe(1);
  expect((bridge.server as unknown as { parking: { size: number } }).parking.size).toBe(0);
});
