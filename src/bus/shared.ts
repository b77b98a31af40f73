import type { Redis } from 'ioredis';
import { closeRedis, connectRedis, type RedisConnectOptions } from './connect.js';
import { redactRedisUrl } from './redact.js';
import { RedisBus } from './redis-bus.js';
import { RedisLinkStore } from './redis-link-store.js';
import { keepSharedSecret, sharedSecret, type SharedSecret } from './shared-secret.js';

export interface RedisSharedOptions extends RedisConnectOptions {
  /** Key prefix of every key and channel (default `mcpkit:`). */
  prefix?: string;
  /** PING period of the bus's subscriber connection (default 5 s). */
  heartbeatMs?: number;
  /** Default lifetime of an artifact (default 1 hour). */
  artifactTtlMs?: number;
  /** How long an expired artifact still answers "expired" (default 24 hours). */
  rememberExpiredMs?: number;
  /** Bytes of verified artifacts the link store keeps in this process (default 64 MiB). */
  maxCachedBytes?: number;
  /** Where `MCPKIT_SECRET` is looked up (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Everything N instances share through one Redis, ready for `createServer`. */
export interface RedisShared {
  /** The connection the link store, the secret and the bus's publishing use. */
  readonly redis: Redis;
  readonly bus: RedisBus;
  readonly linkStore: RedisLinkStore;
  readonly secret: SharedSecret;
  /** Spread into `createServer({ ... })`: the bus, the link store and the requestState secret. */
  readonly serverOptions: {
    bus: RedisBus;
    linkStore: RedisLinkStore;
    requestStateSecret: string;
  };
  /** The URL fit to print (credentials masked), for a banner. */
  readonly where: string;
  /** Closes the bus and the connection. */
  close(): Promise<void>;
}

/**
 * One Redis URL, and every instance acts as one: connects (a one-line McpKitError when Redis is
 * unreachable), reads or creates the shared secret, and builds the bus and the link store on two
 * connections (the bus subscribes on its own).
 *
 * @example
 * const shared = await createRedisShared({ url: process.env.REDIS_URL! });
 * const server = createServer({ name: 'docs', version: '1.0.0', ...shared.serverOptions });
 * console.error(`sharing through ${shared.where} (secret: ${shared.secret.source})`);
 */
export async function createRedisShared(options: RedisSharedOptions): Promise<RedisShared> {
  const redis = await connectRedis(options);
  try {
    const prefix = options.prefix;
    const secret = await sharedSecret(redis, {
      ...(prefix === undefined ? {} : { prefix }),
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    const stopKeeping =
      secret.source === 'env'
        ? () => {}
        : keepSharedSecret(redis, secret.secret, {
            ...(prefix === undefined ? {} : { prefix }),
            ...(options.onLog === undefined ? {} : { onLog: options.onLog }),
          });
    let linkStore: RedisLinkStore;
    let bus: RedisBus;
    try {
      linkStore = new RedisLinkStore(redis, {
        secret: secret.secret,
        url: options.url,
        ...(options.onLog === undefined ? {} : { onLog: options.onLog }),
        ...(prefix === undefined ? {} : { prefix }),
        ...(options.artifactTtlMs === undefined ? {} : { ttlMs: options.artifactTtlMs }),
        ...(options.rememberExpiredMs === undefined
          ? {}
          : { rememberExpiredMs: options.rememberExpiredMs }),
        ...(options.maxCachedBytes === undefined ? {} : { maxCachedBytes: options.maxCachedBytes }),
      });
      bus = await RedisBus.connect({ ...options, publisher: redis });
    } catch (error) {
      stopKeeping();
      throw error;
    }
    return {
      redis,
      bus,
      linkStore,
      secret,
      serverOptions: { bus, linkStore, requestStateSecret: secret.secret },
      where: redactRedisUrl(options.url),
      async close() {
        stopKeeping();
        await bus.close();
        await closeRedis(redis);
      },
    };
  } catch (error) {
    await closeRedis(redis);
    throw error;
  }
}
