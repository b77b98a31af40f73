/**
 * The web-fetch requester ties each request to its Abort for the body's life and no longer:
 * one Abort may serve many requests (a session's GET stream, reopened), and a finished one must
 * neither be aborted later nor stay subscribed.
 */
import { describe, expect, it } from 'vitest';
import { Abort } from './client-abort.js';
import { FetchRequester, type HttpRequest } from './client-requester.js';

/** A fetch that answers `body()` and records each request's signal. */
function recording(body: () => string | ReadableStream<Uint8Array> | null) {
  const signals: AbortSignal[] = [];
  const fetchFn = (async (_url: unknown, init?: RequestInit) => {
    signals.push(init?.signal as AbortSignal);
    return new Response(body(), { status: 200 });
  }) as typeof globalThis.fetch;
  return { signals, requester: new FetchRequester(fetchFn) };
}

const requestOf = (signal: Abort): HttpRequest => ({
  method: 'GET',
  url: new URL('http://127.0.0.1/mcp'),
  headers: {},
  signal,
});

/** A body that sends one chunk and then waits. */
const endless = () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('data: x\n\n'));
    },
  });

describe('FetchRequester and its abort', () => {
  it('a body read to its end, read as text, cancelled or empty lets go of the shared abort', async () => {
    const { signals, requester } = recording(() => 'answer');
    const abort = new Abort();
    const a = await requester.request(requestOf(abort));
    while ((await a.read()) !== undefined);
    expect(await (await requester.request(requestOf(abort))).readText(1024)).toBe('answer');
    await (await requester.request(requestOf(abort))).cancel();
    const empty = recording(() => null);
    await empty.requester.request(requestOf(abort));
    abort.abort();
    expect([...signals, ...empty.signals].map((s) => s.aborted)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('a body still being read is stopped by the abort', async () => {
    const { signals, requester } = recording(endless);
    const abort = new Abort();
    const answer = await requester.request(requestOf(abort));
    expect(await answer.read()).toBeDefined();
    abort.abort();
    // fetch's own signal: a real fetch then fails the body's next read.
    expect(signals[0]?.aborted).toBe(true);
    await answer.cancel();
  });

  it('a fetch that fails lets go of the abort too', async () => {
    const signals: AbortSignal[] = [];
    const requester = new FetchRequester((async (_url: unknown, init?: RequestInit) => {
      signals.push(init?.signal as AbortSignal);
      throw new TypeError('fetch failed');
    }) as typeof globalThis.fetch);
    const abort = new Abort();
    await expect(requester.request(requestOf(abort))).rejects.toThrow('fetch failed');
    abort.abort();
    expect(signals[0]?.aborted).toBe(false);
  });

  it('a waiter aborted as its slot is handed over is not sent, and gives the slot back', async () => {
    const fetched: string[] = [];
    const requester = new FetchRequester(
      (async (url: URL | string) => {
        fetched.push(String(url));
        return new Response(endless(), { status: 200 });
      }) as typeof globalThis.fetch,
      { maxSockets: 1 },
    );
    const first = new Abort();
    const second = new Abort();
    await requester.request(requestOf(first));
    const waiting = requester.request({ ...requestOf(second), url: new URL('http://127.0.0.1/b') });
    // What closing the transport does: every request aborted in one go.
    first.abort();
    second.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(fetched).toEqual(['http://127.0.0.1/mcp']);
    // The slot is free again.
    const third = await requester.request(requestOf(new Abort()));
    await third.cancel();
    expect(fetched).toHaveLength(2);
  });
});
