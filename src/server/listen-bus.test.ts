/**
 * Listen streams and the change bus: what any instance publishes reaches every instance's
 * listeners once (a local change too), and a gap (events may have been lost) ends every open
 * stream with an error its client sees, so that it listens again and re-reads.
 */
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '../protocol/jsonrpc.js';
import { initializeRequest, legacy, modern } from '../testing/messages.js';
import { openListen } from '../testing/listen.js';
import { SseReader, withTimeout, modernPost } from '../testing/sse.js';
import { createHttpHandler } from '../transports/http/server/web-handler.js';
import { MemoryBus } from './change-bus.js';
import { createServer } from './server.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';
const listen = openListen;

function pair() {
  const bus = new MemoryBus();
  const warnings: string[] = [];
  const options = { version: '1', bus, onWarning: (m: string) => warnings.push(m) };
  return {
    bus,
    warnings,
    first: createServer({ name: 'first', ...options }),
    second: createServer({ name: 'second', ...options }),
  };
}

describe('servers sharing one bus', () => {
  it("an event published on the second reaches the first's listeners, and a local one arrives once", async () => {
    const { first, second } = pair();
    const a = await listen(first, {
      resourceSubscriptions: ['file:///d/'],
      resourcesListChanged: true,
    });
    second.notifyResourceUpdated('file:///d/x.md');
    second.notifyListChanged('resources');
    first.notifyResourceUpdated('file:///d/y.md');
    second.notifyResourceUpdated('file:///elsewhere.md');
    expect(a.frames()).toEqual([
      'resources/updated file:///d/x.md',
      'resources/list_changed',
      'resources/updated file:///d/y.md',
    ]);
    expect(a.sent.slice(1)).toEqual([
      expect.objectContaining({ params: { uri: 'file:///d/x.md', _meta: { [SUB]: a.req.id } } }),
      expect.objectContaining({
        method: 'notifications/resources/list_changed',
        params: { _meta: { [SUB]: a.req.id } },
      }),
      expect.objectContaining({ params: { uri: 'file:///d/y.md', _meta: { [SUB]: a.req.id } } }),
    ]);
    // Registering a tool on the second publishes too: nobody here asked for tools.
    second.tool('t', {}, () => 'x');
    expect(a.sent).toHaveLength(4);
    a.peer.close();
  });

  it("reaches the other instance's 2025-11-25 subscribers too, sub-resources included", async () => {
    const { first, second } = pair();
    const sent: JSONRPCMessage[] = [];
    const peer = first.connect({ transport: 'memory', send: (m) => sent.push(m) });
    await peer.handle(initializeRequest());
    await peer.handle(legacy('resources/subscribe', { uri: 'file:///d' }));
    second.notifyResourceUpdated('file:///d/x.md');
    second.notifyResourceUpdated('file:///dx.md');
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'file:///d/x.md' },
      },
    ]);
    peer.close();
  });
});

describe('a gap on the bus', () => {
  it('ends every open listen stream with -32603 (events-lost); the listens can open again and hear changes', async () => {
    const { bus, first, second, warnings } = pair();
    const a = await listen(first, { resourceSubscriptions: ['m://a'] });
    const b = await listen(second, { toolsListChanged: true });
    const detached: string[] = [];
    first.onAttach({ attach: () => undefined, detach: (u) => detached.push(u) });
    bus.gap('the connection to Redis dropped');
    for (const { pending, req } of [a, b]) {
      expect(await withTimeout(pending, 2000, 'the ended listen')).toEqual({
        jsonrpc: '2.0',
        id: req.id,
        error: {
          code: -32603,
          message: expect.stringMatching(
            /change events may have been lost \(the connection to Redis dropped\); listen again and re-read/,
          ),
          data: { reason: 'events-lost' },
        },
      });
    }
    expect([first.listenerCount, second.listenerCount]).toEqual([0, 0]);
    expect(detached).toEqual(['m://a']);
    expect(warnings).toEqual([
      expect.stringMatching(/ended 1 listen stream\(s\)/),
      expect.stringMatching(/ended 1 listen stream\(s\)/),
    ]);

    const again = await listen(first, { resourceSubscriptions: ['m://a'] });
    second.notifyResourceUpdated('m://a');
    expect(again.frames()).toEqual(['resources/updated m://a']);
    again.peer.close();
  });

  it('tells a 2025-11-25 session that what it follows may have changed (it has no stream to end)', async () => {
    const { bus, first, warnings } = pair();
    const sent: JSONRPCMessage[] = [];
    const peer = first.connect({ transport: 'memory', send: (m) => sent.push(m) });
    await peer.handle(initializeRequest());
    await peer.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await peer.handle(legacy('resources/subscribe', { uri: 'm://a' }));
    bus.gap('test');
    expect(sent.map((m) => ('method' in m ? m.method : '?'))).toEqual([
      'notifications/resources/updated',
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
      'notifications/resources/list_changed',
    ]);
    expect(sent[0]).toMatchObject({ params: { uri: 'm://a' } });
    expect(warnings).toEqual([expect.stringMatching(/ended 0 listen .*told 1 2025-11-25 session/)]);
    peer.close();
  });

  it('says nothing when nothing listens', () => {
    const { bus, warnings } = pair();
    bus.gap('quiet');
    expect(warnings).toEqual([]);
  });

  it('over HTTP: the SSE stream ends with the error as its last event', async () => {
    const { bus, first } = pair();
    const handle = createHttpHandler(first);
    const req = modern('subscriptions/listen', { notifications: { toolsListChanged: true } });
    const res = await handle(modernPost(req));
    const events = new SseReader(res.body);
    expect(await events.next()).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
    });
    bus.gap('redis down');
    expect(await events.rest(2000)).toEqual([
      {
        jsonrpc: '2.0',
        id: req.id,
        error: expect.objectContaining({ code: -32603, data: { reason: 'events-lost' } }),
      },
    ]);
    handle.close();
  });
});
