import { bytesToHex, hmacKey, type HmacKey } from './encoding.js';

/** An artifact kept for `resources/read`: text or base64 blob, with its MIME type. */
export interface StoredArtifact {
  uri: string;
  name: string;
  mimeType: string;
  text?: string;
  blob?: string;
  /** Raw size in bytes. */
  size: number;
  expiresAt: number;
  /**
   * The caller it was made for (a caller key, with an authorization layer): part of its URI's
   * MAC, so that the same content made for another caller has another URI, and a read by anyone
   * else finds nothing (see `artifactOwnedBy`).
   */
  owner?: string | undefined;
}

export type ArtifactLookup = { found: StoredArtifact } | { expired: true } | { missing: true };

/**
 * Where ephemeral artifacts live so that links to them resolve on any instance: in memory by
 * default, shared storage (Redis) when scaled out.
 */
export interface LinkStore {
  /** Stores an artifact under its content-addressed URI; returns that URI. */
  put(artifact: Omit<StoredArtifact, 'uri' | 'expiresAt'>, ttlMs?: number): Promise<string>;
  get(uri: string): Promise<ArtifactLookup>;
  /** Whether `uri` has the shape of this store's URIs (no I/O). */
  owns(uri: string): boolean;
  /** The URI `put` would give this content, without storing it. */
  uriFor(content: ArtifactNaming): Promise<string>;
}

/** What an artifact's URI is a MAC of. */
export interface ArtifactNaming {
  text?: string | undefined;
  blob?: string | undefined;
  mimeType: string;
  owner?: string | undefined;
}

/**
 * Whether the artifact found at `uri` may be given to `caller`: always without a caller (no
 * authorization layer); with one, only when the URI is the MAC of the content for that caller.
 */
export async function artifactOwnedBy(
  store: Pick<LinkStore, 'uriFor'>,
  uri: string,
  found: StoredArtifact,
  caller: string | undefined,
): Promise<boolean> {
  if (caller === undefined) return true;
  // A store that kept the owner (the URI being the MAC of it) answers without hashing the content
  // again, which is as long as the artifact: the same verdict, on every read.
  if (found.owner !== undefined) return found.owner === caller;
  const { text, blob, mimeType } = found;
  return (await store.uriFor({ text, blob, mimeType, owner: caller })) === uri;
}

export const ARTIFACT_URI_PREFIX = 'mcpkit://artifacts/';

/**
 * The content-addressed URI of an artifact: an HMAC-SHA-256 of its type and content under a
 * secret, so that nobody can guess the URI of content they do not already know the link to.
 * The same secret on every instance gives the same URIs (a shared store, scaled out).
 */
export async function artifactUri(content: ArtifactNaming, key: HmacKey): Promise<string> {
  // An owner comes first, JSON-quoted: no owner, and no other owner, can spell the same input.
  const owner = content.owner === undefined ? '' : `o:${JSON.stringify(content.owner)}\n`;
  const body = content.text ?? content.blob ?? '';
  // The body is encoded straight after the head, not joined to it first: a joined copy of a
  // large artifact would be a second string of its size, garbage only a full collection frees.
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `${owner}${content.mimeType}\n${content.text !== undefined ? 't:' : 'b:'}`,
  );
  const within = (room: number): Uint8Array | undefined => {
    const data = new Uint8Array(head.length + room);
    data.set(head);
    const { read, written } = encoder.encodeInto(body, data.subarray(head.length));
    return read === body.length ? data.subarray(0, head.length + written) : undefined;
  };
  // Room for one byte a character first (ASCII, the usual artifact), three when that falls short.
  const signed = within(body.length) ?? (within(body.length * 3) as Uint8Array);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await key, signed));
  return `${ARTIFACT_URI_PREFIX}${bytesToHex(mac)}`;
}

export interface MemoryLinkStoreOptions {
  /** Default lifetime of an artifact (default 1 hour). */
  ttlMs?: number;
  /** Bytes held at most (default 64 MiB); the oldest artifacts go first. */
  maxBytes?: number;
  /** The clock (default Date.now); tests move it instead of waiting. */
  now?: () => number;
  /** Secret for unguessable artifact URIs; share it between instances that share a store. Default: random. */
  secret?: string | Uint8Array;
  /** How many expired URIs are remembered to answer "expired" rather than "unknown" (default 10,000). */
  maxTombstones?: number;
}

/** A bounded in-memory link store with TTLs. */
export class MemoryLinkStore implements LinkStore {
  private readonly items = new Map<string, StoredArtifact>();
  private readonly tombstones = new Map<string, number>();
  private bytes = 0;
  private readonly ttlMs: number;
  private readonly maxBytes: number;
  private readonly maxTombstones: number;
  private readonly key: HmacKey;
  private readonly now: () => number;

  constructor(options: MemoryLinkStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? 3_600_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.maxTombstones = options.maxTombstones ?? 10_000;
    this.key = hmacKey(options.secret, ['sign']);
    this.now = options.now ?? Date.now;
  }

  uriFor(content: ArtifactNaming): Promise<string> {
    return artifactUri(content, this.key);
  }

  owns(uri: string): boolean {
    return uri.startsWith(ARTIFACT_URI_PREFIX);
  }

  async put(
    artifact: Omit<StoredArtifact, 'uri' | 'expiresAt'>,
    ttlMs = this.ttlMs,
  ): Promise<string> {
    const uri = await artifactUri(artifact, this.key);
    const now = this.now();
    // Same TTLs expire in insertion order: drop the expired head.
    for (const [key, item] of this.items) {
      if (item.expiresAt > now) break;
      this.remove(key, true);
    }
    const old = this.items.get(uri);
    if (old) {
      // The same content (its URI is a MAC of it): the kept copy stays and only its lifetime
      // moves, so that a repeated result does not turn a long-lived copy into garbage.
      this.items.delete(uri);
      this.items.set(uri, { ...old, name: artifact.name, expiresAt: now + ttlMs });
      return uri;
    }
    const cost = (artifact.text ?? artifact.blob ?? '').length;
    this.items.set(uri, { ...artifact, uri, expiresAt: now + ttlMs });
    this.tombstones.delete(uri);
    this.bytes += cost;
    for (const key of this.items.keys()) {
      if (this.bytes <= this.maxBytes || key === uri) break;
      this.remove(key, true);
    }
    return uri;
  }

  async get(uri: string): Promise<ArtifactLookup> {
    const item = this.items.get(uri);
    if (item && item.expiresAt > this.now()) return { found: item };
    if (item) this.remove(uri, true);
    return this.tombstones.has(uri) ? { expired: true } : { missing: true };
  }

  get size(): number {
    return this.items.size;
  }

  private remove(uri: string, tombstone: boolean): void {
    const item = this.items.get(uri);
    if (!item) return;
    this.items.delete(uri);
    this.bytes -= (item.text ?? item.blob ?? '').length;
    if (!tombstone) return;
    this.tombstones.set(uri, this.now());
    if (this.tombstones.size > this.maxTombstones) {
      const first = this.tombstones.keys().next().value;
      if (first !== undefined) this.tombstones.delete(first);
    }
  }
}
