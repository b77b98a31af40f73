/**
 * `mcpkit serve --redis URL`: the instance shares its change events, its links and the secret
 * that signs `requestState` and artifact URIs with every other instance on the same Redis and
 * prefix. The Redis client is loaded only when asked for.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RedisShared } from '../bus/index.js';
import { redactRedisUrl } from '../bus/redact.js';
import type { ServeArgs } from './args.js';
import type { SharedInfo } from './banner.js';
import { UsageError } from './usage-error.js';

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new UsageError(
      `cannot read --redis-ca ${JSON.stringify(file)}: ${code === 'ENOENT' ? 'no such file' : (code ?? (error as Error).message)}`,
    );
  }
}

/**
 * Connects to the Redis of `--redis`, or resolves with undefined without it. Unreachable (or a
 * bad password, or TLS refused) rejects with one McpKitError line, credentials masked: exit 1.
 * Connection news later (lost, reconnected) goes to `log`, masked as well.
 */
export async function openShared(
  args: Pick<ServeArgs, 'redis' | 'redisPrefix' | 'redisCa'>,
  log: (line: string) => void,
): Promise<{ shared: RedisShared; info: SharedInfo } | undefined> {
  if (args.redis === undefined) return undefined;
  const tls = args.redisCa === undefined ? undefined : { ca: readCa(args.redisCa) };
  const { createRedisShared, DEFAULT_REDIS_PREFIX } = await import('../bus/index.js');
  const prefix = args.redisPrefix ?? DEFAULT_REDIS_PREFIX;
  const shared = await createRedisShared({
    url: args.redis,
    prefix,
    onLog: log,
    ...(tls === undefined ? {} : { tls }),
  });
  return { shared, info: { where: shared.where, prefix, secretSource: shared.secret.source } };
}

/**
 * The `--redis` arguments for the pasted stdio configuration: carried over when the URL holds no
 * credential (a configuration file is no place for a password; without one, nothing is pasted).
 */
export function redisStdioArgs(args: ServeArgs): string[] {
  if (args.redis === undefined) return [];
  if (redactRedisUrl(args.redis) !== args.redis) return [];
  const out = ['--redis', args.redis];
  if (args.redisPrefix !== undefined) out.push('--redis-prefix', args.redisPrefix);
  // Absolute: a host starts the command from a cwd of its own.
  if (args.redisCa !== undefined) out.push('--redis-ca', path.resolve(args.redisCa));
  return out;
}
