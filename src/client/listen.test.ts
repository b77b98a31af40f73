import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { McpKitError } from '../errors/index.js';
import type { JSONRPCNotification, RequestId, SubscriptionFilter } from '../protocol/index.js';
import { ScriptedTransport, result, settle, silence } from '../testing/scripted-transport.js';
import type { Reply, Script } from '../testing/scripted-transport.js';
import { McpClient } from './client.js';
import type { ListenNotification, ListenStream } from './listen.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';

const frame = (
  id: RequestId,
  method: string,
  params: Record<string, unknown> = {},
): JSONRPCNotification => ({
  jsonrpc: '2.0',
  method,
  params: { ...params, _meta: { [SUB]: id } },
});
const ack = (id: RequestId, notifications: SubscriptionFilter) =>
  frame(id, 'notifications/subscriptions/acknowledged', { notifications });

/** A listen that is acknowledged with what was asked (or `grant`), then stays open. */
function acking(
  grant?: SubscriptionFilter,
): (m: { id: RequestId; params?: Record<string, unknown> }) => Reply {
  return (m) => ({
    before: [ack(m.id, grant ?? (m.params?.['notifications'] as SubscriptionFilter))],
    then: silence,
  });
}

async function modern(script: Script = acking(), kind: 'stdio' | 'http' = 'http') {
  const t = new ScriptedTransport({ kind }).modern().onRequest('subscriptions/listen', script);
  const c = await new McpClient({ transport: t }).connect();
  return { t, c };
}

const listenId = (t: ScriptedTransport, n = 0) => t.requests('subscriptions/listen')[n]!.id;

async function take(stream: ListenStream, n: number): Promise<ListenNotification[]> {
  const out: ListenNotification[] = [];
  for await (const note of stream) {
    out.push(note);
    if (out.length === n) break;
  }
  return out;
}

describe('listen (2026-07-28)', () => {
  it('resolves after the acknowledgement, with the filter, _meta and headers of a long-lived request', async () => {
    let answer: (() => void) | undefined;
    const { t, c } = await modern(
      (m) =>
        new Promise<Reply>((resolve) => {
          answer = () =>
            resolve({ before: [ack(m.id, { toolsListChanged: true })], then: silence });
        }),
    );
    let resolved = false;
    const pending = c.listen({ toolsListChanged: true }).then((s) => ((resolved = true), s));
    await settle();
    expect(resolved).toBe(false);
    answer!();
    const stream = await pending;
    expect(stream.acknowledged).toEqual({ toolsListChanged: true });
    const record = t.last('subscriptions/listen');
    expect(record.longLived).toBe(true);
    expect(record.headers['Mcp-Method']).toBe('subscriptions/listen');
    expect(record.message).toMatchObject({
      params: {
        notifications: { toolsListChanged: true },
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
      },
    });
  });

  it('frames are matched by subscription id', async () => {
    const { t, c } = await modern();
    const tools = await c.listen({ toolsListChanged: true });
    const res = await c.listen({ resourceSubscriptions: ['file:///d/'] });
    const [a, b] = [listenId(t, 0), listenId(t, 1)];
    t.push(frame(b, 'notifications/resources/updated', { uri: 'file:///d/x' }));
    t.push(frame(a, 'notifications/tools/list_changed'));
    t.push(frame(b, 'notifications/resources/updated', { uri: 'file:///elsewhere' }));
    expect((await take(tools, 1)).map((n) => n.method)).toEqual([
      'notifications/tools/list_changed',
    ]);
    const [update] = await take(res, 1);
    expect(update).toMatchObject({
      method: 'notifications/resources/updated',
      params: { uri: 'file:///d/x' },
    });
    expect(c.warnings.map((w) => w.code)).toEqual(['LISTEN_UNREQUESTED']);
  });

  it('frames before the acknowledgement are ignored with a warning', async () => {
    const { c } = await modern((m) => ({
      before: [
        frame(m.id, 'notifications/tools/list_changed'),
        ack(m.id, { toolsListChanged: true }),
      ],
      then: silence,
    }));
    const stream = await c.listen({ toolsListChanged: true });
    expect(c.warnings.map((w) => w.code)).toEqual(['LISTEN_ORDER']);
    await stream.close();
    expect(await take(stream, 1)).toEqual([]);
  });

  it('unrequested types are ignored with a warning', async () => {
    const { t, c } = await modern();
    const stream = await c.listen({ promptsListChanged: true });
    t.push(frame(listenId(t), 'notifications/tools/list_changed'));
    t.push(frame(listenId(t), 'notifications/prompts/list_changed'));
    expect((await take(stream, 1)).map((n) => n.method)).toEqual([
      'notifications/prompts/list_changed',
    ]);
    expect(c.warnings.map((w) => w.code)).toEqual(['LISTEN_UNREQUESTED']);
  });

  it('an acknowledgement granting more than was asked warns', async () => {
    const { c } = await modern(acking({ toolsListChanged: true, promptsListChanged: true }));
    const stream = await c.listen({ toolsListChanged: true });
    expect(stream.acknowledged).toEqual({ toolsListChanged: true, promptsListChanged: true });
    expect(c.warnings).toEqual([
      expect.objectContaining({
        code: 'LISTEN_ACK_MISMATCH',
        message: expect.stringContaining('promptsListChanged'),
      }),
    ]);
  });

  it("the server's URIs in an acknowledgement warning are escaped", async () => {
    const { c } = await modern(acking({ resourceSubscriptions: ['file:///a\u001b[2J\u202e'] }));
    await c.listen({ toolsListChanged: true });
    const warning = c.warnings.find((w) => w.code === 'LISTEN_ACK_MISMATCH');
    expect(warning?.message).toContain('\\u001b[2J\\u202e');
    expect(warning?.message).not.toMatch(/[\u001b\u202e]/);
  });

  it.each([
    [{ resourceSubscriptions: 5 }, 'resourceSubscriptions'],
    [{ resourceSubscriptions: [{}] }, 'resourceSubscriptions[0]'],
    ['all', 'notifications'],
  ])(
    'a malformed acknowledgement (%j) fails the listen, naming the field',
    async (grant, field) => {
      const { t, c } = await modern(acking(grant as SubscriptionFilter));
      const error = await c.listen({ toolsListChanged: true }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpKitError);
      expect(error).toMatchObject({ code: 'INVALID_RESPONSE' });
      expect((error as Error).message).toContain(`params.notifications`);
      expect((error as Error).message).toContain(field);
      // The listen was given up: the server is told.
      expect(t.cancelled.map((x) => x.id)).toEqual([listenId(t)]);
    },
  );

  it('the graceful listen result ends the iterator', async () => {
    const { t, c } = await modern();
    const stream = await c.listen({ toolsListChanged: true });
    const id = listenId(t);
    t.push(frame(id, 'notifications/tools/list_changed'));
    t.answer(id, result({ resultType: 'complete', _meta: { [SUB]: id } }));
    const seen: string[] = [];
    for await (const n of stream) seen.push(n.method);
    expect(seen).toEqual(['notifications/tools/list_changed']);
    expect(stream.closed).toBe(true);
    await stream.close();
    expect(t.cancelled).toEqual([]);
  });

  it.each([
    ['without', false],
    ['with', true],
  ])(
    'notifications/cancelled for the listen id (%s subscriptionId) ends it',
    async (_w, withMeta) => {
      const { t, c } = await modern();
      const stream = await c.listen({ toolsListChanged: true });
      const id = listenId(t);
      const params = withMeta ? { requestId: id, _meta: { [SUB]: id } } : { requestId: id };
      t.pushNotification('notifications/cancelled', params);
      expect(await take(stream, 1)).toEqual([]);
      expect(stream.closed).toBe(true);
      expect(c.warnings).toEqual([]);
      expect(t.cancelled).toEqual([]);
      await settle();
      // The listen request was forgotten: a late answer for its id is a stray.
      t.answer(id, result({}));
      expect(c.warnings.map((w) => w.code)).toEqual(['UNKNOWN_RESPONSE']);
    },
  );

  it('notifications/cancelled before the acknowledgement fails listen() at once', async () => {
    const { c } = await modern((m) => ({
      before: [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: m.id } }],
      then: silence,
    }));
    const started = Date.now();
    await expect(c.listen({ toolsListChanged: true }, { timeoutMs: 20_000 })).rejects.toMatchObject(
      {
        code: 'STREAM_INTERRUPTED',
      },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('close() cancels through the transport and ends the iterator', async () => {
    const { t, c } = await modern();
    const stream = await c.listen({ toolsListChanged: true });
    const waiting = take(stream, 1);
    await stream.close();
    expect(await waiting).toEqual([]);
    expect(t.cancelled.map((x) => x.id)).toEqual([listenId(t)]);
    t.push(frame(listenId(t), 'notifications/tools/list_changed'));
    expect(await take(stream, 1)).toEqual([]);
  });

  it('breaking out of for await closes the stream', async () => {
    const { t, c } = await modern();
    const stream = await c.listen({ toolsListChanged: true });
    t.push(frame(listenId(t), 'notifications/tools/list_changed'));
    await take(stream, 1);
    expect(t.cancelled.map((x) => x.id)).toEqual([listenId(t)]);
  });

  it('no acknowledgement in time: REQUEST_TIMEOUT, and the listen is cancelled', async () => {
    const { t, c } = await modern(() => silence);
    await expect(c.listen({ toolsListChanged: true }, { timeoutMs: 15 })).rejects.toMatchObject({
      code: 'REQUEST_TIMEOUT',
    });
    expect(t.cancelled.map((x) => x.id)).toEqual([listenId(t)]);
  });

  it('an answer before the acknowledgement is STREAM_INTERRUPTED', async () => {
    const { c } = await modern(() => result({ resultType: 'complete' }));
    await expect(c.listen({ toolsListChanged: true })).rejects.toMatchObject({
      code: 'STREAM_INTERRUPTED',
    });
  });

  it('the connection closing ends the stream with its error; requestFailed(undefined) too', async () => {
    const { t, c } = await modern();
    const a = await c.listen({ toolsListChanged: true });
    t.failRequest(undefined, new McpKitError('RESPONSE_TOO_LARGE', 'a huge line'));
    await expect(take(a, 1)).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    const b = await c.listen({ toolsListChanged: true });
    t.closeWithError();
    await expect(take(b, 1)).rejects.toMatchObject({ code: 'SERVER_EXITED' });
  });

  it('its signal aborted before the acknowledgement: REQUEST_CANCELLED, and the listen is cancelled', async () => {
    const { t, c } = await modern(() => silence);
    const abort = new AbortController();
    const opening = c.listen(
      { toolsListChanged: true },
      { signal: abort.signal, timeoutMs: 20_000 },
    );
    await settle();
    abort.abort();
    await expect(opening).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    expect(t.cancelled.map((x) => x.id)).toEqual([listenId(t)]);
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
  });

  it('its signal aborted already: REQUEST_CANCELLED', async () => {
    const { c } = await modern();
    await expect(
      c.listen({ toolsListChanged: true }, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
  });

  it('its signal aborted once open closes the stream, as close() does', async () => {
    const { t, c } = await modern();
    const abort = new AbortController();
    const stream = await c.listen({ toolsListChanged: true }, { signal: abort.signal });
    const waiting = take(stream, 1);
    abort.abort();
    expect(await waiting).toEqual([]);
    expect(stream.closed).toBe(true);
    expect(t.cancelled.map((x) => x.id)).toEqual([listenId(t)]);
  });

  it('a stream that ended takes its listener off a signal that outlives it', async () => {
    const { c } = await modern();
    const abort = new AbortController();
    const streams = [];
    for (let i = 0; i < 3; i++)
      streams.push(await c.listen({ toolsListChanged: true }, { signal: abort.signal }));
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(3);
    for (const stream of streams) await stream.close();
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
  });

  it('a stream the server ended before listen() returned leaves no listener on its signal', async () => {
    const { c } = await modern((m) => ({
      before: [ack(m.id, { toolsListChanged: true })],
      then: result({}),
    }));
    const abort = new AbortController();
    const stream = await c.listen({ toolsListChanged: true }, { signal: abort.signal });
    await settle();
    expect(stream.closed).toBe(true);
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
  });

  it('with relisten, its signal aborted closes the stream and it does not listen again', async () => {
    const { t, c } = await modern();
    const abort = new AbortController();
    const stream = await c.listen(
      { toolsListChanged: true },
      { signal: abort.signal, relisten: { minDelayMs: 1, maxDelayMs: 2 } },
    );
    const waiting = (async () => {
      const out = [];
      for await (const note of stream) out.push(note);
      return out;
    })();
    abort.abort();
    expect(await waiting).toEqual([]);
    expect(stream.closed).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(t.requests('subscriptions/listen')).toHaveLength(1);
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
  });

  it('client.close() ends open streams quietly', async () => {
    const { c } = await modern();
    const stream = await c.listen({ toolsListChanged: true });
    await c.close();
    expect(await take(stream, 1)).toEqual([]);
  });

  it('a flood of 100k notifications keeps the queue bounded and counts what it dropped', async () => {
    const { t, c } = await modern();
    const stream = await c.listen({ resourceSubscriptions: ['file:///'] });
    const id = listenId(t);
    const started = Date.now();
    for (let i = 0; i < 100_000; i++) {
      t.push(frame(id, 'notifications/resources/updated', { uri: `file:///f${i}` }));
    }
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(stream.dropped).toBe(99_000);
    const [first] = await take(stream, 1);
    expect(first!.params['uri']).toBe('file:///f99000');
    expect(c.warnings).toEqual([]);
  });

  it('listen is also invalidating the cache for the frames it carries', async () => {
    const { t, c } = await modern();
    t.onRequest('resources/read', (m) =>
      result({
        contents: [{ uri: String(m.params?.['uri']), text: 'x' }],
        resultType: 'complete',
        ttlMs: 60_000,
        cacheScope: 'public',
      }),
    );
    await c.listen({ resourceSubscriptions: ['mem://a'] });
    await c.readResource('mem://a');
    t.push(frame(listenId(t), 'notifications/resources/updated', { uri: 'mem://a' }));
    await c.readResource('mem://a');
    expect(t.requests('resources/read')).toHaveLength(2);
  });
});

describe('listen (2025-11-25)', () => {
  async function legacy() {
    const t = new ScriptedTransport({ kind: 'http' })
      .legacy()
      .onRequest('resources/subscribe', result({}))
      .onRequest('resources/unsubscribe', result({}));
    const c = await new McpClient({ transport: t }).connect();
    return { t, c };
  }
  const uris = (t: ScriptedTransport, method: string) =>
    t.requests(method).map((r) => r.params['uri']);

  it('subscribes per URI, fans updates out, and unsubscribes on close()', async () => {
    const { t, c } = await legacy();
    const a = await c.listen({
      resourceSubscriptions: ['mem://a', 'mem://b'],
      toolsListChanged: true,
    });
    const b = await c.listen({ resourceSubscriptions: ['mem://b'] });
    expect(uris(t, 'resources/subscribe')).toEqual(['mem://a', 'mem://b', 'mem://b']);
    expect(t.requests('subscriptions/listen')).toHaveLength(0);
    expect(a.acknowledged).toEqual({
      resourceSubscriptions: ['mem://a', 'mem://b'],
      toolsListChanged: true,
    });
    t.pushNotification('notifications/resources/updated', { uri: 'mem://b' });
    t.pushNotification('notifications/tools/list_changed');
    expect((await take(a, 2)).map((n) => n.method)).toEqual([
      'notifications/resources/updated',
      'notifications/tools/list_changed',
    ]);
    expect((await take(b, 1))[0]!.params).toEqual({ uri: 'mem://b' });
    expect(uris(t, 'resources/unsubscribe')).toEqual(['mem://a', 'mem://b']);
  });

  it('closing one stream keeps a URI another stream still wants subscribed', async () => {
    const { t, c } = await legacy();
    const a = await c.listen({ resourceSubscriptions: ['mem://x'] });
    const b = await c.listen({ resourceSubscriptions: ['mem://x'] });
    await a.close();
    expect(uris(t, 'resources/unsubscribe')).toEqual([]);
    t.pushNotification('notifications/resources/updated', { uri: 'mem://x' });
    expect((await take(b, 1))[0]!.params).toEqual({ uri: 'mem://x' });
    expect(uris(t, 'resources/unsubscribe')).toEqual(['mem://x']);
  });

  it('its signal aborted unsubscribes, as close() does', async () => {
    const { t, c } = await legacy();
    const abort = new AbortController();
    const stream = await c.listen({ resourceSubscriptions: ['mem://s'] }, { signal: abort.signal });
    abort.abort();
    await settle();
    expect(stream.closed).toBe(true);
    expect(uris(t, 'resources/unsubscribe')).toEqual(['mem://s']);
  });

  it('its signal aborted while it subscribes: REQUEST_CANCELLED, and what it held is released', async () => {
    const { t, c } = await legacy();
    const abort = new AbortController();
    const opening = c.listen(
      { resourceSubscriptions: ['mem://p', 'mem://q'] },
      { signal: abort.signal },
    );
    abort.abort();
    await expect(opening).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    expect(uris(t, 'resources/subscribe')).toEqual(['mem://p']);
    expect(uris(t, 'resources/unsubscribe')).toEqual(['mem://p']);
  });

  it('notifications no stream wants go to onNotification', async () => {
    const t = new ScriptedTransport().legacy();
    const seen: string[] = [];
    await new McpClient({ transport: t, onNotification: (n) => seen.push(n.method) }).connect();
    t.pushNotification('notifications/message', { level: 'info', data: 'hi' });
    expect(seen).toEqual(['notifications/message']);
  });
});
