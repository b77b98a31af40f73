/**
 * Two McpServers on one shared MemoryBus, as two instances on one Redis: a listener on either
 * counts on both (the attach hooks fire on the first listener anywhere and after the last one
 * everywhere), an instance that stops refreshing expires, and a server on a private bus pays
 * nothing for any of it. Every wait has a deadline.
 */
import { describe, expect, it } from 'vitest';
import { initializeRequest, legacy } from '../testing/messages.js';
import { openListen } from '../testing/listen.js';
import { until } from '../testing/sse.js';
import { MemoryBus, type ChangeBus, type InterestMessage } from './change-bus.js';
import type { InterestSync } from './interest-sync.js';
import type { ServerOptions } from './options.js';
import { createServer, type McpServer } from './server.js';

const listen = openListen;
const syncOf = (server: McpServer): InterestSync | undefined => server['interest'];

function hooks(server: McpServer) {
  const log: string[] = [];
  server.onAttach({ attach: (u) => log.push(`+${u}`), detach: (u) => log.push(`-${u}`) });
  return log;
}

/** A shared bus as one instance sees it: `cut()` drops what it sends and hears, as a dead link would. */
function link(bus: MemoryBus) {
  let cut = false;
  const sent: InterestMessage[] = [];
  const view: ChangeBus = {
    shared: true,
    publish: (e) => bus.publish(e),
    subscribe: (h) => bus.subscribe(h),
    onGap: (h) => bus.onGap(h),
    close: async () => undefined,
    publishInterest: (m) => {
      sent.push(m);
      if (!cut) bus.publishInterest(m);
    },
    subscribeInterest: (h) => bus.subscribeInterest((m) => void (cut || h(m))),
  };
  return { view, sent, cut: (on = true) => (cut = on) };
}

function server(name: string, bus: ChangeBus, extra: Partial<ServerOptions> = {}) {
  const warnings: string[] = [];
  const s = createServer({
    name,
    version: '1',
    bus,
    onError: () => undefined,
    onWarning: (m) => warnings.push(m),
    ...extra,
  });
  return { s, warnings };
}

describe('servers sharing one bus: a listener on any instance counts', () => {
  it("a listen on B attaches its URI on A's hooks; ending it detaches there", async () => {
    const bus = new MemoryBus({ shared: true });
    const a = server('a', bus).s;
    const b = server('b', bus).s;
    const onA = hooks(a);
    const onB = hooks(b);
    const l = await listen(b, { resourceSubscriptions: ['file:///d/a.md', 'file:///d/sub/'] });
    await until(() => onA.length === 2, "A's attach hooks");
    expect(onA).toEqual(['+file:///d/a.md', '+file:///d/sub/']);
    expect(onB).toEqual(onA);
    expect(a.isAttached('file:///d/sub/x.md')).toBe(true);
    expect(a.isAttached('file:///d/b.md')).toBe(false);

    // A listener on A as well: A's hooks do not fire again, and B leaving does not detach.
    const la = await listen(a, { resourceSubscriptions: ['file:///d/a.md'] });
    await l.cancel();
    await until(() => onA.length === 3, "A's detach of what only B named");
    expect(onA.slice(2)).toEqual(['-file:///d/sub/']);
    // B still hears A's listener: its hooks keep a.md attached.
    expect(onB).toEqual(['+file:///d/a.md', '+file:///d/sub/', '-file:///d/sub/']);
    expect(b.isAttached('file:///d/a.md')).toBe(true);
    await la.cancel();
    await until(() => onB.length === 4, "B's detach of a.md");
    expect(onA.at(-1)).toEqual('-file:///d/a.md');
    a.close();
    b.close();
  });

  it("a legacy subscription counts too, and a server's close detaches what it announced", async () => {
    const bus = new MemoryBus({ shared: true });
    const a = server('a', bus).s;
    const b = server('b', bus).s;
    const onA = hooks(a);
    const peer = b.connect({ transport: 'memory', send: () => undefined });
    await peer.handle(initializeRequest());
    await peer.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await peer.handle(legacy('resources/subscribe', { uri: 'm://old' }));
    await until(() => onA.length === 1, "A's attach of the legacy subscription");
    b.close();
    expect(onA).toEqual(['+m://old', '-m://old']);
    expect(syncOf(a)?.remote.size).toBe(0);
    a.close();
  });

  it('a server that starts late hears at once what the others listen to (its query is answered)', async () => {
    const bus = new MemoryBus({ shared: true });
    const a = server('a', bus).s;
    await listen(a, { resourceSubscriptions: ['m://early'] });
    const late = server('late', bus, { interestRefreshMs: 60_000 }).s;
    // No refresh is due for a minute: only the answer to the late server's query can tell it.
    await until(() => late.isAttached('m://early'), 'the late server to hear of m://early');
    a.close();
    expect(late.isAttached('m://early')).toBe(false);
    late.close();
  });

  it('a B that stops refreshing (it died) expires on A after three of its intervals', async () => {
    const bus = new MemoryBus({ shared: true });
    const a = server('a', bus, { interestRefreshMs: 20 }).s;
    const bLink = link(bus);
    // B's interval leaves a loaded machine's event-loop stalls (~100 ms) well inside 3 of them.
    const b = server('b', bLink.view, { interestRefreshMs: 150 }).s;
    const onA = hooks(a);
    await listen(b, { resourceSubscriptions: ['m://x'] });
    await until(() => onA.length === 1, "A's attach");
    // Refreshes keep it: well past 3 * 150 ms, it still counts.
    await new Promise((r) => setTimeout(r, 1000));
    expect(onA).toEqual(['+m://x']);
    expect(bLink.sent.filter((m) => m.type === 'refresh').length).toBeGreaterThan(2);
    const cutAt = Date.now();
    bLink.cut();
    await until(() => onA.length === 2, "A's expiry of B's interest", 3000);
    expect(onA).toEqual(['+m://x', '-m://x']);
    expect(Date.now() - cutAt).toBeGreaterThanOrEqual(300); // not before it could have expired
    expect(syncOf(a)?.remote.size).toBe(0);
    // While cut off, B gains a legacy subscriber (which, unlike a listen stream, outlives a gap).
    const peer = b.connect({ transport: 'memory', send: () => undefined });
    await peer.handle(initializeRequest());
    await peer.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await peer.handle(legacy('resources/subscribe', { uri: 'm://y' }));
    await new Promise((r) => setTimeout(r, 5));
    expect(a.isAttached('m://y')).toBe(false);
    // The link is back and the bus reports a gap: B tells everything it still listens to, at
    // once or (a refresh just went out) within one spacing.
    bLink.cut(false);
    bus.gap('test');
    await until(() => onA.length === 3, "B's refresh after the gap", 1000);
    expect(onA).toEqual(['+m://x', '-m://x', '+m://y']);
    expect(a.isAttached('m://x')).toBe(false); // B's listen stream ended with the gap
    a.close();
    b.close();
  });

  it('dropped, then back within a second: B still asks, and hears what A began listening to meanwhile', async () => {
    const bus = new MemoryBus({ shared: true });
    const a = server('a', bus, { interestRefreshMs: 60_000 }).s;
    const bLink = link(bus);
    // B's connection alone drops and comes back: the gaps are B's, not A's.
    const bGaps = new MemoryBus();
    const b = server(
      'b',
      { ...bLink.view, onGap: (h) => bGaps.onGap(h) },
      { interestRefreshMs: 60_000 },
    ).s;
    bLink.cut();
    bGaps.gap('dropped'); // what B asks now, nobody can answer
    await listen(a, { resourceSubscriptions: ['m://x'] });
    await new Promise((r) => setTimeout(r, 100));
    bLink.cut(false);
    bGaps.gap('reconnected');
    // A refreshes only in a minute: B's question after the reconnect is what tells it.
    await until(() => b.isAttached('m://x'), "B's attach of A's listener", 3000);
    a.close();
    b.close();
  });

  it("own interest is not mistaken for another instance's", async () => {
    const bus = new MemoryBus({ shared: true });
    const a = server('a', bus).s;
    const b = server('b', bus).s;
    const l = await listen(a, { resourceSubscriptions: ['m://mine'] });
    await until(() => b.isAttached('m://mine'), "B's attach of what A announced");
    expect(syncOf(a)?.remote.size).toBe(0);
    await l.cancel();
    expect(a.isAttached('m://mine')).toBe(false);
    await until(() => !b.isAttached('m://mine'), "B's detach");
    a.close();
    b.close();
  });

  it('maxRemoteInterest bounds what a server keeps of the others', async () => {
    const bus = new MemoryBus({ shared: true });
    const { s: a, warnings } = server('a', bus, { maxRemoteInterest: 2 });
    const b = server('b', bus).s;
    await listen(b, { resourceSubscriptions: ['m://1', 'm://2', 'm://3'] });
    await until(() => a.isAttached('m://2'), "A's attach");
    expect([a.isAttached('m://1'), a.isAttached('m://3')]).toEqual([true, false]);
    expect(warnings).toEqual([expect.stringMatching(/maxRemoteInterest \(2\)/)]);
    a.close();
    b.close();
  });
});

describe('a server on a private bus', () => {
  it('has no interest machinery: no sync, no timer, no messages', async () => {
    const bus = new MemoryBus();
    const heard: InterestMessage[] = [];
    bus.subscribeInterest((m) => heard.push(m));
    const a = server('a', bus).s;
    const b = server('b', bus).s;
    const onA = hooks(a);
    await listen(b, { resourceSubscriptions: ['m://x'] });
    await new Promise((r) => setTimeout(r, 5));
    expect([syncOf(a), syncOf(b), heard, onA]).toEqual([undefined, undefined, [], []]);
    a.close();
    b.close();
  });

  it('checks the interest options all the same', () => {
    expect(() => server('a', new MemoryBus(), { interestRefreshMs: 9 })).toThrow(
      /interestRefreshMs must be an integer from 10/,
    );
    expect(() => server('a', new MemoryBus(), { maxRemoteInterest: 0 })).toThrow(
      /maxRemoteInterest must be a positive integer/,
    );
  });
});
