import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { McpKitError } from '../errors/index.js';
import { redisKeys } from './keys.js';

export interface SharedSecretOptions {
  /** Key prefix; the secret lives under `<prefix>secret` (default `mcpkit:`). */
  prefix?: string;
  /** Where `MCPKIT_SECRET` is looked up (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The secret every instance signs with, and where it came from. */
export interface SharedSecret {
  /** For `requestStateSecret` and `RedisLinkStore`'s `secret`. */
  secret: string;
  /** `env`: MCPKIT_SECRET; `created`: this call stored it in Redis; `redis`: another instance had. */
  source: 'env' | 'created' | 'redis';
}

/**
 * The secret that signs `requestState` and names artifacts, the same on every instance:
 * `MCPKIT_SECRET` when set (the safer choice: whoever can read Redis could otherwise forge
 * both), else the value under `<prefix>secret`, created once with `SET NX` by whichever
 * instance comes first (32 random bytes, base64url) and kept without TTL.
 *
 * @example
 * const { secret } = await sharedSecret(redis);
 * createServer({ name: 'docs', version: '1', requestStateSecret: secret, linkStore: new RedisLinkStore(redis, { secret }) });
 */
export async function sharedSecret(
  redis: Redis,
  options: SharedSecretOptions = {},
): Promise<SharedSecret> {
  const fromEnv = (options.env ?? process.env)['MCPKIT_SECRET'];
  if (fromEnv !== undefined) {
    if (fromEnv.length === 0) {
      throw new McpKitError(
        'BAD_ARGUMENTS',
        'MCPKIT_SECRET is set but empty: give it a long random value (openssl rand -base64 32) or unset it',
      );
    }
    return { secret: fromEnv, source: 'env' };
  }
  const key = redisKeys(options.prefix).secret;
  try {
    // A few rounds: between our SET NX losing and our GET, someone may have deleted the key.
    for (let round = 0; round < 3; round++) {
      const candidate = randomBytes(32).toString('base64url');
      if ((await redis.set(key, candidate, 'NX')) === 'OK')
        return { secret: candidate, source: 'created' };
      const existing = await redis.get(key);
      if (existing !== null && existing.length > 0) return { secret: existing, source: 'redis' };
    }
  } catch (error) {
    throw new McpKitError(
      'REDIS_UNAVAILABLE',
      `Could not read or create the shared secret ${key} in Redis: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  throw new McpKitError(
    'REDIS_UNAVAILABLE',
    `The shared secret ${key} in Redis is empty or keeps disappearing: set MCPKIT_SECRET instead`,
  );
}

/**
 * Puts the secret back after a reconnect if Redis lost it (restarted without persistence,
 * flushed), so that an instance started later reads this one instead of creating another;
 * warns when Redis holds a different one (instances would reject each other's requestState).
 * Returns a function that stops it.
 */
export function keepSharedSecret(
  redis: Redis,
  secret: string,
  options: { prefix?: string; onLog?: (line: string) => void } = {},
): () => void {
  const key = redisKeys(options.prefix).secret;
  const log = options.onLog ?? ((line: string) => console.warn(line));
  const check = async (): Promise<void> => {
    try {
      if ((await redis.set(key, secret, 'NX')) === 'OK') {
        log(
          `mcpkit: the shared secret ${key} was missing from Redis; this instance stored its own again`,
        );
        return;
      }
      if ((await redis.get(key)) !== secret) {
        log(
          `mcpkit: Redis holds another shared secret under ${key} than this instance signs with: restart the instances together, or set MCPKIT_SECRET on all of them`,
        );
      }
    } catch {
      // The connection dropped again; the next 'ready' checks again.
    }
  };
  const onReady = (): void => void check();
  redis.on('ready', onReady);
  return () => void redis.off('ready', onReady);
}
