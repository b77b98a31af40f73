/**
 * Walking a large artifact's parts through RedisLinkStore costs about its size once, not once per
 * part: the record is fetched from Redis, and its MAC (and its owner) checked, once per version.
 * Counted in bytes (Redis's own output counter, the bytes hashed), never timed.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { connectRedis, RedisLinkStore } from '../../src/bus/index.js';
import { ArtifactSeal } from '../../src/bus/artifact-mac.js';
import { PART_META_KEY } from '../../src/content/policy.js';
import { createServer } from '../../src/server/index.js';
import type { AuthInfo } from '../../src/server/auth-info.js';
import { modern } from '../../src/testing/messages.js';
import { describeRedis, RedisProcess } from './redis-harness.js';

const secret = 'walk-test-secret';
/** 8 MiB of text, read in 1 MiB parts (the default part length) under a 2 MiB cap. */
const SIZE = 8 * 1024 * 1024;
const TEXT = 'abcdefghijklmno\n'.repeat(SIZE / 16);

type Answer = {
  result?: { content?: Array<Record<string, unknown>>; contents?: Array<Record<string, unknown>> };
  error?: { code: number; message: string };
};

describeRedis('RedisLinkStore: a walk of parts', () => {
  let redis: RedisProcess;
  let conn: Redis;
  let stats: Redis;
  beforeAll(async () => {
    redis = await RedisProcess.start();
    [conn, stats] = await Promise.all([
      connectRedis({ url: redis.url, onLog: () => {} }),
      connectRedis({ url: redis.url, onLog: () => {} }),
    ]);
  });
  afterAll(async () => {
    conn?.disconnect();
    stats?.disconnect();
    await redis?.close();
  });

  /** Bytes Redis has written to its clients so far. */
  const sentByRedis = async (): Promise<number> =>
    Number(/total_net_output_bytes:(\d+)/.exec(await stats.info('stats'))?.[1]);

  for (const who of ['anyone', 'a signed-in caller'] as const) {
    it(`fetches and hashes about the artifact's size once per walk (${who})`, async () => {
      // One instance makes the link, another (its own store, as scaled out) walks it.
      const instance = () => {
        const prefix = `walk-${who.length}:`;
        const server = createServer({
          name: 's',
          version: '1',
          linkStore: new RedisLinkStore(conn, { secret, prefix }),
          content: { capBytes: 2 * 1024 * 1024 },
        });
        server.tool('big', {}, (_a, ctx) =>
          ctx.result(ctx.attach({ name: 'big.txt', mimeType: 'text/plain', text: TEXT })),
        );
        const peer = server.connect({ transport: 'memory', send: () => undefined });
        const auth: AuthInfo | undefined =
          who === 'anyone' ? undefined : { subject: 'alice', scopes: [], claims: {} };
        return async (method: string, params: Record<string, unknown>) =>
          (await peer.handle(modern(method, params), auth ? { authInfo: auth } : {})) as Answer;
      };
      const link = (await instance()('tools/call', { name: 'big' })).result?.content?.[0];
      expect(link).toMatchObject({ type: 'resource_link' });
      const ask = instance();
      const body = (a: { text?: string | undefined; blob?: string | undefined }) =>
        (a.text ?? a.blob ?? '').length;
      let hashed = 0;
      const realMac = ArtifactSeal.prototype.mac;
      const realUriFor = RedisLinkStore.prototype.uriFor;
      ArtifactSeal.prototype.mac = function (this: ArtifactSeal, a) {
        hashed += body(a);
        return realMac.call(this, a);
      };
      RedisLinkStore.prototype.uriFor = function (this: RedisLinkStore, c) {
        hashed += body(c);
        return realUriFor.call(this, c);
      };
      try {
        const before = await sentByRedis();
        let parts = 0;
        let read = '';
        for (let uri = link?.['uri'] as string | undefined; uri !== undefined; parts++) {
          const res = await ask('resources/read', { uri });
          expect(res.error, uri).toBeUndefined();
          const contents = res.result?.contents?.[0] as Record<string, unknown>;
          read += contents['text'] as string;
          uri = (contents['_meta'] as Record<string, { next?: string }>)[PART_META_KEY]?.next;
        }
        const fetched = (await sentByRedis()) - before;
        expect(read === TEXT).toBe(true);
        expect(parts).toBe(8);
        // Linear: the record once (and a little per part), hashed once, not 8 times each.
        // Before: each part fetched (8.5 x SIZE, JSON-escaped) and hashed (8 x, 16 x signed in) it
        // whole; at the 512 MB Redis allows in a string, 512 parts: 256 GiB fetched and hashed.
        expect(fetched).toBeGreaterThanOrEqual(SIZE);
        expect(fetched).toBeLessThan(1.5 * SIZE);
        // Its MAC checked once, and its owner once for a signed-in caller.
        expect(hashed).toBe((who === 'anyone' ? 1 : 2) * SIZE);
      } finally {
        ArtifactSeal.prototype.mac = realMac;
        RedisLinkStore.prototype.uriFor = realUriFor;
      }
    });
  }

  it('keeps at most maxCachedBytes (the newest alone when larger), never a changed record', async () => {
    const store = new RedisLinkStore(conn, { secret, prefix: 'kept:', maxCachedBytes: 100 });
    const artifact = (text: string) => ({ name: 'a', mimeType: 'text/plain', text, size: 50 });
    const [a, b, c] = await Promise.all(
      ['a', 'b', 'c'].map((x) => store.put(artifact(x.repeat(50)))),
    );
    const fetches = vi.spyOn(conn, 'mget');
    const reads = async (...uris: string[]) => {
      fetches.mockClear();
      for (const uri of uris) expect(await store.get(uri)).toHaveProperty('found');
      return fetches.mock.calls.length;
    };
    try {
      // 100 characters hold a and b (50 each): read again, neither is fetched.
      expect(await reads(a as string, b as string)).toBe(2);
      expect(await reads(a as string, b as string)).toBe(0);
      // c pushes out the least recently used (a); b stays.
      expect(await reads(c as string, b as string, a as string)).toBe(2);
      // One over the limit on its own is kept, alone.
      const big = await store.put({ ...artifact('d'.repeat(101)), size: 101 });
      expect(await reads(big, big)).toBe(1);
      expect(await reads(a as string, big)).toBe(2);
      // Put again (a new expiry, so a new MAC): the new record is fetched, not the kept one.
      const before = (await store.get(b as string)) as { found: { expiresAt: number } };
      await new Promise((r) => setTimeout(r, 5));
      await store.put(artifact('b'.repeat(50)), 7_200_000);
      expect(await reads(b as string)).toBe(1);
      const after = (await store.get(b as string)) as { found: { expiresAt: number } };
      expect(after.found.expiresAt).toBeGreaterThan(before.found.expiresAt);
      // Gone from Redis: gone here too.
      await conn.del(`kept:artifact:${(b as string).slice('mcpkit://artifacts/'.length)}`);
      expect(await store.get(b as string)).toEqual({ expired: true });
    } finally {
      fetches.mockRestore();
    }
  });

  it('refuses a nonsense maxCachedBytes', () => {
    for (const bad of [-1, 1.5, Number.NaN])
      expect(() => new RedisLinkStore(conn, { secret, maxCachedBytes: bad })).toThrow(
        /maxCachedBytes must be a whole number of bytes/,
      );
  });
});
