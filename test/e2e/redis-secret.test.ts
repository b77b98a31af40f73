/**
 * sharedSecret against a real redis-server: created once (SET NX) and read by every instance,
 * no TTL, MCPKIT_SECRET winning; and put back after Redis loses it.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectRedis, createRedisShared, sharedSecret } from '../../src/bus/index.js';
import { describeRedis, RedisProcess, waitFor } from './redis-harness.js';

describeRedis('sharedSecret', () => {
  let redis: RedisProcess;
  let one: Redis;
  let two: Redis;
  beforeAll(async () => {
    redis = await RedisProcess.start();
    [one, two] = await Promise.all([
      connectRedis({ url: redis.url, onLog: () => {} }),
      connectRedis({ url: redis.url, onLog: () => {} }),
    ]);
  });
  afterAll(async () => {
    one?.disconnect();
    two?.disconnect();
    await redis?.close();
  });

  const noEnv = { env: {} };

  it('is created once by whichever instance comes first, and read by the others', async () => {
    const [a, b] = await Promise.all([
      sharedSecret(one, { prefix: 'race:', ...noEnv }),
      sharedSecret(two, { prefix: 'race:', ...noEnv }),
    ]);
    expect(a.secret).toBe(b.secret);
    expect([a.source, b.source].sort()).toEqual(['created', 'redis']);
    expect(a.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sharedSecret(one, { prefix: 'race:', ...noEnv })).toEqual({
      secret: a.secret,
      source: 'redis',
    });
    // No TTL: it must outlive every URI and requestState signed with it.
    expect(await one.pttl('race:secret')).toBe(-1);
  });

  it('MCPKIT_SECRET wins, and nothing is written to Redis', async () => {
    expect(await sharedSecret(one, { prefix: 'env:', env: { MCPKIT_SECRET: 'from-env' } })).toEqual(
      { secret: 'from-env', source: 'env' },
    );
    const saved = process.env['MCPKIT_SECRET'];
    process.env['MCPKIT_SECRET'] = 'from-process-env';
    try {
      expect(await sharedSecret(one, { prefix: 'env:' })).toMatchObject({
        secret: 'from-process-env',
      });
    } finally {
      if (saved === undefined) delete process.env['MCPKIT_SECRET'];
      else process.env['MCPKIT_SECRET'] = saved;
    }
    expect(await one.exists('env:secret')).toBe(0);
  });

  it('an empty MCPKIT_SECRET is refused, not taken as "no secret"', async () => {
    await expect(
      sharedSecret(one, { prefix: 'empty:', env: { MCPKIT_SECRET: '' } }),
    ).rejects.toMatchObject({ code: 'BAD_ARGUMENTS', message: expect.stringMatching(/empty/) });
  });

  it('a key of the wrong type is an error naming the key', async () => {
    await one.rpush('wrong:secret', 'x');
    await expect(sharedSecret(one, { prefix: 'wrong:', ...noEnv })).rejects.toMatchObject({
      code: 'REDIS_UNAVAILABLE',
      message: expect.stringMatching(/wrong:secret.*WRONGTYPE/),
    });
  });

  it('createRedisShared puts the secret back when Redis lost it, and warns of a different one', async () => {
    const logs: string[] = [];
    const shared = await createRedisShared({
      url: redis.url,
      prefix: 'keep:',
      env: {},
      onLog: (line) => logs.push(line),
      backoff: { baseMs: 20, maxMs: 50 },
    });
    try {
      expect(shared.secret.source).toBe('created');
      await one.del('keep:secret');
      await one.client('KILL', 'ID', String(await shared.redis.client('ID')));
      // The log comes once the SET's reply is read, which can be after Redis already holds it.
      await waitFor(
        () => logs.some((l) => /keep:secret was missing from Redis/.test(l)),
        'the log',
      );
      expect(await one.get('keep:secret')).toBe(shared.secret.secret);
      await one.set('keep:secret', 'someone else');
      await one.client('KILL', 'ID', String(await shared.redis.client('ID')));
      await waitFor(() => logs.some((l) => /holds another shared secret/.test(l)), 'the warning');
      expect(await one.get('keep:secret')).toBe('someone else');
    } finally {
      await shared.close();
    }
  });
});
