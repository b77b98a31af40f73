import { afterAll, describe, expect, it } from 'vitest';
import { modern } from '../../../testing/messages.js';
import { coreOf } from '../../../testing/server-core.js';
import { SseReader, until, modernPost } from '../../../testing/sse.js';
import { createServer } from '../../../server/server.js';
import { createHttpHandler } from './web-handler.js';

// A reader that falls behind over HTTP: the stream holds at most maxListenPendingUris distinct
// URIs (each once), and one more ends it with the error as its last event, as the byte bound does.
const PENDING = 5;
const warnings: string[] = [];
const server = createServer({
  name: 'web-pending',
  version: '1',
  maxListenPendingUris: PENDING,
  onWarning: (m) => warnings.push(m),
});
const handle = createHttpHandler(server, { keepAliveMs: 0 });
const hub = () => coreOf(server).listen;
const big = (i: number) => `mem://big/${i}/${'p'.repeat(2000)}`;

afterAll(() => {
  handle.close();
  server.close();
});

describe('createHttpHandler: maxListenPendingUris', () => {
  it('holds the limit while the reader is behind, and ends the stream at one URI more', async () => {
    const req = modern('subscriptions/listen', {
      notifications: { resourceSubscriptions: ['mem://big/'] },
    });
    const res = await handle(modernPost(req));
    const events = new SseReader(res.body);
    expect(await events.next()).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
    });
    await until(() => server.listenerCount === 1, 'the listen');
    // Distinct updates until the stream holds one: the reader is behind from here on.
    let i = 0;
    while (hub().queued.frames === 0 && i < 10_000) server.notifyResourceUpdated(big(i++));
    expect(hub().queued.frames).toBe(1);
    for (let n = 0; n < PENDING - 1; n++) server.notifyResourceUpdated(big(i++));
    for (let n = 0; n < 3; n++) server.notifyResourceUpdated(big(i - 1)); // held already
    expect(hub().queued.frames).toBe(PENDING);
    expect(server.listenerCount).toBe(1);
    server.notifyResourceUpdated(big(i++));
    expect(server.listenerCount).toBe(0);
    const rest = await events.rest();
    expect(rest.at(-1)).toMatchObject({
      id: req.id,
      error: { code: -32603, data: { maxListenPendingUris: PENDING, reason: 'fell-behind' } },
    });
    // What was written before the stream held, never the held frames.
    expect(rest.length - 1).toBeLessThanOrEqual(i - PENDING - 1);
    expect(warnings).toEqual([expect.stringMatching(/maxListenPendingUris 5/)]);
  });
});
