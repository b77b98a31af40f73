import { ProtocolError } from '../errors/protocol-error.js';
import { decodeJsonBase64Url, encodeJsonBase64Url } from './encoding.js';

/** A page of a list and the cursor of the next one. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

interface CursorBody {
  o: number;
  k: string;
}

/**
 * Pages a list in a deterministic order. The opaque cursor names the last item served and its
 * offset, so a page stays stable when items are added or removed before it.
 */
export function paginate<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  cursor: string | undefined,
  pageSize: number,
  method: string,
): Page<T> {
  let start = 0;
  if (cursor !== undefined) {
    const body = decodeJsonBase64Url(cursor) as Partial<CursorBody> | undefined;
    if (
      !body ||
      typeof body.o !== 'number' ||
      !Number.isInteger(body.o) ||
      body.o < 0 ||
      typeof body.k !== 'string'
    ) {
      const why = `${method}: params.cursor is not a cursor this server issued`;
      throw ProtocolError.invalidParams(why, { cursor });
    }
    const before = items[body.o - 1];
    if (before !== undefined && keyOf(before) === body.k) {
      start = body.o;
    } else {
      const at = items.findIndex((item) => keyOf(item) === body.k);
      // The last item served is gone: assume it was the one removed and resume where it stood,
      // so that a removal repeats nothing and skips nothing.
      start = at >= 0 ? at + 1 : Math.min(Math.max(body.o - 1, 0), items.length);
    }
  }
  const end = Math.min(start + pageSize, items.length);
  const page = items.slice(start, end);
  if (end >= items.length || page.length === 0) return { items: page };
  const last = page[page.length - 1] as T;
  return {
    items: page,
    nextCursor: encodeJsonBase64Url({ o: end, k: keyOf(last) } satisfies CursorBody),
  };
}
