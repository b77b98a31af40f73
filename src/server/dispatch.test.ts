import { describe, expect, it } from 'vitest';
import type { JSONRPCErrorResponse, JSONRPCMessage } from '../protocol/jsonrpc.js';
import { initializeRequest, legacy, modern } from '../testing/messages.js';
import { until, withTimeout } from '../testing/sse.js';
import { connectInMemory } from '../transports/memory.js';
import { createServer } from './server.js';

const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

async function legacyConnection(capabilities: Record<string, unknown> = {}) {
  const server = createServer({ name: 'd', version: '1', onError: () => undefined });
  const conn = connectInMemory(server);
  const init = await conn.send(initializeRequest(capabilities));
  expect(init).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
  await conn.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { server, conn };
}

describe('dispatch: method names that exist on Object.prototype', () => {
  it.each(PROTOTYPE_NAMES)('modern %s -> -32601', async (method) => {
    const server = createServer({ name: 'd', version: '1', onError: () => undefined });
    const req = modern(method);
    const res = (await connectInMemory(server).send(req)) as JSONRPCErrorResponse;
    expect(res).toEqual({
      jsonrpc: '2.0',
      id: req.id,
      error: { code: -32601, message: `Method not found: ${method}`, data: { method } },
    });
  });

  it.each(PROTOTYPE_NAMES)('legacy %s -> -32601', async (method) => {
    const { conn } = await legacyConnection();
    const req = legacy(method, {});
    const res = await conn.send(req);
    expect(res).toMatchObject({ id: req.id, error: { code: -32601 } });
  });
});

// HTTP statuses per era moved to src/transports/http/status.test.ts, where the mapping lives.

describe('dispatch: responses from a legacy client', () => {
  it.each([
    ['error: null', { error: null }],
    ['error: "x"', { error: 'x' }],
    ['an error without a code', { error: { message: 'm' } }],
    ['result: null', { result: null }],
  ])('rejects the pending request promptly when the answer has %s', async (_what, answer) => {
    const { server, conn } = await legacyConnection({ elicitation: {} });
    let failure: unknown;
    server.tool('ask', {}, async (_args, ctx) => {
      try {
        await ctx.ask({
          x: {
            method: 'elicitation/create',
            params: { message: 'hi', requestedSchema: { type: 'object', properties: {} } },
          },
        });
      } catch (error) {
        failure = error;
        throw error;
      }
      return 'answered';
    });
    const call = conn.send(legacy('tools/call', { name: 'ask' }));
    await until(
      () => conn.received.some((m) => 'method' in m && m.method === 'elicitation/create'),
      'the server to ask',
    );
    const asked = conn.received.find(
      (m): m is JSONRPCMessage & { id: string } =>
        'method' in m && m.method === 'elicitation/create',
    )!;
    const reply = await conn.send({ jsonrpc: '2.0', id: asked.id, ...answer });
    expect(reply).toMatchObject({ id: null, error: { code: -32600 } });
    const result = await withTimeout(call, 1000, 'the tool call to end');
    expect(result).toMatchObject({ result: { isError: true } });
    expect(String(failure)).toMatch(/malformed/);
  });

  it('ignores a malformed answer that matches no pending request', async () => {
    const { conn } = await legacyConnection();
    const reply = await conn.send({ jsonrpc: '2.0', id: 'who', error: null });
    expect(reply).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe('dispatch: server.close() and subscriptions/listen', () => {
  it('ends a listen stream with its SubscriptionsListenResult', async () => {
    const server = createServer({ name: 'd', version: '1' });
    const conn = connectInMemory(server);
    const req = modern('subscriptions/listen', { notifications: { toolsListChanged: true } });
    const pending = conn.send(req);
    await until(() => server.listenerCount === 1, 'the listener to be added');
    server.close();
    expect(await withTimeout(pending, 1000, 'the listen result')).toMatchObject({
      id: req.id,
      result: { _meta: { 'io.modelcontextprotocol/subscriptionId': req.id } },
    });
  });

  it('still sends nothing for a listen the client cancelled', async () => {
    const server = createServer({ name: 'd', version: '1' });
    const conn = connectInMemory(server);
    const req = modern('subscriptions/listen', { notifications: { toolsListChanged: true } });
    const pending = conn.send(req);
    await until(() => server.listenerCount === 1, 'the listener to be added');
    await conn.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: req.id },
    });
    expect(await withTimeout(pending, 1000, 'the listen to end')).toBeUndefined();
    server.close();
  });
});
