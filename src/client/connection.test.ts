import { describe, expect, it, vi } from 'vitest';
import { McpKitError } from '../errors/index.js';
import type { JSONRPCNotification, JSONRPCRequest } from '../protocol/index.js';
import { ScriptedTransport, result, settle, silence } from '../testing/scripted-transport.js';
import { McpClient } from './client.js';
import { Connection } from './connection.js';

function setup() {
  const t = new ScriptedTransport().otherwise(silence);
  const events = {
    notifications: [] as JSONRPCNotification[],
    serverRequests: [] as JSONRPCRequest[],
    warnings: [] as { code: string; message: string }[],
    closed: [] as McpKitError[],
  };
  const conn = new Connection(t, {
    notification: (n) => events.notifications.push(n),
    serverRequest: (r) => events.serverRequests.push(r),
    warn: (code, message) => events.warnings.push({ code, message }),
    closed: (e) => events.closed.push(e),
  });
  return { t, conn, events };
}

describe('Connection', () => {
  it('resolves with the result of its own id only', async () => {
    const { t, conn, events } = setup();
    await conn.start();
    const a = conn.send('a', {});
    const b = conn.send('b', {});
    expect(a.id).not.toBe(b.id);
    t.answer(b.id, result({ v: 'b' }));
    t.answer(a.id, result({ v: 'a' }));
    expect(await a.done).toEqual({ v: 'a' });
    expect(await b.done).toEqual({ v: 'b' });
    // Settled requests are gone: a second answer for either is a stray.
    t.answer(a.id, result({}));
    t.answer(b.id, result({}));
    expect(events.warnings.map((w) => w.code)).toEqual(['UNKNOWN_RESPONSE', 'UNKNOWN_RESPONSE']);
  });

  it('a timeout rejects with REQUEST_TIMEOUT and cancels through the transport', async () => {
    const { t, conn, events } = setup();
    await conn.start();
    const { id, done } = conn.send('tools/call', {}, { timeoutMs: 15 });
    await expect(done).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(t.cancelled).toEqual([{ id, reason: 'timed out after 15 ms' }]);
    // A late answer is only a warning: the request was forgotten.
    t.answer(id, result({}));
    expect(events.warnings.map((w) => w.code)).toEqual(['UNKNOWN_RESPONSE']);
  });

  it('an AbortSignal rejects with REQUEST_CANCELLED and cancels through the transport', async () => {
    const { t, conn, events } = setup();
    await conn.start();
    const abort = new AbortController();
    const { id, done } = conn.send('tools/call', {}, { signal: abort.signal, timeoutMs: 1000 });
    abort.abort('user gave up');
    await expect(done).rejects.toMatchObject({ code: 'REQUEST_CANCELLED', cause: 'user gave up' });
    expect(t.cancelled.map((c) => c.id)).toEqual([id]);
    // A late answer is only a warning.
    t.answer(id, result({}));
    expect(events.warnings.map((w) => w.code)).toEqual(['UNKNOWN_RESPONSE']);
  });

  it('an already aborted signal sends nothing', async () => {
    const { t, conn } = setup();
    await conn.start();
    const abort = new AbortController();
    abort.abort();
    await expect(conn.send('x', {}, { signal: abort.signal }).done).rejects.toMatchObject({
      code: 'REQUEST_CANCELLED',
    });
    expect(t.sent).toHaveLength(0);
    expect(t.cancelled).toHaveLength(0);
  });

  it('routes progress by token, to the right request only', async () => {
    const { t, conn, events } = setup();
    await conn.start();
    const seenA: unknown[] = [];
    const seenB: unknown[] = [];
    const a = conn.send('a', { _meta: { keep: 1 } }, { onProgress: (p) => seenA.push(p) });
    const b = conn.send('b', {}, { onProgress: (p) => seenB.push(p) });
    const tokenA = (t.requests('a')[0]!.params['_meta'] as Record<string, unknown>)[
      'progressToken'
    ];
    const tokenB = (t.requests('b')[0]!.params['_meta'] as Record<string, unknown>)[
      'progressToken'
    ];
    expect(tokenA).not.toBe(tokenB);
    expect(t.requests('a')[0]!.params['_meta']).toMatchObject({ keep: 1 });
    t.pushNotification('notifications/progress', { progressToken: tokenB, progress: 1, total: 2 });
    t.pushNotification('notifications/progress', {
      progressToken: tokenA,
      progress: 0.5,
      message: 'half',
    });
    t.pushNotification('notifications/progress', { progressToken: 'nobody', progress: 1 });
    expect(seenA).toEqual([{ progress: 0.5, message: 'half' }]);
    expect(seenB).toEqual([{ progress: 1, total: 2 }]);
    expect(events.notifications.map((n) => n.params?.['progressToken'])).toEqual(['nobody']);
    t.answer(a.id, result({}));
    t.answer(b.id, result({}));
    await Promise.all([a.done, b.done]);
    // After the answer the token is no one's.
    t.pushNotification('notifications/progress', { progressToken: tokenA, progress: 1 });
    expect(seenA).toHaveLength(1);
  });

  it('a throwing onProgress is a warning, the request goes on', async () => {
    const { t, conn, events } = setup();
    await conn.start();
    const a = conn.send(
      'a',
      {},
      {
        onProgress: () => {
          throw new Error('boom');
        },
      },
    );
    const token = (t.requests('a')[0]!.params['_meta'] as Record<string, unknown>)['progressToken'];
    t.pushNotification('notifications/progress', { progressToken: token, progress: 1 });
    t.answer(a.id, result({ ok: true }));
    expect(await a.done).toEqual({ ok: true });
    expect(events.warnings.map((w) => w.code)).toEqual(['HANDLER_FAILED']);
  });

  it('an answer for an unknown id is a warning and changes nothing else', async () => {
    const { t, conn, events } = setup();
    await conn.start();
    const a = conn.send('a', {});
    t.answer(9999, result({ stray: true }));
    t.push({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    expect(events.warnings.map((w) => w.code)).toEqual(['UNKNOWN_RESPONSE', 'UNKNOWN_RESPONSE']);
    t.answer(a.id, result({ mine: true }));
    expect(await a.done).toEqual({ mine: true });
  });

  it('requestFailed(id) fails that request only; requestFailed(undefined) fails all', async () => {
    const { t, conn, events } = setup();
    await conn.start();
    const a = conn.send('a', {});
    const b = conn.send('b', {});
    const c = conn.send('c', {});
    const d = conn.send('d', {});
    t.failRequest(a.id, new McpKitError('RESPONSE_TOO_LARGE', 'too big'));
    await expect(a.done).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    t.answer(b.id, result({ b: true })); // b was left in flight
    expect(await b.done).toEqual({ b: true });
    t.failRequest(undefined, new McpKitError('RESPONSE_TOO_LARGE', 'a line without an id'));
    await expect(c.done).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    await expect(d.done).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    t.answer(c.id, result({}));
    expect(events.warnings.map((w) => w.code)).toEqual(['UNKNOWN_RESPONSE']);
  });

  it('closed fails all in flight and every later send until start()', async () => {
    const { t, conn, events } = setup();
    await conn.start();
    const a = conn.send('a', {});
    t.closeWithError(new McpKitError('SERVER_EXITED', 'exit code 2'));
    await expect(a.done).rejects.toMatchObject({ code: 'SERVER_EXITED' });
    await expect(conn.send('b', {}).done).rejects.toMatchObject({ code: 'SERVER_EXITED' });
    expect(events.closed.map((e) => e.code)).toEqual(['SERVER_EXITED']);
    await conn.start();
    const c = conn.send('c', {});
    t.answer(c.id, result({}));
    await expect(c.done).resolves.toEqual({});
  });

  it('a transport that cannot send rejects that request, wrapping foreign errors', async () => {
    const { t, conn, events } = setup();
    await conn.start();
    vi.spyOn(t, 'request').mockRejectedValueOnce(new TypeError('socket gone'));
    const a = conn.send('a', {});
    await expect(a.done).rejects.toMatchObject({ code: 'PEER_CLOSED' });
    vi.spyOn(t, 'request').mockImplementationOnce(() => {
      throw new McpKitError('REQUEST_UNSENDABLE', 'over the cap');
    });
    const b = conn.send('b', {}, { timeoutMs: 5 });
    await expect(b.done).rejects.toMatchObject({
      code: 'REQUEST_UNSENDABLE',
    });
    await settle(10);
    expect(t.cancelled).toHaveLength(0); // its deadline went with it
    t.answer(a.id, result({}));
    t.answer(b.id, result({}));
    expect(events.warnings.map((w) => w.code)).toEqual(['UNKNOWN_RESPONSE', 'UNKNOWN_RESPONSE']);
  });

  it('server requests and other notifications go to the events', async () => {
    const { t, conn, events } = setup();
    await conn.start();
    t.push({ jsonrpc: '2.0', id: 'srv-1', method: 'ping' });
    t.pushNotification('notifications/message', { level: 'info', data: 'x' });
    expect(events.serverRequests.map((r) => r.id)).toEqual(['srv-1']);
    expect(events.notifications.map((n) => n.method)).toEqual(['notifications/message']);
  });
});

describe('McpClient requests', () => {
  it('requestTimeoutMs is the default timeout, RequestOptions.timeoutMs overrides it', async () => {
    const t = new ScriptedTransport().modern().onRequest('tools/call', silence);
    const c = await new McpClient({ transport: t, requestTimeoutMs: 10 }).connect();
    await expect(c.callTool('x')).rejects.toMatchObject({
      code: 'REQUEST_TIMEOUT',
      message: expect.stringContaining('tools/call'),
    });
    const slow = c.callTool('y', {}, { timeoutMs: 0 });
    await settle(30);
    t.answer(t.requests('tools/call')[1]!.id, result({ content: [], resultType: 'complete' }));
    await expect(slow).resolves.toMatchObject({ content: [] });
    expect(t.cancelled).toHaveLength(1);
  });

  it('a closed transport ends the client: in-flight fail, later calls NOT_CONNECTED', async () => {
    const t = new ScriptedTransport().modern().onRequest('tools/call', silence);
    const c = await new McpClient({ transport: t }).connect();
    const call = c.callTool('x');
    await settle();
    t.closeWithError();
    await expect(call).rejects.toMatchObject({ code: 'SERVER_EXITED' });
    expect(c.connected).toBe(false);
    await expect(c.callTool('x')).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    await c.reconnect();
    expect(c.connected).toBe(true);
    expect(t.starts).toBe(2);
  });

  it('close() fails what is in flight with PEER_CLOSED', async () => {
    const t = new ScriptedTransport().modern().onRequest('tools/call', silence);
    const c = await new McpClient({ transport: t }).connect();
    const call = c.callTool('x');
    await settle();
    await c.close();
    await expect(call).rejects.toMatchObject({ code: 'PEER_CLOSED' });
    await expect(c.callTool('x')).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  it('a warning hook that throws does not fail the request', async () => {
    const t = new ScriptedTransport().modern().onRequest('tools/call', result({ content: [] })); // no resultType: repaired
    const c = await new McpClient({
      transport: t,
      onWarning: () => {
        throw new Error('bad hook');
      },
    }).connect();
    await expect(c.callTool('x')).resolves.toMatchObject({ resultType: 'complete' });
    expect(c.warnings.map((w) => w.code)).toContain('REPAIRED_RESULT');
  });

  it('an AbortSignal cancels a client request through the transport', async () => {
    const t = new ScriptedTransport().modern().onRequest('tools/call', silence);
    const c = await new McpClient({ transport: t }).connect();
    const abort = new AbortController();
    const call = c.callTool('x', {}, { signal: abort.signal });
    await settle();
    abort.abort();
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    expect(t.cancelled.map((x) => x.id)).toEqual([t.requests('tools/call')[0]!.id]);
  });

  it('progress reaches the caller of a client request', async () => {
    const t = new ScriptedTransport().modern().onRequest('tools/call', (m) => {
      const token = (m.params?.['_meta'] as Record<string, unknown>)['progressToken'];
      return {
        before: [
          {
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken: token, progress: 1, total: 4 },
          },
        ],
        then: result({ content: [], resultType: 'complete' }),
      };
    });
    const c = await new McpClient({ transport: t }).connect();
    const seen: unknown[] = [];
    await c.callTool('x', {}, { onProgress: (p) => seen.push(p) });
    expect(seen).toEqual([{ progress: 1, total: 4 }]);
  });

  it('2025-11-25: a lost HTTP session is initialized again once and the request retried', async () => {
    const t = new ScriptedTransport({ kind: 'http' })
      .legacy()
      .onRequests('tools/call', [
        { fail: new McpKitError('SESSION_EXPIRED', 'the session is gone (404)') },
        result({ content: [] }),
      ]);
    const c = await new McpClient({ transport: t }).connect();
    await expect(c.callTool('x')).resolves.toMatchObject({ content: [] });
    expect(t.resets).toBe(1);
    expect(t.requests('initialize')).toHaveLength(2);
    expect(t.requests('tools/call')).toHaveLength(2);
  });
});
