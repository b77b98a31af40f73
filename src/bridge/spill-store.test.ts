import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../errors/index.js';
import { SPILL_URI_PREFIX, SpillStore } from './spill-store.js';

describe('SpillStore', () => {
  it('serves what it keeps under a random URI, and nothing for other URIs', () => {
    const store = new SpillStore(100, 4);
    const a = store.keep('héllo', 'text/plain') as string;
    const b = store.keep('héllo', 'text/plain') as string;
    expect(a.startsWith(SPILL_URI_PREFIX)).toBe(true);
    expect(a).not.toBe(b);
    expect(store.read(a)).toEqual({
      contents: [{ uri: a, mimeType: 'text/plain', text: 'héllo' }],
    });
    expect(store.read('file:///x')).toBeUndefined();
  });

  it('evicts the oldest first, by count and by bytes; a text over the bound is not kept', () => {
    const store = new SpillStore(10, 2);
    const one = store.keep('aaaa', 'text/plain') as string;
    const two = store.keep('bbbb', 'text/plain') as string;
    const three = store.keep('cc', 'text/plain') as string;
    expect(() => store.read(one)).toThrow(ProtocolError);
    expect(store.read(two)).toBeDefined();
    expect(store.size).toEqual({ bytes: 6, count: 2 });
    const four = store.keep('dddddddd', 'text/plain') as string;
    expect(() => store.read(two)).toThrow(/no longer kept/);
    expect(store.read(three)).toBeDefined();
    expect(store.read(four)).toBeDefined();
    expect(store.size).toEqual({ bytes: 10, count: 2 });
    expect(store.keep('x'.repeat(11), 'text/plain')).toBeUndefined();
    expect(store.size).toEqual({ bytes: 10, count: 2 });
    expect(new SpillStore(10, 0).keep('a', 'text/plain')).toBeUndefined();
  });
});
