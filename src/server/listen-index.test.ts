import { describe, expect, it } from 'vitest';
import { coversUri } from '../uri/covers.js';
import { CoverIndex } from './listen-index.js';

const SUBSCRIBED = [
  'mem://a',
  'mem://a/',
  'mem://a/b',
  'mem://ab',
  'file:///d/',
  'file:///d/x.md',
  'file:///d/x.md#part',
  'x:?',
  'x:',
  'mem://q?v',
];
const UPDATED = [
  'mem://a',
  'mem://a/',
  'mem://a/b',
  'mem://a/b/c',
  'mem://a#x',
  'mem://a?v=1',
  'mem://ab',
  'mem://abc',
  'mem://',
  'file:///d/x.md',
  'file:///d/x.md#part',
  'file:///d/x.md#partly',
  'file:///d/y/z',
  'file:///dd',
  'x:?a',
  'x:/y',
  'mem://q?v',
  'mem://q?v/w',
  'other://a',
];

describe('CoverIndex', () => {
  it.each(UPDATED)('covering(%j) finds exactly the subscriptions coversUri accepts', (uri) => {
    const index = new CoverIndex<string>();
    for (const s of SUBSCRIBED) index.add(s, s);
    const expected = SUBSCRIBED.filter((s) => coversUri(s, uri)).sort();
    expect([...index.covering(uri)].sort()).toEqual(expected);
  });

  it('gives each item once, however many of its URIs cover the update', () => {
    const index = new CoverIndex<string>();
    index.add('mem://a', 'L1');
    index.add('mem://a/b', 'L1');
    index.add('mem://a/b', 'L2');
    expect([...index.covering('mem://a/b/c')].sort()).toEqual(['L1', 'L2']);
  });

  it('forgets an item per URI, and a URI (and its length) with its last item', () => {
    const index = new CoverIndex<string>();
    index.add('mem://a', 'L1');
    index.add('mem://a', 'L2');
    index.add('mem://b', 'L3');
    index.remove('mem://a', 'L1');
    expect([...index.covering('mem://a')]).toEqual(['L2']);
    index.remove('mem://a', 'L2');
    index.remove('mem://a', 'L2');
    index.remove('mem://never', 'L2');
    expect([...index.covering('mem://a')]).toEqual([]);
    expect([...index.covering('mem://b')]).toEqual(['L3']);
    index.remove('mem://b', 'L3');
    expect([...index.covering('mem://b')]).toEqual([]);
  });

  it('agrees with coversUri on random URIs built from boundary characters', () => {
    const alphabet = ['a', 'b', '/', '#', '?'];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const make = () => {
      let out = 's:';
      const n = Math.floor(random() * 6);
      for (let i = 0; i < n; i++) out += alphabet[Math.floor(random() * alphabet.length)];
      return out;
    };
    const subs = [...new Set(Array.from({ length: 60 }, make))];
    const index = new CoverIndex<string>();
    for (const s of subs) index.add(s, s);
    for (let i = 0; i < 500; i++) {
      const uri = make();
      expect([...index.covering(uri)].sort(), uri).toEqual(
        subs.filter((s) => coversUri(s, uri)).sort(),
      );
    }
  });
});
