/**
 * Every listen bound at its edge: at the limit works, one past fails with an error naming the
 * option. maxListens and maxListenUris refuse before the acknowledgement; maxListenPendingUris
 * ends a stream whose client stopped reading, as maxListenQueueBytes does.
 */
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '../protocol/jsonrpc.js';
import type { SubscriptionFilter } from '../protocol/types.js';
import { initializeRequest, legacy, modern } from '../testing/messages.js';
import { coreOf, testServer } from '../testing/server-core.js';
import { until, withTimeout } from '../testing/sse.js';
import type { ChannelFlow } from './channel-flow.js';
import type { McpServer } from './server.js';
import { createServer } from './server.js';

/** A channel whose congestion the test sets; drains when told. */
class Channel implements ChannelFlow {
  congested = false;
  bufferedBytes = 0;
  readonly sent: JSONRPCMessage[] = [];
  private drains: Array<() => void> = [];
  readonly notify = (m: JSONRPCMessage): void => void this.sent.push(m);
  onDrain(cb: () => void): void {
    this.drains.push(cb);
  }
  drain(): void {
    this.congested = false;
    for (const cb of this.drains.splice(0)) cb();
  }
  methods(): string[] {
    return this.sent.map((m) => ('method' in m ? m.method : '?'));
  }
}

function open(server: McpServer, filter: SubscriptionFilter, channel = new Channel()) {
  const peer = server.connect({ transport: 'memory', send: () => undefined });
  const req = modern('subscriptions/listen', { notifications: filter });
  const pending = peer.handle(req, { notify: channel.notify, flow: channel });
  return { req, pending, channel, peer };
}

const answer = (pending: Promise<unknown>) => withTimeout(pending, 2000, 'the listen answer');

describe('maxListens', () => {
  it('opens the limit, refuses one more before acknowledging it (-32603 naming the option), and has room again after a close', async () => {
    const { server } = testServer({ maxListens: 2 });
    const a = open(server, { toolsListChanged: true });
    const b = open(server, { toolsListChanged: true });
    await until(() => server.listenerCount === 2, 'two listens');
    const c = open(server, { toolsListChanged: true });
    const refused = await answer(c.pending);
    expect(refused).toMatchObject({
      id: c.req.id,
      error: {
        code: -32603,
        message: expect.stringMatching(/maxListens/),
        data: { maxListens: 2, reason: 'too-many-listens' },
      },
    });
    expect(c.channel.sent).toEqual([]);
    expect(server.listenerCount).toBe(2);
    a.peer.close();
    await until(() => server.listenerCount === 1, 'a closed');
    const d = open(server, { toolsListChanged: true });
    await until(() => server.listenerCount === 2, 'room again');
    expect(d.channel.methods()).toEqual(['notifications/subscriptions/acknowledged']);
    for (const x of [b, d]) x.peer.close();
  });
});

describe('maxListenUris', () => {
  it('takes exactly the limit, and answers one URI more with -32602 naming the field and the limit', async () => {
    const { server } = testServer({ maxListenUris: 3 });
    const attached: string[] = [];
    server.onAttach({ attach: (u) => attached.push(u), detach: () => undefined });
    const ok = open(server, { resourceSubscriptions: ['m://1', 'm://2', 'm://3'] });
    await until(() => server.listenerCount === 1, 'the listen at the limit');
    const over = open(server, { resourceSubscriptions: ['m://1', 'm://2', 'm://3', 'm://4'] });
    expect(await answer(over.pending)).toMatchObject({
      id: over.req.id,
      error: {
        code: -32602,
        message: expect.stringMatching(
          /notifications\.resourceSubscriptions names 4 URIs, more than maxListenUris \(3\)/,
        ),
        data: { field: 'params.notifications.resourceSubscriptions', maxListenUris: 3 },
      },
    });
    expect(over.channel.sent).toEqual([]);
    expect(attached).toEqual(['m://1', 'm://2', 'm://3']);
    ok.peer.close();
  });

  it('bounds a 2025-11-25 session the same way: the limit subscribes, one URI more is -32602', async () => {
    const { server } = testServer({ maxListenUris: 2 });
    const peer = server.connect({ transport: 'memory', send: () => undefined });
    await peer.handle(initializeRequest());
    const sub = (uri: string) => peer.handle(legacy('resources/subscribe', { uri }));
    expect(await sub('m://a')).toMatchObject({ result: {} });
    expect(await sub('m://b')).toMatchObject({ result: {} });
    expect(await sub('m://a')).toMatchObject({ result: {} }); // held already: no more room needed
    expect(await sub('m://c')).toMatchObject({
      error: {
        code: -32602,
        message: expect.stringMatching(/maxListenUris/),
        data: { field: 'params.uri', maxListenUris: 2 },
      },
    });
    expect(server.isAttached('m://c')).toBe(false);
    await peer.handle(legacy('resources/unsubscribe', { uri: 'm://a' }));
    expect(await sub('m://c')).toMatchObject({ result: {} });
    peer.close();
  });
});

describe('maxListenPendingUris', () => {
  it('holds the limit of distinct URIs for a client that stopped reading; one more ends the stream (-32603, fell-behind)', async () => {
    const warnings: string[] = [];
    const { server } = testServer({
      maxListenPendingUris: 3,
      onWarning: (m) => warnings.push(m),
    });
    const detached: string[] = [];
    server.onAttach({ attach: () => undefined, detach: (u) => detached.push(u) });
    const { req, pending, channel } = open(server, {
      resourceSubscriptions: ['m://r/'],
      toolsListChanged: true,
    });
    await until(() => server.listenerCount === 1, 'the listen');
    channel.congested = true;
    server.notifyResourceUpdated('m://r/0'); // written, then the stream holds
    for (const i of [1, 2, 3, 1, 2, 3]) server.notifyResourceUpdated(`m://r/${i}`);
    server.notifyListChanged('tools'); // a list is not a URI: it does not count
    expect(server.listenerCount).toBe(1);
    const beforeCut = channel.methods();
    server.notifyResourceUpdated('m://r/4');
    expect(await answer(pending)).toMatchObject({
      id: req.id,
      error: {
        code: -32603,
        message: expect.stringMatching(/maxListenPendingUris/),
        data: { maxListenPendingUris: 3, reason: 'fell-behind' },
      },
    });
    expect(server.listenerCount).toBe(0);
    // Written before the stream held: the acknowledgement and r/0; nothing held went out.
    expect(beforeCut).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/resources/updated',
    ]);
    expect(detached).toEqual(['m://r/']);
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(`ended subscriptions/listen ${req.id}: .*maxListenPendingUris 3`),
      ),
    ]);
    const written = channel.sent.length;
    channel.drain(); // nothing held is written after the cut
    expect(channel.sent).toHaveLength(written);
  });

  it('writes what it held, each URI once, when the reader catches up: a slow reader ends with every distinct change', async () => {
    const { server } = testServer({ maxListenPendingUris: 10 });
    const { channel, peer } = open(server, { resourceSubscriptions: ['m://r/'] });
    await until(() => server.listenerCount === 1, 'the listen');
    channel.congested = true;
    for (let i = 0; i < 1000; i++) server.notifyResourceUpdated(`m://r/${i % 10}`);
    // r/0 went out before the stream held; its later changes are held once, like the others.
    expect(channel.sent, 'nothing written while congested').toHaveLength(2);
    channel.drain();
    const uris = channel.sent
      .slice(1)
      .map((m) => (m as unknown as { params: { uri: string } }).params.uri);
    const rest = Array.from({ length: 9 }, (_, i) => `m://r/${i + 1}`);
    expect(uris).toEqual(['m://r/0', ...rest, 'm://r/0']);
    expect(server.listenerCount).toBe(1);
    peer.close();
  });
});

describe('listen options are checked when the server is built', () => {
  it.each([
    'maxListens',
    'maxListenUris',
    'maxListenPendingUris',
    'maxListenQueueBytes',
    'maxListenQueueTotalBytes',
  ])('%s: 1 is taken; 0, -1, 1.5, NaN and a string are refused naming it', (name) => {
    expect(() => createServer({ name: 's', version: '1', [name]: 1 })).not.toThrow();
    for (const bad of [0, -1, 1.5, Number.NaN, '5']) {
      expect(() => createServer({ name: 's', version: '1', [name]: bad as number })).toThrow(
        new RangeError(`${name} must be a positive integer, got ${String(bad)}`),
      );
    }
  });

  it('has the documented defaults', () => {
    expect(coreOf(createServer({ name: 's', version: '1' })).listen.limits).toEqual({
      maxListens: 10_000,
      maxListenUris: 1024,
      maxListenPendingUris: 1024,
      maxListenQueueBytes: 4 * 1024 * 1024,
      maxListenQueueTotalBytes: 16 * 1024 * 1024,
    });
  });
});
