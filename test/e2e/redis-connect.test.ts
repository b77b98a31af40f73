/**
 * connectRedis against real redis-servers: a password, TLS with a private CA, and the one-line
 * errors (credentials masked) when Redis refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, RedisBus } from '../../src/bus/index.js';
import { describeRedis, RedisProcess, waitFor } from './redis-harness.js';

const quiet = { onLog: () => {} };

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error('expected a rejection');
  return error;
}

describeRedis('connectRedis with a password', () => {
  let redis: RedisProcess;
  beforeAll(async () => {
    redis = await RedisProcess.start({ password: 'pa55-w0rd' });
  });
  afterAll(async () => {
    await redis?.close();
  });

  it('connects with the password in the URL', async () => {
    const client = await connectRedis({ url: redis.url, ...quiet });
    expect(await client.ping()).toBe('PONG');
    client.disconnect();
  });

  it('a wrong or missing password is one McpKitError line that never shows it', async () => {
    const wrong = `redis://:not-the-pa55-w0rd@127.0.0.1:${redis.port}`;
    const error = await failure(connectRedis({ url: wrong, ...quiet }));
    expect(error).toMatchObject({ name: 'McpKitError', code: 'REDIS_UNAVAILABLE' });
    expect(error.message).toMatch(
      new RegExp(
        `^Redis at redis://\\*\\*\\*@127\\.0\\.0\\.1:${redis.port} is unreachable: WRONGPASS`,
      ),
    );
    expect(error.message).not.toContain('not-the-pa55-w0rd');
    expect(error.message).not.toContain('\n');
    const none = await failure(connectRedis({ url: `redis://127.0.0.1:${redis.port}`, ...quiet }));
    expect(none.message).toMatch(/is unreachable: NOAUTH/);
  });
});

describeRedis(
  'connectRedis over TLS (rediss://)',
  () => {
    let redis: RedisProcess;
    beforeAll(async () => {
      redis = await RedisProcess.start({ tls: true });
    });
    afterAll(async () => {
      await redis?.close();
    });

    it('connects when the CA is given, and pub/sub works over it', async () => {
      const client = await connectRedis({ url: redis.url, tls: { ca: redis.ca }, ...quiet });
      expect(await client.ping()).toBe('PONG');
      client.disconnect();
      const options = { url: redis.url, tls: { ca: redis.ca }, ...quiet };
      const [a, b] = await Promise.all([RedisBus.connect(options), RedisBus.connect(options)]);
      const seen: unknown[] = [];
      b.subscribe((e) => seen.push(e));
      a.publish({ type: 'list-changed', list: 'prompts' });
      await waitFor(() => seen.length === 1, 'the event over TLS');
      await Promise.all([a.close(), b.close()]);
    });

    it('a certificate nobody vouches for is refused in one line', async () => {
      const error = await failure(connectRedis({ url: redis.url, ...quiet }));
      expect(error).toMatchObject({ code: 'REDIS_UNAVAILABLE' });
      expect(error.message).toMatch(
        new RegExp(
          `^Redis at rediss://127\\.0\\.0\\.1:${redis.port} is unreachable: .*certificate`,
        ),
      );
    });

    it('plain redis:// to a TLS port fails within the connect timeout', async () => {
      const url = `redis://127.0.0.1:${redis.port}`;
      const error = await failure(connectRedis({ url, connectTimeoutMs: 500, ...quiet }));
      expect(error).toMatchObject({ code: 'REDIS_UNAVAILABLE' });
      expect(error.message.startsWith(`Redis at ${url} is unreachable: `)).toBe(true);
    });
  },
  { openssl: true },
);

describe('connectRedis refuses what it cannot use, before any I/O', () => {
  it.each([
    ['http://cache:6379', /redis:\/\/host:port or rediss:\/\/host:port/],
    ['cache:6379', /redis:\/\/host:port or rediss:\/\/host:port/],
    ['unix:///run/redis.sock', /redis:\/\/host:port or rediss:\/\/host:port/],
  ])('%s', async (url, message) => {
    const error = await failure(connectRedis({ url, ...quiet }));
    expect(error).toMatchObject({ code: 'BAD_ARGUMENTS' });
    expect(error.message).toMatch(message);
  });

  it('TLS options with a redis:// URL', async () => {
    const error = await failure(
      connectRedis({ url: 'redis://u:secret-pw@cache', tls: { ca: 'x' }, ...quiet }),
    );
    expect(error).toMatchObject({ code: 'BAD_ARGUMENTS' });
    expect(error.message).toBe(
      'TLS options were given for redis://***@cache: use a rediss:// URL to connect over TLS',
    );
  });
});
