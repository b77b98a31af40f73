/** Case-insensitive search over file names and text contents of a served folder. */
import { isTextMimeType } from '../../content/mime.js';
import type { FileInfo, FilesystemProvider } from './filesystem-provider.js';

export interface SearchOptions {
  /** Most hits returned (default 10). */
  limit?: number;
  /** Larger text files are matched by name only (default 8 MiB). */
  maxFileBytes?: number;
  signal?: AbortSignal;
}

export interface SearchHit {
  file: FileInfo;
  /** Where the query was found. */
  where: 'name' | 'content' | 'name+content';
  /** A short passage around the first match in the text, whitespace collapsed. */
  snippet?: string;
  /** 1-based line of that match. */
  line?: number;
}

export interface SearchResult {
  hits: SearchHit[];
  /** Files whose name or text was looked at. */
  scanned: number;
  /** Files served in all. */
  total: number;
  /** The scan stopped at the limit: more files may match. */
  truncated: boolean;
}

const SNIPPET_SIDE = 60;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A passage of about 120 characters around `index`, on one line, with ellipses where cut. */
export function snippetAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - SNIPPET_SIDE);
  const end = Math.min(text.length, index + length + SNIPPET_SIDE);
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * Finds files whose path or text contains `query` (case-insensitive). Name matches come first,
 * then content matches, each in path order; the scan stops once `limit` hits are found.
 * Text is read through the provider (its guards and its cache).
 */
export async function searchFiles(
  provider: FilesystemProvider,
  query: string,
  options: SearchOptions = {},
): Promise<SearchResult> {
  const limit = options.limit ?? 10;
  const maxFileBytes = options.maxFileBytes ?? 8 * 1024 * 1024;
  const pattern = new RegExp(escapeRegExp(query), 'iu');
  const files = await provider.files();
  const byName = files.filter((f) => pattern.test(f.path));
  const named = new Set(byName.map((f) => f.path));
  const hits: SearchHit[] = [];
  let scanned = 0;
  const look = async (file: FileInfo): Promise<{ snippet: string; line: number } | undefined> => {
    if (!isTextMimeType(file.mimeType) || file.size > maxFileBytes || file.size === 0)
      return undefined;
    const outcome = await provider.contents(file.path, maxFileBytes * 6 + 2);
    if (outcome.kind !== 'ok' || outcome.contents.text === undefined) return undefined;
    const text = outcome.contents.text;
    const found = pattern.exec(text);
    if (!found) return undefined;
    return {
      snippet: snippetAround(text, found.index, found[0].length),
      line: lineAt(text, found.index),
    };
  };
  for (const file of byName) {
    if (hits.length >= limit) break;
    options.signal?.throwIfAborted();
    scanned++;
    const inText = await look(file);
    hits.push(inText ? { file, where: 'name+content', ...inText } : { file, where: 'name' });
  }
  let truncated = byName.length > hits.length;
  for (const file of files) {
    if (named.has(file.path)) continue;
    if (hits.length >= limit) {
      truncated = true;
      break;
    }
    options.signal?.throwIfAborted();
    scanned++;
    const inText = await look(file);
    if (inText) hits.push({ file, where: 'content', ...inText });
  }
  return { hits, scanned, total: files.length, truncated };
}
