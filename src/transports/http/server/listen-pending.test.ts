import { afterAll, describe, expect, it } from 'vitest';
import { modern } from '../../../testing/messages.js';
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
    // Distinct updates, each followed by repeats, until the stream is cut; the reader reads none.
    const sent: string[] = [];
    for (let i = 0; i < 10_000 && server.listenerCount === 1; i++) {
      for (let n = 0; n < 3 && server.listenerCount === 1; n++) {
        sent.push(big(i));
        server.notifyResourceUpdated(big(i));
      }
    }
    expect(server.listenerCount).toBe(0);
    const rest = await events.rest();
    expect(rest.at(-1)).toMatchObject({
      id: req.id,
      error: { code: -32603, data: { maxListenPendingUris: PENDING, reason: 'fell-behind' } },
    });
    // The reader gets what was written before the stream held, in order, never a held frame;
    // what came after it and before the cut is exactly the limit of distinct URIs.
    const written = rest.slice(0, -1).map((m) => (m as { params: { uri: string } }).params.uri);
    expect(written.length).toBeGreaterThan(0);
    expect(written).toEqual(sent.slice(0, written.length));
    const held = new Set(sent.slice(written.length, -1));
    expect(held.size).toBe(PENDING);
    expect(held.has(sent.at(-1) as string)).toBe(false);
    expect(warnings).toEqual([expect.stringMatching(/maxListenPendingUris 5/)]);
  });
});
