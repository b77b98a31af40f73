import { describe, expect, it } from 'vitest';
import { ByteLruCache } from './content-cache.js';

describe('ByteLruCache', () => {
  it('evicts the least recently used, a value used twice in a row counted once', () => {
    const c = new ByteLruCache<string>(3, 3);
    const kept = (...keys: string[]) => keys.filter((k) => c.peek(k) !== undefined);
    for (const key of ['a', 'b', 'c']) c.set(key, key, 1);
    c.get('a');
    c.get('a'); // already the most recent: the order stays b, c, a
    c.get('c'); // b, a, c
    c.set('d', 'd', 1); // a, c, d
    c.set('e', 'e', 1); // c, d, e
    expect(kept('a', 'b', 'c', 'd', 'e')).toEqual(['c', 'd', 'e']);
    c.delete('e'); // the most recent one leaves: c, d
    c.get('c'); // d, c
    c.set('f', 'f', 1);
    c.set('g', 'g', 1); // c, f, g
    expect(kept('c', 'd', 'f', 'g')).toEqual(['c', 'f', 'g']);
    c.clear();
    c.set('h', 'h', 1);
    c.get('h');
    expect(c.stats()).toMatchObject({ entries: 1, bytes: 1, hits: 5 });
  });

  it('refuses a value too large to keep', () => {
    const cache = new ByteLruCache<number>(10);
    expect(cache.accepts(5)).toBe(true);
    expect(cache.accepts(6)).toBe(false);
    expect(cache.set('big', 1, 6)).toBe(false);
    expect(cache.peek('big')).toBeUndefined();
    expect(new ByteLruCache<number>(0).accepts(0)).toBe(false);
  });

  it('drops every version of one file at once by its group, and only those', () => {
    const cache = new ByteLruCache<number>(100);
    const keys = ['/r/a\0v1', '/r/a\0v2', '/r/ab\0v1', '/r/b\0v1'];
    const kept = () => keys.filter((k) => cache.peek(k) !== undefined);
    cache.set('/r/a\0v1', 1, 1, '/r/a');
    cache.set('/r/a\0v2', 2, 1, '/r/a');
    cache.set('/r/ab\0v1', 3, 1, '/r/ab');
    cache.set('/r/b\0v1', 4, 1);
    cache.delete('/r/a\0v1');
    cache.deleteGroup('/r/a');
    cache.deleteGroup('/r/a');
    expect(kept()).toEqual(['/r/ab\0v1', '/r/b\0v1']);
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 2 });
    cache.clear();
    cache.deleteGroup('/r/ab');
    expect(kept()).toEqual([]);
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('keeps a group of one version, of several, and of one again, and drops it whole', () => {
    const cache = new ByteLruCache<number>(100);
    cache.set('/r/c\0v1', 1, 1, '/r/c');
    cache.deleteGroup('/r/c');
    expect(cache.peek('/r/c\0v1')).toBeUndefined();
    cache.set('/r/c\0v2', 2, 1, '/r/c');
    cache.set('/r/c\0v3', 3, 1, '/r/c');
    cache.delete('/r/c\0v2');
    cache.set('/r/c\0v4', 4, 1, '/r/c');
    cache.set('/r/c\0v4', 5, 1, '/r/c');
    expect(cache.peek('/r/c\0v4')).toBe(5);
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 2 });
    cache.deleteGroup('/r/c');
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });
});
