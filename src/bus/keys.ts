import { McpKitError } from '../errors/index.js';

/** The key prefix of every key and channel mcpkit uses in Redis, unless told otherwise. */
export const DEFAULT_REDIS_PREFIX = 'mcpkit:';

/**
 * Where mcpkit keeps what it shares, under one prefix (several deployments can share a Redis
 * with different prefixes):
 * - `<prefix>events`: the pub/sub channel of change events (no key);
 * - `<prefix>secret`: the signing secret, when `MCPKIT_SECRET` is not set (no TTL: it must
 *   outlive every URI and requestState signed with it);
 * - `<prefix>artifact:<hex>`: one artifact as JSON, with the artifact's TTL;
 * - `<prefix>artifact-seen:<hex>`: "this artifact existed", outliving it by a day (TTL), so that
 *   an expired or evicted artifact answers "expired" rather than "unknown".
 */
export interface RedisKeys {
  readonly prefix: string;
  readonly events: string;
  readonly secret: string;
  artifact(id: string): string;
  artifactSeen(id: string): string;
}

export function redisKeys(prefix: string = DEFAULT_REDIS_PREFIX): RedisKeys {
  checkPrefix(prefix);
  return {
    prefix,
    events: `${prefix}events`,
    secret: `${prefix}secret`,
    artifact: (id) => `${prefix}artifact:${id}`,
    artifactSeen: (id) => `${prefix}artifact-seen:${id}`,
  };
}

/** A prefix is printable text without spaces, 1 to 200 characters (it is part of every key). */
export function checkPrefix(prefix: string): void {
  if (
    typeof prefix !== 'string' ||
    prefix.length === 0 ||
    prefix.length > 200 ||
    /[\s\u0000-\u001f\u007f]/.test(prefix)
  ) {
    throw new McpKitError(
      'BAD_ARGUMENTS',
      `Redis key prefix ${JSON.stringify(prefix)} is not usable: give 1 to 200 printable characters without spaces (default "${DEFAULT_REDIS_PREFIX}")`,
    );
  }
}
