/** The folder's `search` tool: ranked links to the best matches, and an artifact listing more. */
import { text } from '../../content/builders.js';
import { toolError } from '../../content/messages.js';
import { compileGlob } from '../../search/glob.js';
import type { Attachment } from '../../content/attachment.js';
import type { McpServer, RequestContext } from '../../server/index.js';
import type { FilesystemProvider } from './filesystem-provider.js';
import {
  describeHit,
  linkOf,
  partialNote,
  RANKING_NOTE,
  type RunSearch,
  type SearchHit,
  type SearchResult,
} from './folder-text.js';
import { asciiJson, entriesText } from './search-entries.js';

const SEARCH_MAX = 100;

/** One match in the artifact of a search that found more than its limit. */
export interface SearchArtifactMatch {
  /** The file's resource URI. */
  uri: string;
  /** Its path in the served folder. */
  name: string;
  where: SearchHit['where'];
  /** A passage around the first match in the text (the returned links only). */
  snippet?: string;
  /** 1-based line of the first match in the text (when found within the listing's time budget). */
  line?: number;
}

/**
 * The JSON artifact (`application/json`) a search links when more files match than its limit:
 * the matches best first, up to the index's `listLimit` (1,000 by default). `complete` is false
 * when it lists fewer than `matched`, or when the index was still being built (`scanned` files
 * indexed of `total` listed).
 */
export interface SearchArtifact {
  query: string;
  /** The `path` glob the search was limited to, when it had one. */
  path?: string;
  matches: SearchArtifactMatch[];
  /** Files that match in all. */
  matched: number;
  complete: boolean;
  scanned: number;
  total: number;
}

function matchesArtifact(
  ctx: RequestContext,
  query: string,
  path: string | undefined,
  found: SearchResult,
): Attachment {
  const listedCount = found.hits.length + found.more.count;
  const head: Pick<SearchArtifact, 'query' | 'path'> = {
    query,
    ...(path !== undefined ? { path } : {}),
  };
  const tail: Omit<SearchArtifact, 'query' | 'path' | 'matches'> = {
    matched: found.matched,
    complete:
      listedCount >= found.matched &&
      found.indexed >= found.total &&
      !found.walking &&
      found.unchecked === 0,
    scanned: found.indexed,
    total: found.total,
  };
  const hits = found.hits.map((h): SearchArtifactMatch => ({
    uri: h.file.uri,
    name: h.file.path,
    where: h.where,
    ...(h.snippet !== undefined ? { snippet: h.snippet } : {}),
    ...(h.line !== undefined ? { line: h.line } : {}),
  }));
  // The entries past the hits come written (search-entries.ts): spliced in, the same JSON value
  // as JSON.stringify of the whole SearchArtifact, in its key order (wide characters escaped).
  const entries = [
    ...hits.map((h) => asciiJson(h)),
    ...(found.more.json.length > 0 ? [entriesText(found.more.json)] : []),
  ];
  const text =
    `${asciiJson(head).slice(0, -1)},"matches":[${entries.join(',')}],` +
    JSON.stringify(tail).slice(1);
  const listed =
    listedCount < found.matched
      ? `The best ${listedCount} of ${found.matched} matches`
      : `All ${found.matched} matches`;
  return ctx.attach({
    name: 'search-matches.json',
    title: `Files matching ${JSON.stringify(query)}`,
    description: `${listed}, best first, each with its uri, where it matched and the line of the first match (JSON).`,
    mimeType: 'application/json',
    text,
    mode: 'link',
  });
}

/** Why `pattern` is not a glob the index can match with, or undefined when it is one. */
function globProblem(pattern: string): string | undefined {
  try {
    compileGlob(pattern);
    return undefined;
  } catch (error) {
    if (error instanceof RangeError) return error.message;
    throw error;
  }
}

export function registerSearchTool(
  server: McpServer,
  provider: FilesystemProvider,
  search: RunSearch,
): void {
  server.tool(
    'search',
    {
      title: 'Search files',
      description:
        'Finds files of the served folder by words in their path or text (case-insensitive), ranked by relevance. ' +
        'Every word must match; a word also matches longer words it starts (zebra finds zebrafish) and identifier parts ' +
        '("parse args" and parseargs find parseArgs, "snake case" finds snake_case); "a quoted phrase" matches exactly. ' +
        'Returns a short summary and one resource_link per match, with the line and a snippet of the first match as its description. ' +
        'When more files match than "limit", a last resource_link points to a JSON list of the matches (application/json).',
      input: {
        type: 'object',
        properties: {
          query: {
            type: 'string',
            minLength: 1,
            maxLength: 500,
            description: 'Words to look for (all must match); "quoted phrase" for an exact phrase',
          },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: SEARCH_MAX,
            default: 10,
            description: `Most matches returned (1-${SEARCH_MAX})`,
          },
          path: {
            type: 'string',
            minLength: 1,
            maxLength: 500,
            description: 'Only files whose path matches this glob, e.g. src/**/*.ts',
          },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, limit, path }: { query: string; limit?: number; path?: string }, ctx) => {
      // A glob that does not compile is the client's argument, not a failed search: said so here
      // (the worker would fail the search with a message that names no argument).
      const problem = path === undefined ? undefined : globProblem(path);
      if (problem !== undefined)
        return toolError(
          `Invalid arguments for tool "search": "path" ${JSON.stringify(path)} is not a glob: ${problem}`,
        );
      const found = await search(query, limit ?? 10, ctx.signal, path);
      const q = JSON.stringify(query);
      const within = path !== undefined ? ` in ${JSON.stringify(path)}` : '';
      if (found.hits.length === 0) {
        return `No file name or text${within} matches ${q} (${found.indexed} files searched). Try other or fewer words.${partialNote(found)}`;
      }
      const { hits, matched } = found;
      const listed = hits.length + found.more.count;
      const names = hits.filter((h) => h.where !== 'content').length + found.more.names;
      const more =
        matched > hits.length
          ? `; showing the best ${hits.length}, the last link is a JSON list of ${listed < matched ? `the best ${listed}` : `all ${matched}`}`
          : '';
      const summary =
        `${matched} file${matched === 1 ? '' : 's'}${within} match ${q} ` +
        `(${matched > listed ? 'of those listed, ' : ''}${names} by name, ${listed - names} by text only${more}). ` +
        `${RANKING_NOTE} Each link describes where the first match is; read a file with resources/read or the "read" tool.` +
        partialNote(found);
      const links = hits.map((h) => linkOf(provider, h.file, ctx.capBytes, describeHit(h)));
      if (matched <= hits.length) return { content: [text(summary), ...links] };
      return ctx.result(text(summary), ...links, matchesArtifact(ctx, query, path, found));
    },
  );
}
