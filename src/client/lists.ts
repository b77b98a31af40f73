/** Paging through a list: follow `nextCursor` up to a page limit, never forever. */
import { McpKitError } from '../errors/index.js';
import { listFieldOf, type ListMethod } from '../protocol/methods.js';

type Obj = Record<string, unknown>;

export type { ListMethod };

/**
 * Yields every entry of every page. Ends with `PAGE_LIMIT` when the server keeps handing out
 * cursors past `maxPages`, or hands out one it already gave (a loop).
 */
export async function* paginate<T>(
  method: ListMethod,
  fetchPage: (cursor: string | undefined) => Promise<Obj>,
  maxPages: number,
  startCursor?: string,
): AsyncGenerator<T, void, undefined> {
  const field = listFieldOf(method);
  const seen = new Set<string>();
  let cursor = startCursor;
  for (let page = 1; ; page++) {
    const result = await fetchPage(cursor);
    for (const entry of (result[field] ?? []) as T[]) yield entry;
    const next = result['nextCursor'];
    if (typeof next !== 'string') return;
    if (seen.has(next)) {
      throw new McpKitError(
        'PAGE_LIMIT',
        `${method}: the server repeated cursor ${JSON.stringify(next.slice(0, 80))} (page ${page}); stopped to avoid a loop`,
      );
    }
    if (page >= maxPages) {
      throw new McpKitError(
        'PAGE_LIMIT',
        `${method}: still more pages after ${maxPages}; raise maxPages if the list is really that long`,
      );
    }
    seen.add(next);
    cursor = next;
  }
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
