import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../errors/protocol-error.js';
import type { JSONRPCMessage, RequestId } from '../protocol/jsonrpc.js';
import type { SubscriptionFilter } from '../protocol/types.js';
import { modern } from '../testing/messages.js';
import { testServer } from '../testing/server-core.js';
import { until, withTimeout } from '../testing/sse.js';
import type { ChannelFlow } from './channel-flow.js';
import { ListenHub } from './listen-hub.js';
import type { Listener } from './listen-stream.js';

/** A channel that congests after `room` frames and drains when told, as an SSE sink does. */
class FakeChannel implements ChannelFlow {
  congested = false;
  bufferedBytes = 0;
  readonly sent: JSONRPCMessage[] = [];
  private drains: Array<() => void> = [];
  readonly notify: Listener['notify'];

  constructor(private room: number) {
    this.notify = (message: JSONRPCMessage) => {
      this.sent.push(message);
      this.bufferedBytes += JSON.stringify(message).length;
      if (--this.room <= 0) this.congested = true;
    };
  }

  onDrain(cb: () => void): void {
    this.drains.push(cb);
  }

  get waiting(): number {
    return this.drains.length;
  }

  /** The client took everything: room for `room` more frames. */
  drain(room: number): void {
    this.room = room;
    this.bufferedBytes = 0;
    this.congested = false;
    for (const cb of this.drains.splice(0)) cb();
  }

  /** What was sent, as URIs (`updated`) or `list:<kind>`. */
  keys(): string[] {
    return this.sent.map((m) => {
      const { method, params } = m as { method: string; params: { uri?: string } };
      return params.uri ?? `list:${method.split('/')[1]}`;
    });
  }
}

/** A hub whose streams may each queue `maxListenQueueBytes`, its warnings kept. */
function hubOf(maxListenQueueBytes?: number) {
  const warnings: string[] = [];
  const hub = new ListenHub({
    warn: (m) => warnings.push(m),
    ...(maxListenQueueBytes !== undefined ? { limits: { maxListenQueueBytes } } : {}),
  });
  return { hub, warnings };
}

function listen(
  hub: ListenHub,
  channel: FakeChannel,
  options: Partial<Listener> & { filter?: SubscriptionFilter } = {},
) {
  const ended: Array<ProtocolError | undefined> = [];
  const id: RequestId = options.id ?? 'L';
  const remove: () => void = hub.add({
    id,
    filter: options.filter ?? { resourceSubscriptions: ['mem://r/'], toolsListChanged: true },
    notify: channel.notify,
    flow: channel,
    end: (error) => {
      ended.push(error);
      remove();
    },
  });
  return { ended, remove };
}

describe('ListenHub backpressure', () => {
  it('writes straight through while the channel keeps up, holding nothing', () => {
    const hub = new ListenHub();
    const channel = new FakeChannel(Infinity);
    listen(hub, channel);
    for (let i = 0; i < 100; i++) hub.resourceUpdated(`mem://r/${i % 10}`);
    expect(channel.sent).toHaveLength(100);
    expect(channel.waiting).toBe(0);
  });

  it('holds frames while congested, each URI and list once, and sends them in order on drain', () => {
    const hub = new ListenHub();
    const channel = new FakeChannel(2);
    listen(hub, channel);
    hub.resourceUpdated('mem://r/a'); // written
    hub.resourceUpdated('mem://r/b'); // written; the channel is now congested
    expect(channel.waiting).toBe(1);
    hub.resourceUpdated('mem://r/a'); // held (a was written, this is a new change)
    hub.resourceUpdated('mem://r/c');
    hub.listChanged('tools');
    hub.resourceUpdated('mem://r/a');
    hub.resourceUpdated('mem://r/c');
    hub.listChanged('tools');
    expect(channel.keys(), 'nothing written while congested').toEqual(['mem://r/a', 'mem://r/b']);
    expect(channel.waiting).toBe(1);

    channel.drain(Infinity);
    expect(channel.keys()).toEqual([
      'mem://r/a',
      'mem://r/b',
      'mem://r/a',
      'mem://r/c',
      'list:tools',
    ]);
    channel.drain(Infinity); // everything held went out once: a second drain writes nothing
    expect(channel.sent).toHaveLength(5);
    hub.resourceUpdated('mem://r/d'); // straight through again
    expect(channel.keys().at(-1)).toBe('mem://r/d');
  });

  it('counts a held frame once however often it changes, and frees its bytes on drain', () => {
    // Room for the first frame and a held few: a repeat that counted, or bytes a drain did not
    // free, would pass the bound and end the stream within these rounds.
    const { hub } = hubOf(1000);
    const channel = new FakeChannel(1);
    const { ended } = listen(hub, channel);
    const uris = ['mem://r/a', 'mem://r/b', 'mem://r/c'];
    for (let round = 0; round < 50; round++) {
      for (let n = 0; n < 20; n++) for (const uri of uris) hub.resourceUpdated(uri);
      hub.listChanged('tools');
      channel.drain(0); // the client reads what was written and at once falls behind again
    }
    expect(ended).toEqual([]);
    expect(hub.size).toBe(1);
    expect(channel.sent.length).toBeLessThanOrEqual(1 + 50 * 4);
  });

  it('stops draining when the channel congests again, and resumes on the next drain', () => {
    const hub = new ListenHub();
    const channel = new FakeChannel(1);
    listen(hub, channel);
    for (let i = 0; i < 6; i++) hub.resourceUpdated(`mem://r/${i}`);
    expect(channel.sent).toHaveLength(1);
    channel.drain(2);
    expect(channel.keys()).toEqual(['mem://r/0', 'mem://r/1', 'mem://r/2']);
    hub.resourceUpdated('mem://r/1'); // written already: held again
    channel.drain(Infinity);
    expect(channel.keys()).toEqual([0, 1, 2, 3, 4, 5, 1].map((i) => `mem://r/${i}`));
  });

  it('cuts a stream whose queue passes maxQueueBytes: an error, a warning naming it, nothing kept', () => {
    const { hub, warnings } = hubOf(2000);
    const channel = new FakeChannel(1);
    const { ended } = listen(hub, channel, { id: 'slow-1' });
    let offered = 0;
    while (offered < 1000 && hub.size === 1) hub.resourceUpdated(`mem://r/${offered++}`);
    expect(hub.size).toBe(0);
    expect(offered).toBeLessThan(40);
    expect(ended).toHaveLength(1);
    expect(ended[0]).toBeInstanceOf(ProtocolError);
    expect(ended[0]).toMatchObject({ code: -32603, data: { maxListenQueueBytes: 2000 } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/subscriptions\/listen "slow-1".*maxListenQueueBytes \(2000\)/);
    const sent = channel.sent.length;
    channel.drain(Infinity); // a drain after the cut writes nothing
    expect(channel.sent).toHaveLength(sent);
  });

  it('owes a client at most maxQueueBytes: the longest run it survives delivers no more', () => {
    const offerUntilCut = (count: number) => {
      const { hub } = hubOf(2000);
      const channel = new FakeChannel(1);
      const { ended } = listen(hub, channel);
      let offered = 0;
      while (offered < count && ended.length === 0) hub.resourceUpdated(`mem://r/${offered++}`);
      return { channel, ended, offered };
    };
    const cut = offerUntilCut(1000);
    expect(cut.ended).toHaveLength(1);
    // One update fewer is not cut; what the client then gets is what the stream was owing it.
    const { channel, ended } = offerUntilCut(cut.offered - 1);
    expect(ended).toEqual([]);
    channel.drain(Infinity);
    expect(channel.sent).toHaveLength(cut.offered - 1);
    const bytes = channel.sent.map((m) => JSON.stringify(m).length);
    const owed = bytes.reduce((a, b) => a + b, 0);
    expect(owed).toBeLessThanOrEqual(2000);
    expect(owed + Math.max(...bytes)).toBeGreaterThan(2000); // and the bound is used, not undercut
  });

  it('counts what the channel buffered against the limit', () => {
    const { hub } = hubOf(5000);
    const channel = new FakeChannel(1);
    const { ended } = listen(hub, channel);
    hub.resourceUpdated('mem://r/first');
    channel.bufferedBytes = 4990;
    hub.resourceUpdated('mem://r/second');
    expect(ended).toHaveLength(1);
  });

  it('drops what a removed stream held; its drain writes nothing', () => {
    const hub = new ListenHub();
    const channel = new FakeChannel(1);
    const { remove, ended } = listen(hub, channel);
    for (let i = 0; i < 5; i++) hub.resourceUpdated(`mem://r/${i}`);
    expect(channel.sent).toHaveLength(1);
    remove();
    channel.drain(Infinity);
    expect(channel.sent).toHaveLength(1);
    expect(ended).toEqual([]);
  });

  it('keeps streams on one shared channel apart (stdio)', () => {
    const hub = new ListenHub();
    const channel = new FakeChannel(1);
    listen(hub, channel, { id: 'a' });
    listen(hub, channel, { id: 'b' });
    hub.resourceUpdated('mem://r/x'); // a writes and congests; b writes, sees it, and holds
    hub.resourceUpdated('mem://r/x'); // both hold
    expect(channel.sent).toHaveLength(2);
    channel.drain(Infinity);
    const ids = channel.sent.map(
      (m) => (m as unknown as { params: { _meta: Record<string, unknown> } }).params._meta,
    );
    expect(ids.map((meta) => Object.values(meta)[0])).toEqual(['a', 'b', 'a', 'b']);
  });
});

describe('subscriptions/listen cut for falling behind', () => {
  it('answers -32603, logs through onWarning, and the listener is gone', async () => {
    const warnings: string[] = [];
    const { server } = testServer({
      maxListenQueueBytes: 1500,
      onWarning: (m) => warnings.push(m),
    });
    const peer = server.connect({ transport: 'memory', send: () => undefined });
    const channel = new FakeChannel(2); // the acknowledgement and one update, then congested
    const req = modern('subscriptions/listen', {
      notifications: { resourceSubscriptions: ['mem://r/'] },
    });
    const pending = peer.handle(req, { notify: channel.notify, flow: channel });
    await until(() => server.listenerCount === 1, 'the listener to be added');
    for (let i = 0; i < 1000 && server.listenerCount === 1; i++) {
      server.notifyResourceUpdated(`mem://r/${i}`);
    }
    expect(await withTimeout(pending, 1000, 'the listen answer')).toMatchObject({
      id: req.id,
      error: { code: -32603, data: { maxListenQueueBytes: 1500 } },
    });
    expect(server.listenerCount).toBe(0);
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(`ended subscriptions/listen ${JSON.stringify(req.id)}.*\\(1500\\)`),
      ),
    ]);
  });
});
