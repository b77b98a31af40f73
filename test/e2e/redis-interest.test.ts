/**
 * Interest messages on a real redis-server: delivered at once to this instance and once to the
 * others (the echo skipped), a big set split into messages that each fit and arrive whole,
 * hostile ones dropped, and one that cannot be published ends the listen streams of its sender.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { connectRedis, RedisBus, type RedisBusOptions } from '../../src/bus/index.js';
import type { InterestMessage } from '../../src/bus/types.js';
import { MAX_BUS_MESSAGE_CHARS, MAX_INTEREST_URI_CHARS } from '../../src/bus/wire.js';
import { describeRedis, RedisProcess, waitFor } from './redis-harness.js';

interface Probe {
  bus: RedisBus;
  heard: InterestMessage[];
  gaps: string[];
  logs: string[];
}

const fast = { heartbeatMs: 1000, commandTimeoutMs: 2000, backoff: { baseMs: 40, maxMs: 200 } };
const uriCount = (heard: InterestMessage[]) =>
  heard.reduce((n, m) => n + (m.type === 'query' ? 0 : m.uris.length), 0);

describeRedis('RedisBus interest', () => {
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
    const p: Probe = { bus, heard: [], gaps: [], logs };
    bus.subscribeInterest((m) => p.heard.push(m));
    bus.onGap((why) => p.gaps.push(why));
    return p;
  }

  beforeAll(async () => {
    redis = await RedisProcess.start();
    admin = new Redis(redis.url, { lazyConnect: true });
    admin.on('error', () => {});
    await admin.connect();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((bus) => bus.close()));
  });
  afterAll(async () => {
    admin?.disconnect();
    await redis?.close();
  });

  it('says it is shared; interest reaches this instance at once and the other once', async () => {
    const a = await probe();
    const b = await probe();
    expect(a.bus.shared).toBe(true);
    const attach = { type: 'attach', from: 's-a', uris: ['file:///a.md'], everyMs: 5000 } as const;
    a.bus.publishInterest(attach);
    expect(a.heard).toEqual([attach]);
    a.bus.publishInterest({ type: 'query', from: 's-a' });
    await waitFor(() => b.heard.length === 2, 'both on the other instance');
    expect(b.heard).toEqual([attach, { type: 'query', from: 's-a' }]);
    await new Promise((r) => setTimeout(r, 100));
    expect(a.heard).toHaveLength(2); // the echo through Redis is skipped
  });

  it('a refresh of 2,000 long URIs goes out in messages that fit, and arrives whole, in order', async () => {
    const a = await probe();
    const b = await probe();
    const texts: string[] = [];
    const tap = admin.duplicate();
    await tap.subscribe('mcpkit:events');
    tap.on('message', (_c: string, text: string) => texts.push(text));
    const uris = Array.from({ length: 2000 }, (_, i) => `file:///${'d/'.repeat(100)}${i}.md`);
    const tooLong = `file:///${'x'.repeat(MAX_INTEREST_URI_CHARS)}`;
    a.bus.publishInterest({ type: 'refresh', from: 's-a', uris: [...uris, tooLong], everyMs: 50 });
    await waitFor(() => uriCount(b.heard) === 2000, 'every URI on the other instance');
    expect(b.heard.flatMap((m) => (m.type === 'query' ? [] : m.uris))).toEqual(uris);
    expect(b.heard.length).toBeGreaterThan(1);
    await waitFor(() => texts.length === b.heard.length, 'the tap');
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(MAX_BUS_MESSAGE_CHARS);
    expect(a.logs).toEqual([expect.stringMatching(/1 listened-to URI\(s\) are too long/)]);
    tap.disconnect();
  });

  it('drops hostile interest messages and keeps going', async () => {
    const b = await probe();
    const send = (interest: unknown) =>
      admin.publish('mcpkit:events', JSON.stringify({ v: 1, from: 'x', interest }));
    await send({ type: 'attach', from: 's', uris: Array(1000).fill('m:x'), everyMs: 5000 });
    await send({ type: 'attach', from: 's', uris: ['m:x'], everyMs: -1 });
    await send({ type: 'detach', from: { id: 1 }, uris: ['m:x'] });
    await send({ type: 'query', from: 's-ok' });
    await waitFor(() => b.heard.length === 1, 'the valid one');
    expect(b.heard).toEqual([{ type: 'query', from: 's-ok' }]);
    expect(b.logs.filter((l) => l.includes('did not publish'))).toHaveLength(3);
    expect(b.gaps).toEqual([]);
  });

  it('interest that cannot be published ends the listen streams here (one gap), not elsewhere', async () => {
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
    a.bus.publishInterest({ type: 'attach', from: 's-a', uris: ['m://lost'], everyMs: 5000 });
    a.bus.publishInterest({ type: 'attach', from: 's-a', uris: ['m://lost2'], everyMs: 5000 });
    expect(a.heard).toHaveLength(2); // this instance still hears its own
    // The others may stop counting a's listeners: a's streams end, once for the burst.
    await waitFor(() => a.gaps.length > 0, "a's gap");
    expect(a.gaps).toHaveLength(1);
    expect(a.gaps[0]).toMatch(/could not announce listener interest/);
    await waitFor(() => publisher.status === 'ready', 'the publisher back', 5000);
    a.bus.publishInterest({ type: 'query', from: 's-a' });
    await waitFor(() => b.heard.length === 1, 'the next interest message');
    expect(b.heard).toEqual([{ type: 'query', from: 's-a' }]);
    await new Promise((r) => setTimeout(r, 200));
    expect([a.gaps.length, b.gaps]).toEqual([1, []]);
    expect(a.logs.filter((l) => l.includes('could not publish'))).toEqual([]);
    await a.bus.close();
    publisher.disconnect();
  });
});
