/**
 * SSE keep-alive comments on HTTP listen streams: `: keep-alive` lines every `keepAliveMs`
 * (default 15 s) so that proxies keep an idle listen open, none while the client is not reading,
 * and no timer left once the stream ends.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { modern } from '../../../testing/messages.js';
import { SseReader, until, modernPost } from '../../../testing/sse.js';
import { createServer } from '../../../server/server.js';
import type { SseSink } from './exchange.js';
import { DEFAULT_KEEP_ALIVE_MS, keepAliveMsOf } from './options.js';
import { startKeepAlive } from './sse.js';
import { createHttpHandler } from './web-handler.js';

async function openListen(handle: (r: Request) => Promise<Response>) {
  const req = modern('subscriptions/listen', {
    notifications: { resourceSubscriptions: ['m://'] },
  });
  const res = await handle(modernPost(req));
  return { req, events: new SseReader(res.body) };
}

/** Counts the intervals set and not yet cleared while `run` runs. */
async function liveIntervals(run: () => Promise<void>): Promise<{ set: number; live: number }> {
  const live = new Set<unknown>();
  let set = 0;
  const realSet = globalThis.setInterval;
  const realClear = globalThis.clearInterval;
  const spySet = vi.spyOn(globalThis, 'setInterval').mockImplementation(((
    ...args: Parameters<typeof setInterval>
  ) => {
    const t = realSet(...args);
    live.add(t);
    set++;
    return t;
  }) as typeof setInterval);
  const spyClear = vi.spyOn(globalThis, 'clearInterval').mockImplementation(((
    t: Parameters<typeof clearInterval>[0],
  ) => {
    live.delete(t);
    realClear(t);
  }) as typeof clearInterval);
  try {
    await run();
    return { set, live: live.size };
  } finally {
    spySet.mockRestore();
    spyClear.mockRestore();
    for (const t of live) realClear(t as never);
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('keep-alive comments on listen streams', () => {
  it('writes `: keep-alive` comment lines between frames, and clears its timer when the stream ends', async () => {
    const server = createServer({ name: 'ka', version: '1' });
    const handle = createHttpHandler(server, { keepAliveMs: 10 });
    const counts = await liveIntervals(async () => {
      const { req, events } = await openListen(handle);
      expect((await events.nextBlock())?.data).toMatchObject({
        method: 'notifications/subscriptions/acknowledged',
      });
      const comment = await events.nextBlock();
      expect(comment).toEqual({ event: undefined, data: undefined, comments: ['keep-alive'] });
      server.notifyResourceUpdated('m://x');
      let frame = await events.nextBlock();
      while (frame?.data === undefined) frame = await events.nextBlock();
      expect(frame.data).toMatchObject({ params: { uri: 'm://x' } });
      server.close(); // the graceful end: the result, then the stream closes
      expect(await events.rest()).toEqual([expect.objectContaining({ id: req.id })]);
    });
    expect(counts.set).toBeGreaterThanOrEqual(1);
    expect(counts.live).toBe(0);
    handle.close();
  });

  it('keepAliveMs 0 sets no timer at all', async () => {
    const server = createServer({ name: 'ka0', version: '1' });
    const handle = createHttpHandler(server, { keepAliveMs: 0 });
    const counts = await liveIntervals(async () => {
      const { events } = await openListen(handle);
      expect(await events.next()).toMatchObject({
        method: 'notifications/subscriptions/acknowledged',
      });
      await events.cancel();
      await until(() => server.listenerCount === 0, 'the listen to end');
    });
    expect(counts.set).toBe(0);
    handle.close();
  });

  it('skips the comment while the client is not reading (it would only grow the buffer)', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const sink = {
      congested: true,
      bufferedBytes: 0,
      write: (chunk: string | Uint8Array) => {
        writes.push(String(chunk));
        return true;
      },
      end: () => undefined,
      onDrain: () => undefined,
    } as SseSink;
    const stop = startKeepAlive(sink, 1000);
    vi.advanceTimersByTime(3000);
    expect(writes).toEqual([]);
    (sink as { congested: boolean }).congested = false;
    vi.advanceTimersByTime(1000);
    expect(writes).toEqual([': keep-alive\n\n']);
    stop();
    vi.advanceTimersByTime(5000);
    expect(writes).toHaveLength(1);
  });
});

describe('keepAliveMs', () => {
  it('defaults to 15 s and takes 0 (off) up to the longest timer, 2147483647 ms', () => {
    expect(DEFAULT_KEEP_ALIVE_MS).toBe(15_000);
    expect(keepAliveMsOf({})).toBe(15_000);
    expect(keepAliveMsOf({ keepAliveMs: 0 })).toBe(0);
    expect(keepAliveMsOf({ keepAliveMs: 2_147_483_647 })).toBe(2_147_483_647);
  });

  it.each([-1, 2_147_483_648, 1.5, Number.NaN])(
    'refuses %s naming the option, when the handler is made',
    (bad) => {
      const message = `http: keepAliveMs must be an integer from 0 (no keep-alive comments) to 2147483647, got ${String(bad)}`;
      expect(() => keepAliveMsOf({ keepAliveMs: bad })).toThrow(new RangeError(message));
      const server = createServer({ name: 'bad', version: '1' });
      expect(() => createHttpHandler(server, { keepAliveMs: bad })).toThrow(message);
    },
  );
});
