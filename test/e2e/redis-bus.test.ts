/**
 * RedisBus against a real redis-server: two instances see each other's events once each, and
 * every way the connection can fail (killed, stalled, Redis stopped) fires onGap, after which
 * events flow again. Short heartbeat and backoff keep it to a few seconds.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, RedisBus, type RedisBusOptions } from '../../src/bus/index.js';
import type { ChangeEvent } from '../../src/bus/types.js';
import { freePort } from './free-port.js';
import { describeRedis, RedisProcess, waitFor } from './redis-harness.js';

/** One bus and what it saw. */
interface Probe {
  bus: RedisBus;
  events: ChangeEvent[];
  gaps: string[];
  logs: string[];
}

// Quick reconnects; a heartbeat slow enough that a loaded CI machine never trips it by mistake
// (the SIGSTOP case sets its own).
const fast = { heartbeatMs: 1000, commandTimeoutMs: 2000, backoff: { baseMs: 40, maxMs: 200 } };
const updated = (uri: string): ChangeEvent => ({ type: 'resource-updated', uri });
const uris = (events: ChangeEvent[]) =>
  events.map((e) => (e.type === 'resource-updated' ? e.uri : `list:${e.list}`));

describeRedis('RedisBus', () => {
  let redis: RedisProcess;
  let admin: Redis;
  const open: RedisBus[] = [];

  async function probe(options: Partial<RedisBusOptions> = {}): Promise<Probe> {
    const logs: string[] = [];
    const bus = await RedisBus.connect({
      url: redis.url,
      onLog: (line) => logs.push(line),
      ...fast,
      ...options,
    });
    open.push(bus);
    const p: Probe = { bus, events: [], gaps: [], logs };
    bus.subscribe((e) => p.events.push(e));
    bus.onGap((why) => p.gaps.push(why));
    return p;
  }

  beforeAll(async () => {
    redis = await RedisProcess.start();
    admin = new Redis(redis.url, { lazyConnect: true, retryStrategy: () => 50 });
    admin.on('error', () => {}); // it reconnects by itself after the outages below
    await admin.connect();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((bus) => bus.close()));
  });
  afterAll(async () => {
    admin?.disconnect();
    await redis?.close();
  });

  it("two instances see each other's events, each once and in order", async () => {
    const a = await probe();
    const b = await probe();
    a.bus.publish(updated('file:///d/a.md'));
    // This instance's own listeners hear of it at once, before Redis is involved.
    expect(uris(a.events)).toEqual(['file:///d/a.md']);
    b.bus.publish({ type: 'list-changed', list: 'resources' });
    for (let i = 0; i < 100; i++) a.bus.publish(updated(`file:///d/${i}`));
    await waitFor(() => b.events.length === 102 && a.events.length === 102, 'every event').catch(
      (e: unknown) => {
        throw new Error(`${String(e)}: a ${a.events.length}, b ${b.events.length}`);
      },
    );
    expect(uris(b.events)).toEqual([
      'list:resources',
      'file:///d/a.md',
      ...Array.from({ length: 100 }, (_, i) => `file:///d/${i}`),
    ]);
    expect(uris(a.events).slice(0, 2)).toEqual(['file:///d/a.md', 'file:///d/0']);
    expect(uris(a.events)).toContain('list:resources');
    // The echo of a's own events through Redis is skipped: nothing more arrives.
    await new Promise((r) => setTimeout(r, 100));
    expect(a.events).toHaveLength(102);
    expect(b.events).toHaveLength(102);
    expect(a.gaps).toEqual([]);
  });

  it('keeps deployments with different prefixes apart, and ignores what mcpkit did not publish', async () => {
    const a = await probe();
    const other = await probe({ prefix: 'other:' });
    await admin.publish('mcpkit:events', 'garbage');
    await admin.publish(
      'mcpkit:events',
      JSON.stringify({ v: 1, from: 'x', event: { type: 'nope' } }),
    );
    await admin.publish(
      'mcpkit:events',
      JSON.stringify({ v: 1, from: 'elsewhere', event: { type: 'list-changed', list: 'tools' } }),
    );
    await waitFor(() => a.events.length === 1, 'the valid foreign event');
    expect(a.events).toEqual([{ type: 'list-changed', list: 'tools' }]);
    expect(a.logs.filter((l) => l.includes('did not publish'))).toHaveLength(2);
    expect(other.events).toEqual([]);
  });

  it('a killed subscriber connection fires onGap twice (drop, resubscribed) and events flow again', async () => {
    const a = await probe();
    const b = await probe();
    expect(await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub')).toBe(2);
    await waitFor(() => b.gaps.length >= 2 && b.bus.connected, 'the drop and the resubscribe');
    expect(b.gaps[0]).toMatch(/connection to Redis at redis:\/\/127\.0\.0\.1:\d+ dropped/);
    expect(b.gaps[1]).toMatch(/^reconnected to Redis/);
    await waitFor(() => a.bus.connected, 'a resubscribed');
    a.bus.publish(updated('file:///after'));
    await waitFor(() => uris(b.events).includes('file:///after'), 'the first event after');
    expect(b.logs.some((l) => /lost the connection/.test(l))).toBe(true);
    expect(b.logs.some((l) => /reconnected to Redis/.test(l))).toBe(true);
  });

  it('a stalled Redis (SIGSTOP) counts as dropped after a heartbeat; events resume after SIGCONT', async () => {
    const a = await probe({ heartbeatMs: 200 });
    const b = await probe({ heartbeatMs: 200 });
    redis.pause();
    try {
      await waitFor(() => b.gaps.length >= 1, 'the heartbeat to notice', 3000);
      expect(b.bus.connected).toBe(false);
    } finally {
      redis.resume();
    }
    await waitFor(() => a.bus.connected && b.bus.connected, 'both back', 5000);
    a.bus.publish(updated('file:///resumed'));
    await waitFor(() => uris(b.events).includes('file:///resumed'), 'the event after');
  });

  it('Redis stopped and started again: gap on every instance, then events flow again', async () => {
    const a = await probe();
    const b = await probe();
    await redis.stop();
    await waitFor(() => a.gaps.length >= 1 && b.gaps.length >= 1, 'the gaps');
    // Published during the outage: this instance's listeners still hear of it.
    a.bus.publish(updated('file:///during'));
    expect(uris(a.events)).toEqual(['file:///during']);
    await redis.restart();
    await waitFor(() => a.bus.connected && b.bus.connected, 'both connected again', 5000);
    a.bus.publish(updated('file:///back'));
    await waitFor(() => uris(b.events).includes('file:///back'), 'the first event after');
    expect(uris(b.events)).not.toContain('file:///during');
    await admin.ping();
  });

  it('an event an instance could not publish makes the others fire onGap once Redis answers', async () => {
    // A publisher that waits a whole second before reconnecting: the window to fail in.
    const publisher = await connectRedis({
      url: redis.url,
      backoff: { baseMs: 1000, maxMs: 1000 },
      onLog: () => {},
    });
    const a = await probe({ publisher });
    const b = await probe();
    const id = await publisher.client('ID');
    await admin.client('KILL', 'ID', String(id));
    await waitFor(() => publisher.status !== 'ready', 'the publisher to drop');
    a.bus.publish(updated('file:///lost'));
    expect(uris(a.events)).toEqual(['file:///lost']);
    await waitFor(() => a.logs.some((l) => l.includes('could not publish')), 'the log line');
    await waitFor(() => b.gaps.length === 1, 'the gap notice', 4000);
    expect(b.gaps[0]).toMatch(/^another instance missed publishing: instance [0-9a-f-]+ could not/);
    expect(a.gaps).toEqual([]);
    expect(uris(b.events)).toEqual([]);
    a.bus.publish(updated('file:///next'));
    await waitFor(() => uris(b.events).includes('file:///next'), 'the next event');
    await a.bus.close();
    // The bus does not close a publisher it was given.
    expect(publisher.status).toBe('ready');
    publisher.disconnect();
  });

  it("a gap notice's text, which anyone who can publish writes, is repeated escaped and cut short", async () => {
    const b = await probe();
    const hostile = `\u001b]0;owned\u0007\u001b[2J\u009b31m\u202eline\nbreak${'x'.repeat(20_000)}`;
    await admin.publish('mcpkit:events', JSON.stringify({ v: 1, from: 'evil', gap: hostile }));
    await waitFor(() => b.gaps.length === 1, 'the gap');
    const [why] = b.gaps as [string];
    expect(why).toMatch(/^another instance missed publishing: \\x1b\]0;owned\\x07\\x1b\[2J/);
    expect(why).toContain('\\x9b31m\\u202eline\\nbreak');
    expect(why).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(why.length).toBeLessThan(1000);
  });

  it('events published while the gap notice is on its way send no second notice', async () => {
    const publisher = await connectRedis({
      url: redis.url,
      backoff: { baseMs: 300, maxMs: 300 },
      onLog: () => {},
    });
    const a = await probe({ publisher });
    const b = await probe();
    const id = await publisher.client('ID');
    await admin.client('KILL', 'ID', String(id));
    await waitFor(() => publisher.status !== 'ready', 'the publisher to drop');
    a.bus.publish(updated('file:///lost'));
    // Changes published as Redis comes back, before the others answered the first notice.
    publisher.once('ready', () => {
      for (let i = 0; i < 5; i++) a.bus.publish(updated(`file:///back/${i}`));
    });
    await waitFor(() => uris(b.events).length === 5, 'the changes after', 4000);
    await new Promise((r) => setTimeout(r, 200));
    expect(b.gaps).toHaveLength(1);
    await a.bus.close();
    publisher.disconnect();
  });

  it('a publish that fails while the gap notice is on its way, with the same error, is owed a notice of its own', async () => {
    const real = await connectRedis({ url: redis.url, onLog: () => {} });
    let failNext = 0;
    let held: Promise<void> | undefined;
    let release = (): void => {};
    let notices = 0;
    // The real connection, but its publish can fail (as a closed connection does) or be held.
    const publisher = new Proxy(real, {
      get(target, key) {
        if (key === 'publish')
          return async (channel: string, text: string) => {
            if (failNext > 0) {
              failNext--;
              throw new Error('Connection is closed.');
            }
            if (text.includes('"gap"')) {
              notices++;
              if (held) await held;
            }
            return target.publish(channel, text);
          };
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const a = await probe({ publisher, backoff: { baseMs: 20, maxMs: 20 } });
    const b = await probe();
    held = new Promise((r) => (release = r));
    failNext = 1;
    a.bus.publish(updated('file:///first'));
    await waitFor(() => notices === 1, 'the first notice to be on its way');
    failNext = 1;
    a.bus.publish(updated('file:///second'));
    release();
    held = undefined;
    await waitFor(() => b.gaps.length === 2, 'a notice for each failure', 4000);
    real.disconnect();
  });

  it('close() ends both connections and every delivery', async () => {
    const a = await probe();
    const b = await probe();
    await b.bus.close();
    await b.bus.close();
    a.bus.publish(updated('file:///x'));
    await new Promise((r) => setTimeout(r, 100));
    expect(b.events).toEqual([]);
    expect(b.bus.connected).toBe(false);
    // Closed on purpose: nothing to report as lost.
    expect(b.logs).toEqual([]);
    const names = (await admin.client('LIST')) as string;
    expect(names.match(/name=mcpkit-bus-subscriber/g)).toHaveLength(1);
  });
});

describe('RedisBus.connect without a Redis', () => {
  it('fails at once with one McpKitError line, the credentials masked', async () => {
    const port = await freePort();
    const started = Date.now();
    const error = await RedisBus.connect({
      url: `redis://app:hunter22@127.0.0.1:${port}/0`,
      onLog: () => {},
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'McpKitError', code: 'REDIS_UNAVAILABLE' });
    const message = (error as Error).message;
    expect(message).toBe(
      `Redis at redis://***@127.0.0.1:${port}/0 is unreachable: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect(message).not.toContain('hunter22');
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
