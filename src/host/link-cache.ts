/**
 * Reads the resolver keeps, keyed by server and URI (never by `name`, which is display text), for
 * as long as the server's `ttlMs` allows; `cacheScope: "private"` entries belong to one client.
 * A resource-updated notification drops the URI and everything under it.
 */
import { coversUri } from '../uri/index.js';
import type { DecodedContents } from './types.js';

export interface CachedRead {
  uri: string;
  contents: DecodedContents[];
  bytes: number;
  expiresAt: number;
}

export interface LinkCacheOptions {
  /** Entries kept at most (oldest dropped first); default 256. */
  maxEntries?: number;
  /** Decoded bytes kept at most; default 32 MiB. */
  maxBytes?: number;
  now?: () => number;
}

export class LinkCache {
  private readonly entries = new Map<string, CachedRead>();
  /** Who each client is to this cache: resolvers sharing it key a client's entries alike. */
  private readonly clients = new WeakMap<object, number>();
  private lastClient = 0;
  private bytes = 0;
  private changes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly now: () => number;

  constructor(options: LinkCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 256;
    this.maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
    this.now = options.now ?? (() => Date.now());
  }

  /** This cache's number for `client`: the same for every resolver of that client. */
  clientId(client: object): number {
    let id = this.clients.get(client);
    if (id === undefined) this.clients.set(client, (id = ++this.lastClient));
    return id;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): CachedRead | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Keeps a read for `ttlMs`; 0 or less (or too large to keep) keeps nothing. */
  put(key: string, uri: string, contents: DecodedContents[], bytes: number, ttlMs: number): void {
    this.delete(key);
    if (!(ttlMs > 0) || bytes > this.maxBytes) return;
    this.entries.set(key, { uri, contents, bytes, expiresAt: this.now() + ttlMs });
    this.bytes += bytes;
    for (const [k] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.delete(k);
    }
  }

  /**
   * Drops every entry for `uri` or a resource under it (a resource-updated notification); with
   * `scopes`, only entries whose key starts with one of them (one server's, in a shared cache).
   */
  invalidate(uri: string, scopes?: readonly string[]): void {
    this.changes++;
    for (const [key, entry] of this.entries) {
      if (scopes && !scopes.some((s) => key.startsWith(s))) continue;
      if (coversUri(uri, entry.uri)) this.delete(key);
    }
  }

  /**
   * Counts invalidations: a read that started before one may carry the old bytes, so the
   * resolver keeps it only when this did not move while it was in flight.
   */
  get generation(): number {
    return this.changes;
  }

  clear(): void {
    this.changes++;
    this.entries.clear();
    this.bytes = 0;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
