/**
 * Results the server said may be reused (`ttlMs` > 0), keyed by method and params. A `private`
 * entry belongs to one credential and is never served to another; `public` ones are shared.
 * One cache may serve several clients of the same server (pass it as `cache.store`).
 */
import type { CacheScope } from '../protocol/index.js';

type Obj = Record<string, unknown>;

interface Entry {
  result: Obj;
  /** Tools the check of this result dropped (replayed on a hit, so the refusal holds). */
  dropped: readonly string[];
  expires: number;
  uri?: string;
  method: string;
}

const LIST_OF: Record<string, string> = {
  'notifications/tools/list_changed': 'tools/list',
  'notifications/prompts/list_changed': 'prompts/list',
  'notifications/resources/list_changed': 'resources/list',
};

function keyOf(owner: string, method: string, params: Obj | undefined): string {
  const { _meta: _ignored, ...rest } = params ?? {};
  return `${owner}\u0000${method}\u0000${JSON.stringify(rest)}`;
}

/** A hit: a copy of the result, and the tools its check dropped. */
export interface CacheHit {
  result: Obj;
  dropped: readonly string[];
}

export class ClientCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every invalidation: an answer requested before one is not stored. */
  private generation = 0;

  constructor(
    private readonly maxEntries = 500,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Taken before a request is sent; `put` refuses the answer if an invalidation came since. */
  stamp(): number {
    return this.generation;
  }

  /** A live entry for this credential: its own private one first, then a public one. */
  get(credential: string, method: string, params: Obj | undefined): CacheHit | undefined {
    for (const owner of [`p:${credential}`, 'public']) {
      const key = keyOf(owner, method, params);
      const entry = this.entries.get(key);
      if (!entry) continue;
      if (entry.expires <= this.now()) {
        this.entries.delete(key);
        continue;
      }
      // A copy: a caller that edits its result must not edit what the next caller gets.
      return { result: structuredClone(entry.result), dropped: entry.dropped };
    }
    return undefined;
  }

  /** Keeps a result for its `ttlMs`; 0, absent or invalid means not at all. */
  put(
    credential: string,
    method: string,
    params: Obj | undefined,
    result: Obj,
    options: { stamp?: number; dropped?: readonly string[] } = {},
  ): void {
    if (options.stamp !== undefined && options.stamp !== this.generation) return;
    const ttl = result['ttlMs'];
    if (typeof ttl !== 'number' || !(ttl > 0) || result['resultType'] === 'input_required') return;
    const scope = (result['cacheScope'] as CacheScope | undefined) ?? 'private';
    const owner = scope === 'public' ? 'public' : `p:${credential}`;
    const key = keyOf(owner, method, params);
    this.entries.delete(key);
    const uri = method === 'resources/read' ? String(params?.['uri']) : undefined;
    // Its own copy: the caller gets `result` itself and may edit it.
    this.entries.set(key, {
      result: structuredClone(result),
      dropped: options.dropped ?? [],
      expires: this.now() + ttl,
      method,
      ...(uri ? { uri } : {}),
    });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Drops what a server notification says is stale. */
  invalidate(notification: { method: string; params?: Obj }): void {
    if (
      LIST_OF[notification.method] !== undefined ||
      notification.method === 'notifications/resources/updated'
    ) {
      this.generation++;
    }
    const list = LIST_OF[notification.method];
    if (list !== undefined) {
      this.drop(
        (e) =>
          e.method === list ||
          (list === 'resources/list' && e.method === 'resources/templates/list'),
      );
    } else if (notification.method === 'notifications/resources/updated') {
      const uri = notification.params?.['uri'];
      if (typeof uri === 'string')
        this.drop(
          (e) =>
            e.uri !== undefined &&
            (e.uri === uri || e.uri.startsWith(uri.endsWith('/') ? uri : `${uri}/`)),
        );
    }
  }

  clear(): void {
    this.entries.clear();
  }

  private drop(match: (entry: Entry) => boolean): void {
    for (const [key, entry] of this.entries) if (match(entry)) this.entries.delete(key);
  }
}
