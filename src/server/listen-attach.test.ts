/**
 * Per-URI attach and detach, refcounted across listen streams and 2025-11-25 subscriptions: a
 * provider hears `attach(uri)` when the first interest in a URI opens and `detach(uri)` after the
 * last one closes, however they open and close; a hook that throws never breaks a listen.
 */
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '../protocol/jsonrpc.js';
import type { SubscriptionFilter } from '../protocol/types.js';
import { initializeRequest, legacy } from '../testing/messages.js';
import { openListen } from '../testing/listen.js';
import { testServer } from '../testing/server-core.js';
import { withTimeout } from '../testing/sse.js';
import type { McpServer } from './server.js';

function hooks(server: McpServer) {
  const log: string[] = [];
  const off = server.onAttach({
    attach: (u) => log.push(`+${u}`),
    detach: (u) => log.push(`-${u}`),
  });
  return { log, off };
}

/** A listen on its own connection; `cancel()` sends notifications/cancelled for it. */
async function listen(server: McpServer, filter: SubscriptionFilter) {
  const l = await openListen(server, filter);
  const cancel = async () => {
    expect(await l.cancel()).toBeUndefined();
  };
  return { ...l, cancel };
}

async function legacySession(server: McpServer) {
  const sent: JSONRPCMessage[] = [];
  const peer = server.connect({ transport: 'memory', send: (m) => sent.push(m) });
  await peer.handle(initializeRequest());
  await peer.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const subscribe = (uri: string) => peer.handle(legacy('resources/subscribe', { uri }));
  const unsubscribe = (uri: string) => peer.handle(legacy('resources/unsubscribe', { uri }));
  return { peer, sent, subscribe, unsubscribe };
}

describe('attach and detach hooks', () => {
  it('two listens on one URI and a legacy subscription attach once; detach comes after the last closes', async () => {
    const { server } = testServer();
    const { log } = hooks(server);
    const one = await listen(server, { resourceSubscriptions: ['m://doc'] });
    const two = await listen(server, { resourceSubscriptions: ['m://doc', 'm://other'] });
    const old = await legacySession(server);
    await old.subscribe('m://doc');
    expect(log).toEqual(['+m://doc', '+m://other']);
    expect(server.isAttached('m://doc')).toBe(true);
    expect(server.isAttached('m://doc/part')).toBe(true); // a sub-resource is covered

    await one.cancel();
    await two.cancel();
    expect(log).toEqual(['+m://doc', '+m://other', '-m://other']);
    expect(server.isAttached('m://doc')).toBe(true);
    await old.unsubscribe('m://doc');
    expect(log).toEqual(['+m://doc', '+m://other', '-m://other', '-m://doc']);
    expect(server.isAttached('m://doc')).toBe(false);
  });

  it('counts a URI named twice in one listen once', async () => {
    const { server } = testServer();
    const { log } = hooks(server);
    const a = await listen(server, { resourceSubscriptions: ['m://x', 'm://x'] });
    const b = await listen(server, { resourceSubscriptions: ['m://x'] });
    await a.cancel();
    expect(log).toEqual(['+m://x']);
    await b.cancel();
    expect(log).toEqual(['+m://x', '-m://x']);
  });

  it('releases a legacy session on close, and on a repeated initialize', async () => {
    const { server } = testServer();
    const { log } = hooks(server);
    const s = await legacySession(server);
    await s.subscribe('m://a');
    await s.subscribe('m://a'); // idempotent: still one interest
    await s.peer.handle(initializeRequest()); // a new session on the same connection
    expect(log).toEqual(['+m://a', '-m://a']);
    await s.subscribe('m://b');
    s.peer.close();
    expect(log).toEqual(['+m://a', '-m://a', '+m://b', '-m://b']);
    expect(server.isAttached('m://b')).toBe(false);
  });

  it('detaches when the listen ends any way: the client goes away, the server closes, a cut', async () => {
    const { server } = testServer({ onWarning: () => undefined });
    const { log } = hooks(server);
    const gone = await listen(server, { resourceSubscriptions: ['m://gone'] });
    gone.peer.close();
    await withTimeout(gone.pending, 2000, 'the listen of a closed connection');
    const closing = await listen(server, { resourceSubscriptions: ['m://closing'] });
    server.close();
    await withTimeout(closing.pending, 2000, 'the listen the server ended');
    expect(log).toEqual(['+m://gone', '-m://gone', '+m://closing', '-m://closing']);
  });

  it('tells a hook registered late what is attached already; its remover stops it', async () => {
    const { server } = testServer();
    const a = await listen(server, { resourceSubscriptions: ['m://early'] });
    const { log, off } = hooks(server);
    expect(log).toEqual(['+m://early']);
    off();
    await a.cancel();
    expect(log).toEqual(['+m://early']);
  });

  it('a hook that throws is reported through onWarning and breaks neither the listen nor the other hooks', async () => {
    const warnings: string[] = [];
    const { server } = testServer({ onWarning: (m) => warnings.push(m) });
    server.onAttach({
      attach: () => {
        throw new Error('watch failed');
      },
      detach: () => {
        throw new Error('unwatch failed');
      },
    });
    const { log } = hooks(server);
    const a = await listen(server, { resourceSubscriptions: ['m://f'] });
    server.notifyResourceUpdated('m://f');
    expect(a.sent.map((m) => ('method' in m ? m.method : '?'))).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/resources/updated',
    ]);
    await a.cancel();
    expect(log).toEqual(['+m://f', '-m://f']);
    expect(warnings).toEqual([
      expect.stringMatching(/attach hook threw for "m:\/\/f": Error: watch failed/),
      expect.stringMatching(/detach hook threw for "m:\/\/f": Error: unwatch failed/),
    ]);
  });

  it('a hook that reports a change as it attaches is heard after the acknowledgement', async () => {
    const { server } = testServer();
    server.onAttach({
      attach: (uri) => server.notifyResourceUpdated(uri),
      detach: () => undefined,
    });
    const a = await listen(server, { resourceSubscriptions: ['m://now'] });
    expect(a.sent.map((m) => ('method' in m ? m.method : '?'))).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/resources/updated',
    ]);
    await a.cancel();
  });

  it('the same hook registered twice is told twice and unregistered once per registration', async () => {
    const { server } = testServer();
    const log: string[] = [];
    const hook = {
      attach: (u: string) => log.push(`+${u}`),
      detach: (u: string) => log.push(`-${u}`),
    };
    const first = server.onAttach(hook);
    server.onAttach(hook);
    const l = await listen(server, { resourceSubscriptions: ['m://x'] });
    expect(log).toEqual(['+m://x', '+m://x']);
    first();
    await l.cancel();
    expect(log).toEqual(['+m://x', '+m://x', '-m://x']);
  });
});
