import type { ConnectionOptions } from 'node:tls';
import type { Redis } from 'ioredis';
import { McpKitError } from '../errors/index.js';
import { backoffDelay, type BackoffOptions } from './backoff.js';
import { loadIoredis } from './load-ioredis.js';
import { redactRedisUrl, scrubSecrets } from './redact.js';

/** TLS settings of a `rediss://` connection, as Node's `tls.connect` takes them. */
export type RedisTlsOptions = Pick<
  ConnectionOptions,
  'ca' | 'cert' | 'key' | 'passphrase' | 'servername' | 'rejectUnauthorized'
>;

/** How mcpkit connects to Redis. */
export interface RedisConnectOptions {
  /** `redis://[user:password@]host[:port][/db]`, or `rediss://…` for TLS. */
  url: string;
  /** TLS for `rediss://`: `ca` (PEM) to trust a private CA, `cert`/`key` for client certificates. */
  tls?: RedisTlsOptions;
  /** Longest wait for a connection, at start-up and on each reconnect (default 5 s). */
  connectTimeoutMs?: number;
  /**
   * Longest wait for one answer (default 5 s). A Redis that stops answering (overloaded,
   * stopped) fails the command and counts as dropped, instead of hanging reads.
   */
  commandTimeoutMs?: number;
  /** Delays between reconnect attempts after a drop (never given up). */
  backoff?: BackoffOptions;
  /** Where connection news goes, one line each, credentials masked (default console.warn). */
  onLog?: (line: string) => void;
  /** The connection's name in `CLIENT LIST` (default 'mcpkit'). */
  name?: string;
}

export const DEFAULT_REDIS_CONNECT_TIMEOUT_MS = 5000;
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 5000;

const defaultLog = (line: string): void => console.warn(line);

/** One line: error texts from sockets and TLS can span several. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

export function errorText(error: unknown, url: string): string {
  const message = error instanceof Error ? error.message || error.name : String(error);
  return oneLine(scrubSecrets(message, url));
}

/** `rediss://` means TLS whatever its case (ioredis only looks for lowercase). */
function tlsFor(url: string, tls: RedisTlsOptions | undefined): RedisTlsOptions | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== 'redis' && scheme !== 'rediss') {
    throw new McpKitError(
      'BAD_ARGUMENTS',
      `Redis URL ${redactRedisUrl(url)} is not usable: give redis://host:port or rediss://host:port (TLS)`,
    );
  }
  if (scheme === 'redis' && tls !== undefined) {
    throw new McpKitError(
      'BAD_ARGUMENTS',
      `TLS options were given for ${redactRedisUrl(url)}: use a rediss:// URL to connect over TLS`,
    );
  }
  return scheme === 'rediss' ? { ...tls } : undefined;
}

/**
 * A connected ioredis client, set up as mcpkit needs it: commands fail at once while the
 * connection is down (no offline queue: a read must not wait for an outage to end), each answer
 * is awaited at most `commandTimeoutMs`, and after a drop the client reconnects with backoff,
 * forever, logging the loss and the recovery once each.
 *
 * Unreachable at start-up (refused, timed out, bad password, TLS refused) is one McpKitError
 * line naming the URL without its credentials, and no retry: the caller exits 1.
 */
export function connectRedis(options: RedisConnectOptions): Promise<Redis> {
  return openRedis(options, {});
}

/** `connectRedis` with ioredis options of mcpkit's own (the bus's subscriber sets some). */
export async function openRedis(
  options: RedisConnectOptions,
  extra: { autoResubscribe?: boolean },
): Promise<Redis> {
  const { url } = options;
  const where = redactRedisUrl(url);
  const tls = tlsFor(url, options.tls);
  const log = options.onLog ?? defaultLog;
  const name = options.name ?? 'mcpkit';
  const connectTimeout = options.connectTimeoutMs ?? DEFAULT_REDIS_CONNECT_TIMEOUT_MS;
  const commandTimeout = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  let everReady = false;
  let up = false;
  let lastError: unknown;

  const RedisClient = await loadIoredis();
  const redis = new RedisClient(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout,
    commandTimeout,
    // A stalled Redis keeps its sockets open: without an answer in time, the socket is dropped
    // and the reconnect (with its log line and the bus's gap) takes over.
    socketTimeout: commandTimeout,
    connectionName: name,
    retryStrategy: (attempt: number) => (everReady ? backoffDelay(attempt, options.backoff) : null),
    ...(tls === undefined ? {} : { tls }),
    ...extra,
  });
  redis.on('error', (error: unknown) => {
    lastError = error;
  });
  let lost = false;
  redis.on('close', () => {
    lost = lost || up;
    up = false;
  });
  // Said on 'reconnecting', not 'close': a connection closed on purpose (quit) does not reconnect.
  redis.on('reconnecting', () => {
    if (!lost) return;
    lost = false;
    const why = lastError === undefined ? '' : ` (${errorText(lastError, url)})`;
    log(
      `mcpkit: lost the connection to Redis at ${where} [${name}]${why}; reconnecting with backoff`,
    );
  });
  redis.on('ready', () => {
    if (everReady && !up) log(`mcpkit: reconnected to Redis at ${where} [${name}]`);
    up = true;
    lastError = undefined;
  });

  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${connectTimeout} ms`)),
      connectTimeout + 500,
    );
  });
  try {
    await Promise.race([redis.connect(), timedOut]);
  } catch (error) {
    redis.disconnect();
    const cause = lastError ?? error;
    throw new McpKitError(
      'REDIS_UNAVAILABLE',
      `Redis at ${where} is unreachable: ${errorText(cause, url)}`,
      { cause },
    );
  } finally {
    clearTimeout(timer);
  }
  everReady = true;
  return redis;
}

/** Closes a connection: QUIT when it is up (pending answers arrive first), else at once. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status === 'ready') {
    try {
      await redis.quit();
      return;
    } catch {
      // Fall through: the connection is going away anyway.
    }
  }
  redis.disconnect();
}
