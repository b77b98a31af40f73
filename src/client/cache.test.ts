import { describe, expect, it } from 'vitest';
import { ScriptedTransport, result } from '../testing/scripted-transport.js';
import type { Script } from '../testing/scripted-transport.js';
import { ClientCache } from './cache.js';
import { McpClient } from './client.js';
import type { CacheOptions } from './options.js';

type Obj = Record<string, unknown>;

const read = (uri: string, ttlMs: number, cacheScope: 'public' | 'private'): Obj => ({
  contents: [{ uri, mimeType: 'text/plain', text: uri }],
  resultType: 'complete',
  ttlMs,
  cacheScope,
});

function clock() {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('ClientCache', () => {
  it('hits within ttlMs, misses after', () => {
    const time = clock();
    const cache = new ClientCache(10, time.now);
    cache.put('u', 'resources/read', { uri: 'a' }, read('a', 100, 'private'));
    time.advance(99);
    expect(cache.get('u', 'resources/read', { uri: 'a' })).toBeDefined();
    time.advance(1);
    expect(cache.get('u', 'resources/read', { uri: 'a' })).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('hands out copies: a caller editing its result does not edit the cache', () => {
    const cache = new ClientCache();
    cache.put('u', 'resources/read', { uri: 'a' }, read('a', 100, 'private'));
    const first = cache.get('u', 'resources/read', { uri: 'a' })!.result as { contents: Obj[] };
    first.contents[0]!['text'] = 'changed';
    const second = cache.get('u', 'resources/read', { uri: 'a' })!.result as { contents: Obj[] };
    expect(second.contents[0]!['text']).toBe('a');
  });

  it('ttlMs 0, absent or negative and input_required are never kept', () => {
    const cache = new ClientCache();
    cache.put('u', 'tools/list', {}, { tools: [], ttlMs: 0, cacheScope: 'public' });
    cache.put('u', 'tools/list', { cursor: 'a' }, { tools: [] });
    cache.put('u', 'tools/list', { cursor: 'b' }, { tools: [], ttlMs: -5 });
    cache.put('u', 'resources/read', {}, { resultType: 'input_required', ttlMs: 100 });
    expect(cache.size).toBe(0);
  });

  it('the key ignores _meta but not the other params', () => {
    const cache = new ClientCache();
    cache.put('u', 'resources/read', { uri: 'a', _meta: { x: 1 } }, read('a', 100, 'public'));
    expect(cache.get('u', 'resources/read', { uri: 'a', _meta: { y: 2 } })).toBeDefined();
    expect(cache.get('u', 'resources/read', { uri: 'b' })).toBeUndefined();
    expect(cache.get('u', 'resources/templates/list', { uri: 'a' })).toBeUndefined();
  });

  it('private entries are per credential, public ones shared', () => {
    const cache = new ClientCache();
    cache.put('alice', 'resources/read', { uri: 'p' }, read('p', 100, 'private'));
    cache.put('alice', 'resources/read', { uri: 'q' }, read('q', 100, 'public'));
    expect(cache.get('bob', 'resources/read', { uri: 'p' })).toBeUndefined();
    expect(cache.get('bob', 'resources/read', { uri: 'q' })).toBeDefined();
    expect(cache.get('alice', 'resources/read', { uri: 'p' })).toBeDefined();
  });

  it('keeps at most maxEntries, oldest dropped first', () => {
    const cache = new ClientCache(2);
    for (const uri of ['a', 'b', 'c'])
      cache.put('u', 'resources/read', { uri }, read(uri, 100, 'public'));
    expect(cache.get('u', 'resources/read', { uri: 'a' })).toBeUndefined();
    expect(cache.get('u', 'resources/read', { uri: 'c' })).toBeDefined();
  });

  it('list_changed drops that list (resources: templates too); updated drops the URI and below', () => {
    const cache = new ClientCache();
    const keep = { ttlMs: 100, cacheScope: 'public' };
    cache.put('u', 'tools/list', {}, { tools: [], ...keep });
    cache.put('u', 'prompts/list', {}, { prompts: [], ...keep });
    cache.put('u', 'resources/list', {}, { resources: [], ...keep });
    cache.put('u', 'resources/templates/list', {}, { resourceTemplates: [], ...keep });
    for (const uri of ['file:///d', 'file:///d/x', 'file:///dx']) {
      cache.put('u', 'resources/read', { uri }, read(uri, 100, 'private'));
    }
    cache.invalidate({ method: 'notifications/tools/list_changed' });
    expect(cache.get('u', 'tools/list', {})).toBeUndefined();
    expect(cache.get('u', 'prompts/list', {})).toBeDefined();
    cache.invalidate({ method: 'notifications/resources/list_changed' });
    expect(cache.get('u', 'resources/list', {})).toBeUndefined();
    expect(cache.get('u', 'resources/templates/list', {})).toBeUndefined();
    cache.invalidate({ method: 'notifications/resources/updated', params: { uri: 'file:///d' } });
    expect(cache.get('u', 'resources/read', { uri: 'file:///d' })).toBeUndefined();
    expect(cache.get('u', 'resources/read', { uri: 'file:///d/x' })).toBeUndefined();
    expect(cache.get('u', 'resources/read', { uri: 'file:///dx' })).toBeDefined();
    cache.invalidate({ method: 'notifications/prompts/list_changed' });
    expect(cache.get('u', 'prompts/list', {})).toBeUndefined();
  });
});

describe('the cache in McpClient', () => {
  async function open(cache?: false | CacheOptions, script?: Script) {
    const t = new ScriptedTransport()
      .modern()
      .onRequest(
        'resources/read',
        script ?? ((m) => result(read(String(m.params?.['uri']), 60_000, 'private'))),
      );
    const c = await new McpClient({
      transport: t,
      ...(cache === undefined ? {} : { cache }),
    }).connect();
    return { t, c, reads: () => t.requests('resources/read').length };
  }

  it('serves a hit within ttlMs without asking the server; a miss after it', async () => {
    const time = clock();
    const store = new ClientCache(100, time.now);
    const { c, reads } = await open({ store });
    await c.readResource('mem://a');
    await c.readResource('mem://a');
    expect(reads()).toBe(1);
    time.advance(60_000);
    await c.readResource('mem://a');
    expect(reads()).toBe(2);
  });

  it('ttlMs 0 is never cached', async () => {
    const { c, reads } = await open(undefined, () => result(read('mem://a', 0, 'public')));
    await c.readResource('mem://a');
    await c.readResource('mem://a');
    expect(reads()).toBe(2);
  });

  it('private entries are not shared by clients with different credentials; public ones are', async () => {
    const store = new ClientCache();
    const scope = (uri: string) => (uri.includes('pub') ? 'public' : 'private');
    const script: Script = (m) => {
      const uri = String(m.params?.['uri']);
      return result(read(uri, 60_000, scope(uri)));
    };
    const alice = await open({ store, credential: 'alice' }, script);
    const bob = await open({ store, credential: 'bob' }, script);
    await alice.c.readResource('mem://secret');
    await alice.c.readResource('mem://pub');
    await bob.c.readResource('mem://secret');
    await bob.c.readResource('mem://pub');
    expect(bob.t.requests('resources/read').map((r) => r.params['uri'])).toEqual(['mem://secret']);
    const alice2 = await open({ store, credential: 'alice' }, script);
    await alice2.c.readResource('mem://secret');
    expect(alice2.reads()).toBe(0);
  });

  it('two clients sharing a store without a credential do not share private entries', async () => {
    const store = new ClientCache();
    const one = await open({ store });
    const two = await open({ store });
    await one.c.readResource('mem://a');
    await two.c.readResource('mem://a');
    expect(two.reads()).toBe(1);
  });

  it('is invalidated by list_changed and resources/updated notifications', async () => {
    const meta = { resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' };
    const { t, c, reads } = await open();
    t.onRequest('prompts/list', result({ prompts: [], ...meta }));
    await c.listPrompts();
    await c.readResource('mem://a');
    await c.listPrompts();
    await c.readResource('mem://a');
    expect([t.requests('prompts/list').length, reads()]).toEqual([1, 1]);
    t.pushNotification('notifications/prompts/list_changed');
    t.pushNotification('notifications/resources/updated', { uri: 'mem://a' });
    await c.listPrompts();
    await c.readResource('mem://a');
    expect([t.requests('prompts/list').length, reads()]).toEqual([2, 2]);
  });

  it('cache: false turns it off; per-request cache: false skips it', async () => {
    const off = await open(false);
    await off.c.readResource('mem://a');
    await off.c.readResource('mem://a');
    expect(off.reads()).toBe(2);
    const on = await open();
    await on.c.readResource('mem://a', { cache: false });
    await on.c.readResource('mem://a');
    await on.c.readResource('mem://a');
    await on.c.readResource('mem://a', { cache: false });
    expect(on.reads()).toBe(3);
  });

  it('the discover result is cached under server/discover when its ttlMs allows', async () => {
    const t = new ScriptedTransport().modern({ ttlMs: 60_000 });
    const c = await new McpClient({ transport: t }).connect();
    await c.request('server/discover');
    expect(t.requests('server/discover')).toHaveLength(1);
  });
});
