import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../errors/protocol-error.js';
import { encodeJsonBase64Url } from './encoding.js';
import { paginate } from './pagination.js';

const key = (s: string): string => s;
const page = (items: readonly string[], cursor: string | undefined, size = 2) =>
  paginate(items, key, cursor, size, 'tools/list');

/** Every item, following cursors from the first page. */
function walk(items: readonly string[], size: number): string[][] {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const p = page(items, cursor, size);
    pages.push(p.items);
    cursor = p.nextCursor;
  } while (cursor !== undefined && pages.length < 100);
  return pages;
}

describe('paginate', () => {
  it('pages a list in order; the last page has no nextCursor', () => {
    expect(walk(['a', 'b', 'c', 'd', 'e'], 2)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(walk(['a', 'b', 'c', 'd'], 2)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(page(['a', 'b'], undefined)).toEqual({ items: ['a', 'b'] });
  });

  it('returns an empty page without a cursor for an empty list', () => {
    expect(page([], undefined)).toEqual({ items: [] });
  });

  it('gives URL-safe cursors', () => {
    const { nextCursor } = page(['a', 'b', 'c'], undefined);
    expect(nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['inserted before the page', ['x', 'a', 'y', 'b', 'c', 'd'], ['c', 'd']],
    ['removed before the page', ['b', 'c', 'd'], ['c', 'd']],
    ['inserted after the page', ['a', 'b', 'c', 'n', 'd'], ['c', 'n']],
    ['unchanged', ['a', 'b', 'c', 'd'], ['c', 'd']],
  ])('continues after the last item served when items are %s', (_what, now, expected) => {
    const first = page(['a', 'b', 'c', 'd'], undefined);
    expect(first.items).toEqual(['a', 'b']);
    expect(page(now, first.nextCursor).items).toEqual(expected);
  });

  it('falls back to the offset less one, clamped, when the last item served is gone', () => {
    const first = page(['a', 'b', 'c', 'd', 'e'], undefined);
    // 'a' and 'b' both gone: nothing marks the place but the offset (2), taken as one removal.
    expect(page(['c', 'd', 'e'], first.nextCursor)).toEqual({ items: ['d', 'e'] });
    expect(page(['c'], first.nextCursor)).toEqual({ items: [] });
  });

  it('does not skip an item when the last item served is removed', () => {
    const first = page(['a', 'b', 'c', 'd', 'e'], undefined);
    expect(page(['a', 'c', 'd', 'e'], first.nextCursor).items).toEqual(['c', 'd']);
  });

  it('returns an empty last page for a well-formed cursor past the end', () => {
    const pastEnd = encodeJsonBase64Url({ o: 99, k: 'zzz' });
    expect(page(['a', 'b'], pastEnd)).toEqual({ items: [] });
  });

  it.each([
    ['not base64url', '!!not a cursor!!'],
    ['base64url of no JSON', 'AAAA'],
    ['one stray character', 'A'],
    ['JSON null', encodeJsonBase64Url(null)],
    ['a JSON array', encodeJsonBase64Url([2, 'b'])],
    ['a negative offset', encodeJsonBase64Url({ o: -1, k: 'a' })],
    ['a fractional offset', encodeJsonBase64Url({ o: 1.5, k: 'a' })],
    ['a string offset', encodeJsonBase64Url({ o: '2', k: 'b' })],
    ['no key', encodeJsonBase64Url({ o: 2 })],
    ['a numeric key', encodeJsonBase64Url({ o: 2, k: 2 })],
    ['empty', ''],
  ])('refuses a cursor that is %s with -32602 naming params.cursor', (_what, cursor) => {
    let error: unknown;
    try {
      page(['a', 'b', 'c'], cursor);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProtocolError);
    const e = error as ProtocolError;
    expect(e.code).toBe(-32602);
    expect(e.message).toBe('tools/list: params.cursor is not a cursor this server issued');
    expect(e.data).toEqual({ cursor });
  });
});
