/** A served folder with the tools and prompts of `mcpkit serve`: search, read, review-file, survey. */
import type { CallToolResult } from '../../protocol/types.js';
import { base64Length } from '../../protocol/base64.js';
import { isMcpKitError } from '../../errors/mcpkit-error.js';
import { isProtocolError } from '../../errors/protocol-error.js';
import { text } from '../../content/builders.js';
import { toolError } from '../../content/messages.js';
import { isTextMimeType } from '../../content/mime.js';
import { PART_META_KEY } from '../../content/policy.js';
import { utf8Length } from '../../content/wire-size.js';
import type { Attachment } from '../../content/attachment.js';
import type { McpServer, RequestContext } from '../../server/index.js';
import { FilesystemProvider, type FilesystemProviderOptions } from './filesystem-provider.js';
import { registerPrompts } from './folder-prompts.js';
import {
  budgets,
  describeHit,
  gatedSearch,
  linkOf,
  pathProblem,
  stopNote,
  type FolderSearchOptions,
  type GatedSearch,
} from './folder-text.js';
import { formatBytes } from './format.js';
import type { SearchHit, SearchResult, SearchStop } from './search.js';

export interface ServeFolderOptions extends FilesystemProviderOptions {
  /** Register the `search` and `read` tools (default true). */
  tools?: boolean;
  /** Register the `review-file` and `survey` prompts (default true). */
  prompts?: boolean;
  /**
   * Bounds of the `search` tool and the `survey` prompt: each search's budget (`maxFiles`
   * 20,000, `maxBytes` 64 MiB, `timeoutMs` 5,000; it returns what it found and says it stopped
   * early) and how many run at once (`concurrency` 4; one beyond waits its turn within its
   * time limit).
   */
  search?: FolderSearchOptions;
}

const SEARCH_MAX = 100;

/** Bytes a value takes on the wire as JSON. */
function wireSize(value: unknown): number {
  return utf8Length(JSON.stringify(value));
}

/** One match in the artifact of a search that found more than its limit. */
export interface SearchArtifactMatch {
  /** The file's resource URI. */
  uri: string;
  /** Its path in the served folder. */
  name: string;
  where: SearchHit['where'];
  /** A passage around the first match in the text (absent for a name-only match). */
  snippet?: string;
  /** 1-based line of that passage. */
  line?: number;
}

/**
 * The JSON artifact (`application/json`) a search links when more files match than its limit:
 * every match found within the search budgets, `complete` false when a budget (`stoppedBy`) cut
 * the scan short after `scanned` of `total` files.
 */
export interface SearchArtifact {
  query: string;
  matches: SearchArtifactMatch[];
  complete: boolean;
  stoppedBy?: SearchStop;
  scanned: number;
  total: number;
}

function matchesArtifact(
  ctx: RequestContext,
  query: string,
  found: SearchResult,
  matches: SearchHit[],
): Attachment {
  const body: SearchArtifact = {
    query,
    matches: matches.map((h) => ({
      uri: h.file.uri,
      name: h.file.path,
      where: h.where,
      ...(h.snippet !== undefined ? { snippet: h.snippet } : {}),
      ...(h.line !== undefined ? { line: h.line } : {}),
    })),
    complete: found.stopped === undefined,
    ...(found.stopped ? { stoppedBy: found.stopped } : {}),
    scanned: found.scanned,
    total: found.total,
  };
  const cut = found.stopped ? ' found before a search budget ran out' : '';
  return ctx.attach({
    name: 'search-matches.json',
    title: `Files matching ${JSON.stringify(query)}`,
    description: `All ${matches.length} matches${cut}, each with its uri, where it matched and a snippet (JSON).`,
    mimeType: 'application/json',
    text: JSON.stringify(body),
    mode: 'link',
  });
}

/** Registers the folder and, unless turned off, the tools and prompts around it. */
export function serveFolder(server: McpServer, options: ServeFolderOptions): FilesystemProvider {
  const provider = new FilesystemProvider(options);
  provider.register(server);
  // One gate for the tool and the prompt: together they never run more than `concurrency`.
  const search = gatedSearch(provider, options.search);
  if (options.tools !== false) registerTools(server, provider, search);
  if (options.prompts !== false) registerPrompts(server, provider, search);
  return provider;
}

function registerTools(server: McpServer, provider: FilesystemProvider, search: GatedSearch): void {
  server.tool(
    'search',
    {
      title: 'Search files',
      description:
        'Finds files of the served folder whose path or text contains the query (case-insensitive). ' +
        'Returns a short summary and one resource_link per match, with a snippet of the first match as its description. ' +
        'When more files match than "limit", a last resource_link points to a JSON list of every match found (application/json).',
      input: {
        type: 'object',
        properties: {
          query: {
            type: 'string',
            minLength: 1,
            maxLength: 500,
            description: 'Words to look for, matched literally',
          },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: SEARCH_MAX,
            default: 10,
            description: `Most matches returned (1-${SEARCH_MAX})`,
          },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, limit }: { query: string; limit?: number }, ctx) => {
      const found = await search(query, limit ?? 10, ctx.signal, true);
      const q = JSON.stringify(query);
      if (found.hits.length === 0) {
        const searched = found.stopped ? `${found.scanned} of ${found.total}` : `${found.total}`;
        return `No file name or text matches ${q} (${searched} files searched). Try other or fewer words.${stopNote(found)}`;
      }
      const matches = found.matches ?? found.hits;
      const names = matches.filter((h) => h.where !== 'content').length;
      const more = found.truncated
        ? `; showing the first ${found.hits.length}, the last link is a JSON list of all ${matches.length} with snippets`
        : '';
      const summary =
        `${matches.length} file${matches.length === 1 ? '' : 's'} match ${q} ` +
        `(${names} by name, ${matches.length - names} by text only${more}). ` +
        'Each link describes where the first match is; read a file with resources/read or the "read" tool.' +
        stopNote(found);
      const links = found.hits.map((h) => linkOf(provider, h.file, ctx.capBytes, describeHit(h)));
      if (!found.truncated) return { content: [text(summary), ...links] };
      return ctx.result(text(summary), ...links, matchesArtifact(ctx, query, found, matches));
    },
  );

  server.tool(
    'read',
    {
      title: 'Read a file',
      description:
        'Returns one file of the served folder, embedded when it fits the embed budgets and linked otherwise ' +
        '(mode "auto"); "embed" insists on the contents, "link" only returns a resource_link.',
      input: {
        type: 'object',
        properties: {
          path: {
            type: 'string',
            minLength: 1,
            description: 'Path relative to the served folder, e.g. notes/intro.md',
          },
          mode: {
            type: 'string',
            enum: ['auto', 'embed', 'link'],
            default: 'auto',
            description: 'auto: the policy decides',
          },
        },
        required: ['path'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ path: file, mode }: { path: string; mode?: 'auto' | 'embed' | 'link' }, ctx) => {
      const problem = pathProblem(file);
      if (problem) return toolError(`Refused path ${JSON.stringify(file)}: ${problem}.`);
      const stat = await provider.stat(file);
      if (!stat)
        return toolError(
          `No file ${JSON.stringify(file)} in the served folder; use the "search" tool to find one.`,
        );
      const asked = mode ?? 'auto';
      const kind = stat.mimeType ?? 'unknown type';
      const wire = isTextMimeType(kind) ? stat.size : base64Length(stat.size);
      const why =
        asked === 'link'
          ? 'as asked'
          : `about ${formatBytes(wire)} on the wire is over what may be embedded (${budgets(server, ctx)})`;
      const about = `${file} (${kind}, ${formatBytes(stat.size)})`;
      const embeddedLine = `${about}, embedded below.`;
      let result: CallToolResult;
      try {
        // The summary is fitted with the file, by the same call: an embed leaves room for it.
        result = await ctx.result(
          text(embeddedLine),
          ctx.attach(provider.uriOf(file), { mode: asked, name: file }),
        );
      } catch (error) {
        if (isProtocolError(error) || isMcpKitError(error)) {
          return toolError(`Cannot return ${about}: ${error.message}`);
        }
        throw error;
      }
      const [, ...blocks] = result.content;
      if (blocks[0]?.type === 'resource') return result;
      // Linked: say why. That wording is longer than the one the result was fitted with, so it
      // is checked against the cap; the short one, never longer than the fitted line, is the
      // fallback.
      const inParts = blocks[0]?.type === 'resource_link' && blocks[0].uri !== provider.uriOf(file);
      const how = inParts
        ? 'It is too large to read whole over this connection, so the link is its first part: ' +
          `read it with resources/read, then each part's _meta["${PART_META_KEY}"].next`
        : 'Read it with resources/read when you need its contents';
      const linked = [text(`${about} is linked, not embedded: ${why}. ${how}.`), ...blocks];
      return {
        ...result,
        content:
          wireSize(linked) <= ctx.capBytes ? linked : [text(`${about} is linked.`), ...blocks],
      };
    },
  );
}
