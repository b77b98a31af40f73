import type { Redis } from 'ioredis';
import { McpKitError } from '../errors/index.js';

/** The constructor of ioredis, which mcpkit needs only when it scales out through Redis. */
export type RedisConstructor = typeof Redis;

/** What `npm install` line is given when ioredis is missing: the major mcpkit is tested with. */
export const IOREDIS_INSTALL = 'npm install ioredis@6';

/**
 * ioredis, loaded when Redis is first used: it is an optional peer dependency, so that a user who
 * never scales out does not install it. Missing, it is an McpKitError naming the package.
 */
export async function loadIoredis(
  load: () => Promise<{ Redis: RedisConstructor }> = () => import('ioredis'),
): Promise<RedisConstructor> {
  try {
    return (await load()).Redis;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new McpKitError(
      'MISSING_DEPENDENCY',
      `Redis (--redis, mcpkit/redis) needs the package ioredis, an optional peer dependency of mcpkit that is not installed: ${IOREDIS_INSTALL}`,
      { cause: error },
    );
  }
}
