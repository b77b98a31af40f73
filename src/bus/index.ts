/**
 * `mcpkit/redis`: several instances of one server acting as one through Redis (Node-side).
 * The change bus (`RedisBus`: a change seen by one instance reaches listeners on all), the link
 * store (`RedisLinkStore`: a link minted on one resolves on all, and after a restart), and the
 * shared secret (`sharedSecret`: a `requestState` or artifact URI signed by one verifies on all).
 * `createRedisShared` wires the three from one URL.
 *
 * @example
 * import { createServer } from 'mcpkit/server';
 * import { createRedisShared } from 'mcpkit/redis';
 *
 * const shared = await createRedisShared({ url: 'redis://127.0.0.1:6379' });
 * const server = createServer({ name: 'docs', version: '1.0.0', ...shared.serverOptions });
 *
 * @module mcpkit/redis
 */
export { RedisBus, DEFAULT_HEARTBEAT_MS, type RedisBusOptions } from './redis-bus.js';
export {
  RedisLinkStore,
  DEFAULT_ARTIFACT_TTL_MS,
  DEFAULT_REMEMBER_EXPIRED_MS,
  type RedisLinkStoreOptions,
} from './redis-link-store.js';
export { sharedSecret, type SharedSecret, type SharedSecretOptions } from './shared-secret.js';
export { createRedisShared, type RedisShared, type RedisSharedOptions } from './shared.js';
export {
  connectRedis,
  DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
  DEFAULT_REDIS_CONNECT_TIMEOUT_MS,
  type RedisConnectOptions,
  type RedisTlsOptions,
} from './connect.js';
export { DEFAULT_BACKOFF_BASE_MS, DEFAULT_BACKOFF_MAX_MS, type BackoffOptions } from './backoff.js';
export { DEFAULT_REDIS_PREFIX } from './keys.js';
export { redactRedisUrl } from './redact.js';
