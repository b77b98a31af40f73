import { afterAll, describe, expect, it } from 'vitest';
import { modern } from '../../../testing/messages.js';
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
    // Held already: were they written instead, the reader would get them twice.
    for (let n = 0; n < 5; n++) send(big(19 - (n % 2)));
    send(big(0)); // written already: a new change, held once
    const distinct = [...new Set(sent)];
    const got: string[] = [];
    for (let n = 0; n < 25 && got.length < distinct.length + 1; n++) {
      const m = (await events.next()) as { params?: { uri?: string } } | undefined;
      if (m?.params?.uri) got.push(m.params.uri);
    }
    expect(got).toEqual([...distinct, big(0)]);
    expect(server.listenerCount).toBe(1);
    await events.cancel();
    await until(() => server.listenerCount === 0, 'the listener to be removed');
  });

  it('ends the stream past maxListenQueueBytes: the reader finds the error last', async () => {
    const { id, events } = await openListen();
    let offered = 0;
    while (offered < 1000 && server.listenerCount === 1)
      server.notifyResourceUpdated(big(offered++));
    expect(server.listenerCount).toBe(0);
    expect(warnings.at(-1)).toMatch(
      new RegExp(`ended subscriptions/listen ${id}: .*maxListenQueueBytes \\(${LIMIT}\\)`),
    );
    const rest = await events.rest();
    expect(rest.at(-1)).toMatchObject({
      id,
      error: { code: -32603, data: { maxListenQueueBytes: LIMIT } },
    });
    // What the reader was owed stays within the limit: the frames written before the error.
    const written = rest.slice(0, -1);
    expect(written.map((m) => (m as { params: { uri: string } }).params.uri)).toEqual(
      Array.from({ length: written.length }, (_, i) => big(i)),
    );
    expect(JSON.stringify(written).length).toBeLessThanOrEqual(LIMIT);
    expect(offered).toBeLessThan(LIMIT / 2000);
  });

  it('removes a stream that holds frames when its reader cancels', async () => {
    const { events } = await openListen();
    for (let i = 0; i < 20; i++) server.notifyResourceUpdated(big(i));
    await events.cancel();
    await until(() => server.listenerCount === 0, 'the listener to be removed');
  });
});
