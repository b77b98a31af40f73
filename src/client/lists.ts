/**
 * Paging through a list: follow `nextCursor` within bounds, never forever and never keeping more
 * than the bounds allow. Pages, entries and their bytes are counted; each cursor is refused over
 * its size limit and remembered only by its digest (for loop detection).
 */
import { utf8Length } from '../content/wire-size.js';
import { McpKitError } from '../errors/index.js';
import { listFieldOf, type ListMethod } from '../protocol/methods.js';
import {
  DEFAULT_MAX_CURSOR_BYTES,
  DEFAULT_MAX_LIST_BYTES,
  DEFAULT_MAX_LIST_ITEMS,
  DEFAULT_MAX_PAGES,
  type McpClientOptions,
} from './options.js';

type Obj = Record<string, unknown>;

export type { ListMethod };

/** The bounds of one list walk (an iterator, or a `listTools()` and friends). */
export interface ListLimits {
  maxPages: number;
  /** Entries of all pages together. */
  maxItems: number;
  /** UTF-8 bytes of the entries of all pages together, as JSON. */
  maxBytes: number;
  /** UTF-8 bytes of one `nextCursor`. */
  maxCursorBytes: number;
}

/** How the caller spells each limit in its messages: a client option, or a CLI flag ('' for none). */
export type ListLimitNames = Record<keyof ListLimits, string>;

export const CLIENT_LIST_LIMIT_NAMES: ListLimitNames = {
  maxPages: 'maxPages',
  maxItems: 'maxListItems',
  maxBytes: 'maxListBytes',
  maxCursorBytes: 'maxCursorBytes',
};

/** The list limits of a client's options, defaults filled in. */
export function listLimitsOf(
  options: Pick<McpClientOptions, 'maxPages' | 'maxListItems' | 'maxListBytes' | 'maxCursorBytes'>,
): ListLimits {
  return {
    maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
    maxItems: options.maxListItems ?? DEFAULT_MAX_LIST_ITEMS,
    maxBytes: options.maxListBytes ?? DEFAULT_MAX_LIST_BYTES,
    maxCursorBytes: options.maxCursorBytes ?? DEFAULT_MAX_CURSOR_BYTES,
  };
}

async function digest(cursor: string): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(cursor));
  let out = '';
  for (const byte of new Uint8Array(hash)) out += byte.toString(16).padStart(2, '0');
  return out;
}

/**
 * The bookkeeping of one list walk: what the pages so far added up to, and the digests of the
 * cursors given. Throws `LIST_TOO_LARGE` past the item, byte or cursor limit, `PAGE_LIMIT` past
 * the page limit or on a cursor given twice; the message names the limit as `names` spells it.
 */
export class ListBounds {
  items = 0;
  bytes = 0;
  pages = 0;
  private readonly seen = new Set<string>();

  constructor(
    readonly method: string,
    readonly limits: ListLimits,
    readonly names: ListLimitNames = CLIENT_LIST_LIMIT_NAMES,
  ) {}

  /** Counts one page's entries; throws before they are kept when they take the list over. */
  addPage(entries: readonly unknown[]): void {
    this.pages++;
    const { maxItems, maxBytes } = this.limits;
    const items = this.items + entries.length;
    if (items > maxItems)
      this.fail(
        'LIST_TOO_LARGE',
        `page ${this.pages} takes the list past ${maxItems} entries (${this.names.maxItems}); raise ${this.names.maxItems} if the list is really that long`,
      );
    const bytes = this.bytes + (entries.length === 0 ? 0 : utf8Length(JSON.stringify(entries)));
    if (bytes > maxBytes)
      this.fail(
        'LIST_TOO_LARGE',
        `page ${this.pages} takes the list's entries past ${maxBytes} bytes (${this.names.maxBytes}); raise ${this.names.maxBytes} if the list is really that large`,
      );
    this.items = items;
    this.bytes = bytes;
  }

  /** Checks the cursor a page handed out before it is followed: its size, a repeat, the page limit. */
  async follow(cursor: string): Promise<void> {
    const { maxCursorBytes, maxPages } = this.limits;
    const size = utf8Length(cursor);
    if (size > maxCursorBytes)
      this.fail(
        'LIST_TOO_LARGE',
        `page ${this.pages} handed out a cursor of ${size} bytes, over ${maxCursorBytes} (${this.names.maxCursorBytes}); not followed`,
      );
    const key = await digest(cursor);
    if (this.seen.has(key))
      this.fail(
        'PAGE_LIMIT',
        `page ${this.pages} repeated the cursor ${JSON.stringify(cursor.slice(0, 80))}; stopped to avoid a loop`,
      );
    if (this.pages >= maxPages) {
      const name = this.names.maxPages;
      this.fail(
        'PAGE_LIMIT',
        name === ''
          ? `still more pages after ${maxPages}; stopped there`
          : `still more pages after ${maxPages} (${name}); raise ${name} if the list is really that long`,
      );
    }
    this.seen.add(key);
  }

  private fail(code: 'LIST_TOO_LARGE' | 'PAGE_LIMIT', message: string): never {
    throw new McpKitError(code, `${this.method}: ${message}`);
  }
}

/**
 * Yields every entry of every page, within `limits` (see ListBounds). A page's entries are
 * yielded only once the whole page fits.
 */
export async function* paginate<T>(
  method: ListMethod,
  fetchPage: (cursor: string | undefined) => Promise<Obj>,
  limits: ListLimits,
  options: { startCursor?: string; names?: ListLimitNames } = {},
): AsyncGenerator<T, void, undefined> {
  const field = listFieldOf(method);
  const bounds = new ListBounds(method, limits, options.names);
  let cursor = options.startCursor;
  for (;;) {
    const result = await fetchPage(cursor);
    const list = result[field];
    const entries = (Array.isArray(list) ? list : []) as T[];
    bounds.addPage(entries);
    yield* entries;
    const next = result['nextCursor'];
    if (typeof next !== 'string') return;
    await bounds.follow(next);
    cursor = next;
  }
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
