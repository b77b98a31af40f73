// listen({ relisten }) against a real mcpkit server in memory: a bus gap ends the server's listen
// streams (events-lost); the client listens again and yields resync frames, then live updates.
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBus } from '../server/change-bus.js';
import { createServer } from '../server/server.js';
import { MemoryClientTransport } from '../testing/memory-client-transport.js';
import { McpClient } from './client.js';
import { RESYNC_META } from './resilient-listen.js';

const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function open(era: 'modern' | 'legacy') {
  const bus = new MemoryBus();
  const server = createServer({ name: 's', version: '1', bus });
  server.resource('note://a', { name: 'a', mimeType: 'text/plain' }, () => 'a');
  const client = new McpClient({ transport: new MemoryClientTransport(server), era });
  clients.push(client);
  await client.connect();
  return { bus, server, client };
}

describe('listen with relisten against a real server', () => {
  it('2026-07-28: a gap ends the stream; the client listens again, resyncs, and hears what follows', async () => {
    const { bus, server, client } = await open('modern');
    const relistened: unknown[] = [];
    const stream = await client.listen(
      { resourceSubscriptions: ['note://a'], resourcesListChanged: true },
      { relisten: { minDelayMs: 1, maxDelayMs: 5, onRelisten: (i) => relistened.push(i.cause) } },
    );
    const seen: string[] = [];
    const it = stream[Symbol.asyncIterator]();
    server.notifyResourceUpdated('note://a');
    const first = await it.next();
    seen.push(`${first.value?.method} ${String(first.value?.params['uri'])}`);
    bus.gap('test: events were lost');
    for (let i = 0; i < 2; i++) {
      const r = await it.next();
      expect(r.value?.params['_meta']).toEqual({ [RESYNC_META]: true });
      seen.push(`resync ${r.value?.method}`);
    }
    server.notifyResourceUpdated('note://a');
    const live = await it.next();
    seen.push(`${live.value?.method} ${String(live.value?.params['uri'])}`);
    expect(seen).toEqual([
      'notifications/resources/updated note://a',
      'resync notifications/resources/list_changed',
      'resync notifications/resources/updated',
      'notifications/resources/updated note://a',
    ]);
    expect(stream.relistens).toBe(1);
    expect(relistened[0]).toMatchObject({ code: -32603, data: { reason: 'events-lost' } });
    await stream.close();
    await new Promise((r) => setTimeout(r, 10));
    expect(server.listenerCount).toBe(0);
  });
});
