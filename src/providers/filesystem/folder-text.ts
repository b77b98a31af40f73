/** What the folder's tools and prompts share: links, wording, path checks, the gated search. */
import type { ResourceLink } from '../../protocol/types.js';
import { resourceLink } from '../../content/builders.js';
import {
  DEFAULT_BLOCK_BUDGET_BYTES,
  DEFAULT_RESULT_BUDGET_BYTES,
  firstPartDescription,
} from '../../content/policy.js';
import { checkVariable } from '../../uri/index.js';
import type { McpServer, RequestContext } from '../../server/index.js';
import type { FileInfo, FilesystemProvider } from './filesystem-provider.js';
import { formatBytes } from './format.js';
import type { FolderSearch } from './folder-search.js';
import type { FoundFile } from './search-core.js';
import type { MoreEntries } from './search-entries.js';
import type { MatchPlace } from '../../search/text-index.js';

/**
 * A link to a listed file for a result under `capBytes`: to the file, or, when it is too large to
 * read whole there, to its first part (sized as the part), with a description that says so.
 */
export function linkOf(
  provider: FilesystemProvider,
  file: FileInfo,
  capBytes: number,
  description?: string,
): ResourceLink {
  const firstPart = provider.firstPartFor(file, capBytes);
  const note = firstPart !== undefined ? firstPartDescription(file.path, file.size) : undefined;
  const said = [description, note].filter((s) => s !== undefined && s !== '').join('. ');
  return resourceLink({
    uri: firstPart ?? file.uri,
    name: file.path,
    mimeType: file.mimeType,
    size: firstPart !== undefined ? Math.min(file.size, provider.partBytes) : file.size,
    annotations: { lastModified: new Date(file.mtimeMs).toISOString() },
    ...(said !== '' ? { description: said } : {}),
  });
}

/** Where the query was found, for a link's description. */
export function describeHit(hit: SearchHit): string {
  const at = hit.line !== undefined ? `line ${hit.line}: ${hit.snippet ?? ''}` : '';
  if (hit.where === 'content') return at;
  if (hit.where === 'name+content') return `name matches; ${at}`;
  return `name matches (${hit.file.mimeType}, ${formatBytes(hit.file.size)})`;
}

/** Checks a path argument as the template would, before it goes anywhere near a URI. */
export function pathProblem(value: string): string | undefined {
  return value === '' ? 'the path is empty' : checkVariable('path', value, 'reserved');
}

export function budgets(server: McpServer, ctx: RequestContext): string {
  const c = server.options.content ?? {};
  const block = formatBytes(c.blockBudgetBytes ?? DEFAULT_BLOCK_BUDGET_BYTES);
  const result = formatBytes(c.resultBudgetBytes ?? DEFAULT_RESULT_BUDGET_BYTES);
  return `embed budgets: ${block} per block, ${result} per result; transport cap ${formatBytes(ctx.capBytes)}`;
}

/** One file a search found, as listed now. */
export interface SearchHit {
  file: FileInfo;
  /** Where every word matched. */
  where: MatchPlace;
  /** A short passage around the first match in the text, whitespace collapsed (the hits only). */
  snippet?: string;
  /** 1-based line of the first match in the text. */
  line?: number;
}

/** What a search of the folder's index found. */
export interface SearchResult {
  /** The best `limit` matches, with a snippet each when the text matched. */
  hits: SearchHit[];
  /**
   * The matches after the hits, best first, up to the artifact's bound (`listLimit`) with the
   * hits: their artifact entries as JSON (`SearchArtifactMatch`, search-tool.ts), comma-separated.
   */
  more: MoreEntries;
  /** Files that match in all (the hits and `more` may list fewer). */
  matched: number;
  /** Files indexed when the search ran, of `total` listed: fewer is a partial answer. */
  indexed: number;
  total: number;
  /** Files holding every word of a quoted phrase that were left unchecked (`maxPhraseChecks`). */
  unchecked: number;
  /** The folder was still being walked: `total` counts the files found so far. */
  walking: boolean;
}

/** How the answer is ranked, in one line. */
export const RANKING_NOTE =
  'Ranked by relevance: every word must match, in the path or the text (a word also matches longer words it starts, and identifier parts: "parse args" finds parseArgs); BM25 over the text, name matches weighted 3x.';

/** Sentences saying what the answer may be missing ('' when nothing). */
export function partialNote(found: SearchResult): string {
  let note = '';
  const n = (v: number): string => v.toLocaleString('en-US');
  if (found.walking) {
    note += ` The folder is still being walked and indexed: indexed ${n(found.indexed)} of the ${n(found.total)} files found so far; try again for the rest.`;
  } else if (found.indexed < found.total) {
    note += ` The index is still being built: indexed ${n(found.indexed)} of ${n(found.total)} files; try again for the rest.`;
  }
  if (found.unchecked > 0) {
    note += ` ${found.unchecked} more file${found.unchecked === 1 ? '' : 's'} hold every word of the quoted phrase but were not checked for it (maxPhraseChecks): they may match too; use more words to narrow it.`;
  }
  return note;
}

/** A search of the folder: `path` is a glob over root-relative paths. */
export type RunSearch = (
  query: string,
  limit: number,
  signal: AbortSignal,
  path?: string,
) => Promise<SearchResult>;

/** Searches through the folder's index, and names each match as listed now. */
export function indexedSearch(provider: FilesystemProvider, index: FolderSearch): RunSearch {
  // The listing as it is: a search never waits for a walk (the index follows the walks).
  const listed = (found: FoundFile): SearchHit | undefined => {
    const file = provider.listed(found.path);
    if (!file) return undefined;
    const { where, line, snippet } = found;
    return {
      file,
      where,
      ...(snippet !== undefined ? { snippet } : {}),
      ...(line !== undefined ? { line } : {}),
    };
  };
  const present = (hit: SearchHit | undefined): hit is SearchHit => hit !== undefined;
  return async (query, limit, signal, path) => {
    const answer = await index.search({ query, limit, path }, signal);
    // The links must resolve: a hit no longer listed is dropped. The matches past them come as
    // the index's worker wrote them (it follows the listing), never looked up one by one here.
    const hits = answer.hits.map(listed).filter(present);
    return {
      hits,
      more: answer.more,
      matched: answer.total - (answer.hits.length - hits.length),
      indexed: answer.indexed,
      total: answer.listed,
      unchecked: answer.unchecked,
      walking: !provider.listingState.complete,
    };
  };
}
