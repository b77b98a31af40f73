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

  it('runs an entry’s onEvict once, however it leaves', () => {
    const gone: string[] = [];
    const cache = new ByteLruCache<number>(10, 10);
    const track = (name: string) => () => gone.push(name);
    cache.set('a', 1, 4, track('a'));
    cache.set('b', 2, 4, track('b'));
    cache.get('a');
    cache.set('c', 3, 4, track('c')); // over 10: b, the least recently used, goes
    expect(gone).toEqual(['b']);
    cache.set('a', 4, 4, track('a2')); // replaced
    expect(gone).toEqual(['b', 'a']);
    cache.delete('c');
    cache.delete('c');
    expect(gone).toEqual(['b', 'a', 'c']);
    cache.clear();
    expect(gone).toEqual(['b', 'a', 'c', 'a2']);
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('refuses a value too large to keep, and lets go of it at once', () => {
    let released = 0;
    const cache = new ByteLruCache<number>(10);
    expect(cache.accepts(5)).toBe(true);
    expect(cache.accepts(6)).toBe(false);
    expect(cache.set('big', 1, 6, () => released++)).toBe(false);
    expect(released).toBe(1);
    expect(new ByteLruCache<number>(0).accepts(0)).toBe(false);
  });

  it('drops every version of one file at once by its group, and only those', () => {
    const gone: string[] = [];
    const cache = new ByteLruCache<number>(100);
    const track = (name: string) => () => gone.push(name);
    cache.set('/r/a\0v1', 1, 1, track('a1'), '/r/a');
    cache.set('/r/a\0v2', 2, 1, track('a2'), '/r/a');
    cache.set('/r/ab\0v1', 3, 1, track('ab'), '/r/ab');
    cache.set('/r/b\0v1', 4, 1, track('b'));
    cache.delete('/r/a\0v1');
    cache.deleteGroup('/r/a');
    cache.deleteGroup('/r/a');
    expect(gone).toEqual(['a1', 'a2']);
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 2 });
    cache.clear();
    cache.deleteGroup('/r/ab');
    expect(gone).toEqual(['a1', 'a2', 'ab', 'b']);
  });

  it('keeps a group of one version, of several, and of one again, and drops it whole', () => {
    const gone: string[] = [];
    const cache = new ByteLruCache<number>(100);
    const track = (name: string) => () => gone.push(name);
    cache.set('/r/c\0v1', 1, 1, track('c1'), '/r/c');
    cache.deleteGroup('/r/c');
    expect(gone).toEqual(['c1']);
    cache.set('/r/c\0v2', 2, 1, track('c2'), '/r/c');
    cache.set('/r/c\0v3', 3, 1, track('c3'), '/r/c');
    cache.delete('/r/c\0v2');
    cache.set('/r/c\0v4', 4, 1, track('c4'), '/r/c');
    cache.set('/r/c\0v4', 5, 1, track('c4 again'), '/r/c');
    cache.deleteGroup('/r/c');
    expect(gone).toEqual(['c1', 'c2', 'c4', 'c3', 'c4 again']);
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });
});
