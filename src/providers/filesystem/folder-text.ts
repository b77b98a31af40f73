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
import { SearchGate } from './search-gate.js';
import {
  searchFiles,
  type SearchHit,
  type SearchLimits,
  type SearchResult,
  type SearchStop,
} from './search.js';

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

function spent(stop: SearchStop): string {
  if (stop.budget === 'timeoutMs') return `its time budget of ${stop.limit} ms ran out`;
  if (stop.budget === 'maxBytes') return `it read its budget of ${formatBytes(stop.limit)} of text`;
  if (stop.budget === 'maxWaiting')
    return `it found ${stop.limit} other searches waiting for a turn (maxWaiting)`;
  return `it looked at its budget of ${stop.limit} files`;
}

/** One sentence saying that (and why) a search stopped early, or '' when it did not. */
export function stopNote(found: SearchResult): string {
  if (!found.stopped) return '';
  return (
    ` The search stopped early: ${spent(found.stopped)} after looking at ${found.scanned} of ` +
    `${found.total} files, so files it did not look at may match too (every name was matched). ` +
    'Use more specific words to find more.'
  );
}

/** Limits of the folder's searches: each one's budget, and how many look at file texts at once. */
export interface FolderSearchOptions extends SearchLimits {
  /**
   * Most searches at once, the tool's and the survey prompt's together (default 4); another
   * waits its turn within its own time limit, and is never refused.
   */
  concurrency?: number;
  /** Most searches waiting for a turn (default 64); one more answers its name matches at once. */
  maxWaiting?: number;
}

/** A search through the gate: it always answers, at the latest at its time limit. */
export type GatedSearch = (
  query: string,
  limit: number,
  signal: AbortSignal,
  collect?: boolean,
) => Promise<SearchResult>;

export function gatedSearch(
  provider: FilesystemProvider,
  options: FolderSearchOptions = {},
): GatedSearch {
  const gate = new SearchGate(options);
  const { maxFiles, maxBytes, timeoutMs } = options;
  const limits: SearchLimits = {
    ...(maxFiles !== undefined ? { maxFiles } : {}),
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
  const turn = (deadline: number, signal?: AbortSignal) => gate.acquire(deadline, signal);
  return (query, limit, signal, collect = false) =>
    searchFiles(provider, query, { ...limits, limit, signal, collect, turn });
}
