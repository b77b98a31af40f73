import { afterAll, describe, expect, it } from 'vitest';
import { modern } from '../../../testing/messages.js';
import { coreOf } from '../../../testing/server-core.js';
import { SseReader, until, modernPost } from '../../../testing/sse.js';
import { createServer } from '../../../server/server.js';
import { createHttpHandler } from './web-handler.js';

// The web handler's SSE body reports backpressure through its ReadableStream (desiredSize):
// listen streams hold and coalesce frames while the reader is behind, and end past the limit.
const LIMIT = 64 * 1024;
const warnings: string[] = [];
const server = createServer({
  name: 'web-slow-readers',
  version: '1',
  maxListenQueueBytes: LIMIT,
  onWarning: (m) => warnings.push(m),
});
const handle = createHttpHandler(server);
const hub = () => coreOf(server).listen;
const big = (i: number) => `mem://big/${i}/${'p'.repeat(2000)}`;

afterAll(() => {
  handle.close();
  server.close();
});

async function openListen() {
  const req = modern('subscriptions/listen', {
    notifications: { resourceSubscriptions: ['mem://big/'] },
  });
  const res = await handle(modernPost(req));
  const events = new SseReader(res.body);
  expect(await events.next()).toMatchObject({
    method: 'notifications/subscriptions/acknowledged',
  });
  expect(server.listenerCount).toBe(1);
  return { id: req.id, events };
}

describe('createHttpHandler: listen streams and a reader that falls behind', () => {
  it('holds frames past the high-water mark, each URI once, and sends them in order as the reader catches up', async () => {
    const { events } = await openListen();
    const sent: string[] = [];
    const send = (uri: string) => {
      sent.push(uri);
      server.notifyResourceUpdated(uri);
    };
    for (let i = 0; i < 20; i++) send(big(i));
    const held = hub().queued;
    expect(held.frames).toBeGreaterThan(5);
    expect(held.maxQueuedBytes).toBeLessThan(LIMIT);
    send(big(19)); // held already
    send(big(18));
    expect(hub().queued).toEqual(held);
    send(big(0)); // written already: a new change, held once
    const distinct = [...new Set(sent)];
    const got: string[] = [];
    for (let n = 0; n < 25 && got.length < distinct.length + 1; n++) {
      const m = (await events.next()) as { params?: { uri?: string } } | undefined;
      if (m?.params?.uri) got.push(m.params.uri);
    }
    expect(got).toEqual([...distinct, big(0)]);
    expect(hub().queued.frames).toBe(0);
    await events.cancel();
    await until(() => server.listenerCount === 0, 'the listener to be removed');
  });

  it('ends the stream past maxListenQueueBytes: the reader finds the error last', async () => {
    const { id, events } = await openListen();
    let most = 0;
    for (let i = 0; i < 1000 && server.listenerCount === 1; i++) {
      server.notifyResourceUpdated(big(i));
      most = Math.max(most, hub().queued.maxQueuedBytes);
    }
    expect(server.listenerCount).toBe(0);
    expect(most).toBeLessThanOrEqual(LIMIT);
    expect(warnings.at(-1)).toMatch(
      new RegExp(`ended subscriptions/listen ${id}: .*maxListenQueueBytes \\(${LIMIT}\\)`),
    );
    const rest = await events.rest();
    expect(rest.at(-1)).toMatchObject({
      id,
      error: { code: -32603, data: { maxListenQueueBytes: LIMIT } },
    });
    expect(rest.length).toBeLessThan(40);
  });

  it('drops what a stream held when its reader cancels', async () => {
    const { events } = await openListen();
    for (let i = 0; i < 20; i++) server.notifyResourceUpdated(big(i));
    expect(hub().queued.frames).toBeGreaterThan(0);
    await events.cancel();
    await until(() => server.listenerCount === 0, 'the listener to be removed');
    expect(hub().queued).toEqual({ frames: 0, heldBytes: 0, maxQueuedBytes: 0 });
  });
});
