import type { Redis } from 'ioredis';
import { McpKitError } from '../errors/index.js';
import {
  ARTIFACT_URI_PREFIX,
  MemoryLinkStore,
  type ArtifactLookup,
  type LinkStore,
  type StoredArtifact,
} from '../server/index.js';
import { ArtifactSeal } from './artifact-mac.js';
import { errorText } from './connect.js';
import { redisKeys, type RedisKeys } from './keys.js';
import { redactRedisUrl } from './redact.js';
import { RECORD_TAIL_CHARS, VerifiedArtifacts } from './verified-artifacts.js';

export interface RedisLinkStoreOptions {
  /**
   * The secret that names artifacts (an HMAC of their content): every instance sharing the store
   * needs the same one, as `sharedSecret()` gives it. Required: a random one per process would
   * name the same content differently on each instance.
   */
  secret: string | Uint8Array;
  /** Key prefix (default `mcpkit:`). */
  prefix?: string;
  /** Default lifetime of an artifact (default 1 hour): the TTL of its key. */
  ttlMs?: number;
  /**
   * How long after its expiry (or eviction) an artifact still answers "expired" rather than
   * "unknown" (default 24 hours): the TTL of its small `artifact-seen` marker, beyond its own.
   */
  rememberExpiredMs?: number;
  /** The URL the connection was made with, to name it in errors (credentials masked). */
  url?: string;
  /**
   * Where a record that fails its integrity check is reported (default `console.warn`): one line
   * naming the key (its id shortened), never the content or the secret.
   */
  onLog?: (line: string) => void;
  /**
   * Bytes (characters of text or base64) of verified artifacts kept in this process (default
   * 64 MiB; 0 keeps none), so that reading an artifact part by part fetches and checks it once,
   * not once per part. The most recently read artifact is kept even when larger on its own.
   */
  maxCachedBytes?: number;
}

export const DEFAULT_ARTIFACT_TTL_MS = 3_600_000;
export const DEFAULT_REMEMBER_EXPIRED_MS = 86_400_000;
const DEFAULT_MAX_CACHED_BYTES = 64 * 1024 * 1024;
/**
 * How far past its `expiresAt` a record still counts as live: Redis expires the key itself (a TTL
 * counted on its own clock), so a reader whose clock runs ahead of the writer's may see it late.
 */
const EXPIRY_SKEW_MS = 30_000;

/** The hex HMAC that ends an artifact URI (SHA-256: 64 hex digits). */
const ARTIFACT_ID = /^[0-9a-f]{64}$/;

/**
 * Artifacts in Redis, so that a link minted on one instance resolves on every other, and after
 * a restart. Each artifact is one JSON string under `<prefix>artifact:<hex>` with its TTL, and a
 * marker `<prefix>artifact-seen:<hex>` that outlives it: a link whose artifact expired or was
 * evicted (Redis `maxmemory`) answers `{ expired }`, one never stored `{ missing }`, as the
 * memory store does. URIs are the memory store's for the same content and secret.
 *
 * Every record carries a MAC made with the secret over its URI, metadata and content, checked on
 * every read: a record changed, planted or copied under another id by someone who can write to
 * Redis (but does not hold the secret) answers `{ missing }`, with a warning through `onLog`.
 *
 * @example
 * const redis = await connectRedis({ url });
 * const { secret } = await sharedSecret(redis);
 * const server = createServer({ name: 'docs', version: '1', linkStore: new RedisLinkStore(redis, { secret }) });
 */
export class RedisLinkStore implements LinkStore {
  private readonly keys: RedisKeys;
  private readonly ttlMs: number;
  private readonly rememberMs: number;
  /** Names content exactly as MemoryLinkStore does (mcpkit/server keeps artifactUri to itself). */
  private readonly naming: MemoryLinkStore;
  private readonly seal: ArtifactSeal;
  private readonly log: (line: string) => void;
  private readonly verified: VerifiedArtifacts;

  constructor(
    private readonly redis: Redis,
    private readonly options: RedisLinkStoreOptions,
  ) {
    this.keys = redisKeys(options.prefix);
    this.ttlMs = positive(options.ttlMs, DEFAULT_ARTIFACT_TTL_MS, 'ttlMs');
    this.rememberMs = positive(
      options.rememberExpiredMs,
      DEFAULT_REMEMBER_EXPIRED_MS,
      'rememberExpiredMs',
    );
    this.naming = new MemoryLinkStore({ secret: options.secret, maxBytes: 0, maxTombstones: 0 });
    this.seal = new ArtifactSeal(options.secret);
    this.log = options.onLog ?? ((line: string) => console.warn(line));
    const cached = options.maxCachedBytes ?? DEFAULT_MAX_CACHED_BYTES;
    if (!Number.isSafeInteger(cached) || cached < 0)
      throw new McpKitError(
        'BAD_ARGUMENTS',
        `RedisLinkStore option maxCachedBytes must be a whole number of bytes, not ${cached}`,
      );
    this.verified = new VerifiedArtifacts(cached);
  }

  owns(uri: string): boolean {
    return uri.startsWith(ARTIFACT_URI_PREFIX);
  }

  uriFor(content: Parameters<LinkStore['uriFor']>[0]): Promise<string> {
    return this.naming.uriFor(content);
  }

  async put(
    artifact: Omit<StoredArtifact, 'uri' | 'expiresAt'>,
    ttlMs: number = this.ttlMs,
  ): Promise<string> {
    const uri = await this.uriFor(artifact);
    const id = uri.slice(ARTIFACT_URI_PREFIX.length);
    const ttl = Math.max(1, Math.ceil(ttlMs));
    const stored: StoredArtifact = { ...artifact, uri, expiresAt: Date.now() + ttl };
    const record = { ...stored, mac: this.seal.mac(stored) };
    const results = await this.run('store', uri, () =>
      this.redis
        .multi()
        .set(this.keys.artifact(id), JSON.stringify(record), 'PX', ttl)
        .set(this.keys.artifactSeen(id), '1', 'PX', ttl + this.rememberMs)
        .exec(),
    );
    const failed = results?.find(([error]) => error !== null)?.[0];
    if (results === null || failed) {
      throw this.failure('store', uri, failed ?? new Error('the transaction was aborted'));
    }
    return uri;
  }

  async get(uri: string): Promise<ArtifactLookup> {
    const id = this.owns(uri) ? uri.slice(ARTIFACT_URI_PREFIX.length) : '';
    if (!ARTIFACT_ID.test(id)) return { missing: true };
    const kept = await this.stillKept(id, uri);
    if (kept) return { found: kept };
    const [text, seen] = await this.run('read', uri, () =>
      this.redis.mget(this.keys.artifact(id), this.keys.artifactSeen(id)),
    );
    if (typeof text === 'string') {
      const parsed = parseArtifact(text, uri);
      const trouble =
        parsed === undefined
          ? 'not an artifact record'
          : parsed.mac === undefined
            ? 'no MAC: planted, or stored by an mcpkit without artifact MACs'
            : !this.seal.verify(parsed.found, parsed.mac)
              ? 'wrong MAC: changed, planted or copied from another id'
              : undefined;
      if (parsed && trouble === undefined) {
        const { found, owner } = parsed;
        // Redis dropped it at its TTL: a genuine record still there after that was put back.
        if (pastExpiry(found))
          return this.refuse(id, 'past its expiry: put back, or clocks over 30 s apart', {
            expired: true,
          });
        // The MAC leaves the owner out, but the URI is a MAC of it: checked once here, so that
        // a read for a caller does not hash the whole content again (see artifactOwnedBy).
        if (owner !== undefined && (await this.uriFor({ ...found, owner })) === uri)
          found.owner = owner;
        this.verified.set(id, text, parsed.mac as string, found);
        return { found };
      }
      return this.refuse(id, trouble ?? '', { missing: true });
    }
    return seen === null || seen === undefined ? { missing: true } : { expired: true };
  }

  private refuse(id: string, trouble: string, answer: ArtifactLookup): ArtifactLookup {
    // The id is the link itself (whoever knows it may read the artifact): log a prefix only.
    this.log(
      `mcpkit: refused artifact ${this.keys.artifact(id.slice(0, 12))}… from Redis (${trouble}); answered "${'expired' in answer ? 'expired' : 'not found'}". Someone who can write to Redis may have tampered with it.`,
    );
    return answer;
  }

  /**
   * The record verified earlier for `id`, when Redis's record still ends with the same MAC and
   * has the same length: asks Redis for those two, not for the record.
   */
  private async stillKept(id: string, uri: string): Promise<StoredArtifact | undefined> {
    if (!this.verified.has(id)) return undefined;
    const key = this.keys.artifact(id);
    const results = await this.run('read', uri, () =>
      this.redis.multi().getrange(key, -RECORD_TAIL_CHARS, -1).strlen(key).exec(),
    );
    const [tail, bytes] = results ?? [];
    const kept = tail?.[0] || bytes?.[0] ? undefined : this.verified.get(id, tail?.[1], bytes?.[1]);
    if (kept !== undefined && !pastExpiry(kept)) return kept;
    this.verified.delete(id);
    return undefined;
  }

  private async run<T>(action: string, uri: string, command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw this.failure(action, uri, error);
    }
  }

  private failure(action: string, uri: string, error: unknown): McpKitError {
    const { url } = this.options;
    const where = url === undefined ? 'Redis' : `Redis at ${redactRedisUrl(url)}`;
    // Down is the usual cause, and ioredis words it as a stream that is not writeable.
    const text =
      this.redis.status !== 'ready'
        ? `${where} is unreachable right now (reconnecting)`
        : `${where}: ${url === undefined ? String(error) : errorText(error, url)}`;
    return new McpKitError('REDIS_UNAVAILABLE', `Could not ${action} artifact ${uri}: ${text}`, {
      cause: error,
    });
  }
}

function pastExpiry(artifact: StoredArtifact): boolean {
  return Date.now() > artifact.expiresAt + EXPIRY_SKEW_MS;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new McpKitError(
      'BAD_ARGUMENTS',
      `RedisLinkStore option ${name} must be a positive number of ms, not ${value}`,
    );
  }
  return value;
}

/**
 * The stored JSON, checked: Redis is shared, and a value of the wrong shape is no artifact.
 * Its MAC and owner come back beside it, unchecked (`undefined` when the record has none).
 */
function parseArtifact(
  text: string,
  uri: string,
): { found: StoredArtifact; mac: unknown; owner: string | undefined } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const a = value as Record<string, unknown>;
  const body =
    typeof a['text'] === 'string' ? 'text' : typeof a['blob'] === 'string' ? 'blob' : undefined;
  // The requested URI, not the stored one: the MAC covers it, so a record moved to another id fails.
  if (
    body === undefined ||
    typeof a['name'] !== 'string' ||
    typeof a['mimeType'] !== 'string' ||
    typeof a['size'] !== 'number' ||
    typeof a['expiresAt'] !== 'number'
  )
    return undefined;
  const common = {
    uri,
    name: a['name'],
    mimeType: a['mimeType'],
    size: a['size'],
    expiresAt: a['expiresAt'],
  };
  const found: StoredArtifact =
    body === 'text'
      ? { ...common, text: a['text'] as string }
      : { ...common, blob: a['blob'] as string };
  const owner = typeof a['owner'] === 'string' ? a['owner'] : undefined;
  return { found, mac: a['mac'], owner };
}
