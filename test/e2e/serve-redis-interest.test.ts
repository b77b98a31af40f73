/**
 * A listener on any instance counts: two `mcpkit serve --redis` processes on one folder, the
 * second `--no-watch`, so that only the first sees the disk. A listener on the second for
 * `file:///a.md` alone (no list changes) is announced on Redis; the watching instance then treats
 * a.md as listened to: its removal is announced (an update), a touch (same bytes) is not, and a
 * real change after it is (a control file fences the touch). Every wait has a deadline.
 */
import { rm, stat, utimes, writeFile } from 'node:fs/promises';
import { Redis } from 'ioredis';
import { expect, it } from 'vitest';
import { describeRedis } from './redis-harness.js';
import { useRedisServes } from './serve-redis-harness.js';
import { folder, Recorded, until } from './watch-harness.js';

interface Interest {
  type: string;
  from: string;
  uris?: string[];
}

/** Every interest message on `<prefix>events`, as a third party subscribed to Redis sees it. */
async function watchInterest(url: string): Promise<{ seen: Interest[]; close(): Promise<void> }> {
  const sub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  sub.on('error', () => undefined);
  await sub.connect();
  await sub.subscribe('mcpkit:events');
  const seen: Interest[] = [];
  sub.on('message', (_channel: string, text: string) => {
    const message = JSON.parse(text) as { interest?: Interest };
    if (message.interest) seen.push(message.interest);
  });
  return { seen, close: async () => void (await sub.quit()) };
}

const names = (seen: Interest[], types: string[], uri: string) =>
  seen.filter((m) => types.includes(m.type) && m.uris?.includes(uri));

describeRedis('mcpkit serve --redis: a listener on any instance counts', () => {
  const { instance, cleanups, redis } = useRedisServes();

  /** Both instances, a third party on the channel, and a listener on the second for a.md only. */
  async function setup(files: Record<string, string>) {
    const f = await folder(files);
    cleanups.push(() => f.remove());
    const interest = await watchInterest(redis().url);
    cleanups.push(() => interest.close());
    const watching = await instance(f.dir);
    const relying = await instance(f.dir, ['--no-watch']);
    const stream = new Recorded(
      await relying.client.listen({ resourceSubscriptions: ['file:///a.md'] }),
    );
    cleanups.push(() => stream.close());
    await until('the --no-watch instance announces its listener of a.md on Redis', () => {
      return names(interest.seen, ['attach', 'refresh'], 'file:///a.md').length > 0;
    });
    // The watching instance heard the same message; a read of a.md through it shares (or
    // follows) the read that fingerprints a.md for its new listener.
    const { contents } = await watching.client.readResource('file:///a.md');
    expect((contents[0] as { text?: string }).text).toBe(files['a.md']);
    return { f, interest, watching, relying, stream };
  }

  it('a.md removed on disk: the listener on the --no-watch instance gets its update', async () => {
    const { f, interest, relying, stream } = await setup({ 'a.md': 'one', 'b.md': 'b' });
    await rm(f.path('a.md'));
    await until('update of the removed a.md on the --no-watch instance', () => {
      return stream.updates('file:///a.md').length > 0;
    });
    expect(stream.updates()).toEqual(['file:///a.md']);
    expect(stream.listChanges()).toBe(0); // not asked for
    expect(stream.ended).toBeUndefined();
    // The second's listing follows (the list change travelled on Redis as well).
    await until('a.md gone from the --no-watch listing', async () => {
      const listed = await relying.client.listResources();
      return !listed.some((r) => r.name === 'a.md');
    });

    // The listener leaves: the second tells the others that nobody listens to a.md there.
    const from = names(interest.seen, ['attach'], 'file:///a.md')[0]?.from;
    await stream.close();
    await until('the detach of a.md on Redis', () => {
      return names(interest.seen, ['detach'], 'file:///a.md').some((m) => m.from === from);
    });
  });

  it('a touch of a.md (same bytes) sends nothing; a real change after it sends one update', async () => {
    const { f, watching, relying, stream } = await setup({ 'a.md': 'same', 'b.md': 'b' });
    const later = new Date(Date.now() + 60_000);
    await utimes(f.path('a.md'), later, later);
    // The watching instance's listing walked past the touch: whatever it caused is announced
    // before whatever the next change causes.
    const lastModified = new Date((await stat(f.path('a.md'))).mtimeMs).toISOString();
    await until('the watching listing saw the touch', async () => {
      const listed = (await watching.client.listResources()).find((r) => r.name === 'a.md');
      return listed?.annotations?.lastModified === lastModified;
    });
    // A control: b.md's update is announced after whatever the touch caused, and travels the
    // same way, so once it is here an update for the touch would be too.
    const control = new Recorded(
      await relying.client.listen({ resourceSubscriptions: ['file:///b.md'] }),
    );
    cleanups.push(() => control.close());
    await writeFile(f.path('b.md'), 'b changed');
    await until('update of b.md (the control)', () => control.updates().length > 0);
    expect(stream.updates()).toEqual([]);

    await writeFile(f.path('a.md'), 'changed');
    await until('update of a.md after the real change', () => stream.updates().length > 0);
    expect(stream.updates()).toEqual(['file:///a.md']);
    const { contents } = await relying.client.readResource('file:///a.md');
    expect((contents[0] as { text?: string }).text).toBe('changed');
    expect(stream.ended).toBeUndefined();
  });
});
