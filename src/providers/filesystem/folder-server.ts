/** A served folder with the tools and prompts of `mcpkit serve`: search, read, review-file, survey. */
import * as path from 'node:path';
import { ERROR_CODES } from '../../protocol/error-codes.js';
import type { CallToolResult, PromptMessage, ResourceLink } from '../../protocol/types.js';
import { base64Length } from '../../protocol/base64.js';
import { isMcpKitError } from '../../errors/mcpkit-error.js';
import { ProtocolError, isProtocolError } from '../../errors/protocol-error.js';
import { resultTooLarge } from '../../errors/wire-errors.js';
import { resourceLink, text } from '../../content/builders.js';
import { toolError } from '../../content/messages.js';
import { isTextMimeType } from '../../content/mime.js';
import { utf8Length } from '../../content/wire-size.js';
import { DEFAULT_BLOCK_BUDGET_BYTES, DEFAULT_RESULT_BUDGET_BYTES } from '../../content/policy.js';
import { checkVariable } from '../../uri/index.js';
import type { McpServer, RequestContext } from '../../server/index.js';
import {
  FilesystemProvider,
  type FileInfo,
  type FilesystemProviderOptions,
} from './filesystem-provider.js';
import { formatBytes } from './format.js';
import { searchFiles, type SearchHit } from './search.js';

export interface ServeFolderOptions extends FilesystemProviderOptions {
  /** Register the `search` and `read` tools (default true). */
  tools?: boolean;
  /** Register the `review-file` and `survey` prompts (default true). */
  prompts?: boolean;
}

const SEARCH_MAX = 100;
const SURVEY_LINKS = 20;

/** Bytes a value takes on the wire as JSON. */
function wireSize(value: unknown): number {
  return utf8Length(JSON.stringify(value));
}

function linkOf(file: FileInfo, description?: string): ResourceLink {
  return resourceLink({
    uri: file.uri,
    name: file.path,
    mimeType: file.mimeType,
    size: file.size,
    annotations: { lastModified: new Date(file.mtimeMs).toISOString() },
    ...(description !== undefined ? { description } : {}),
  });
}

/** Where the query was found, for a link's description. */
function describeHit(hit: SearchHit): string {
  const at = hit.line !== undefined ? `line ${hit.line}: ${hit.snippet ?? ''}` : '';
  if (hit.where === 'content') return at;
  if (hit.where === 'name+content') return `name matches; ${at}`;
  return `name matches (${hit.file.mimeType}, ${formatBytes(hit.file.size)})`;
}

/** Registers the folder and, unless turned off, the tools and prompts around it. */
export function serveFolder(server: McpServer, options: ServeFolderOptions): FilesystemProvider {
  const provider = new FilesystemProvider(options);
  provider.register(server);
  if (options.tools !== false) registerTools(server, provider);
  if (options.prompts !== false) registerPrompts(server, provider);
  return provider;
}

/** Checks a path argument as the template would, before it goes anywhere near a URI. */
function pathProblem(value: string): string | undefined {
  return value === '' ? 'the path is empty' : checkVariable('path', value, 'reserved');
}

function budgets(server: McpServer, ctx: RequestContext): string {
  const c = server.options.content ?? {};
  const block = formatBytes(c.blockBudgetBytes ?? DEFAULT_BLOCK_BUDGET_BYTES);
  const result = formatBytes(c.resultBudgetBytes ?? DEFAULT_RESULT_BUDGET_BYTES);
  return `embed budgets: ${block} per block, ${result} per result; transport cap ${formatBytes(ctx.capBytes)}`;
}

function registerTools(server: McpServer, provider: FilesystemProvider): void {
  server.tool(
    'search',
    {
      title: 'Search files',
      description:
        'Finds files of the served folder whose path or text contains the query (case-insensitive). ' +
        'Returns a short summary and one resource_link per match, with a snippet of the first match as its description.',
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
      const found = await searchFiles(provider, query, { limit: limit ?? 10, signal: ctx.signal });
      const q = JSON.stringify(query);
      if (found.hits.length === 0) {
        return `No file name or text matches ${q} (${found.total} files searched). Try other or fewer words.`;
      }
      const names = found.hits.filter((h) => h.where !== 'content').length;
      const more = found.truncated
        ? `; showing the first ${found.hits.length}, more may match (raise "limit")`
        : '';
      const summary =
        `${found.hits.length} file${found.hits.length === 1 ? '' : 's'} match ${q} ` +
        `(${names} by name, ${found.hits.length - names} by text only${more}). ` +
        'Each link describes where the first match is; read a file with resources/read or the "read" tool.';
      return { content: [text(summary), ...found.hits.map((h) => linkOf(h.file, describeHit(h)))] };
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
      const linked = [
        text(
          `${about} is linked, not embedded: ${why}. Read it with resources/read when you need its contents.`,
        ),
        ...blocks,
      ];
      return {
        ...result,
        content:
          wireSize(linked) <= ctx.capBytes ? linked : [text(`${about} is linked.`), ...blocks],
      };
    },
  );
}

function reviewInstructions(file: string, mimeType: string | undefined): string {
  if (mimeType !== undefined && isTextMimeType(mimeType)) {
    return (
      `Review ${file}, embedded above. List, most important first: errors of fact or logic, ` +
      'contradictions, unclear or ambiguous passages, and information a reader would miss. ' +
      'Quote the exact lines you refer to and propose a concrete rewrite for each. ' +
      'End with a short verdict: is it ready to share, and what must change first?'
    );
  }
  return (
    `Review ${file} (${mimeType ?? 'binary'}), embedded above. Describe what it contains, then point out ` +
    'problems (errors, legibility, missing context) and suggest concrete improvements. End with a short verdict.'
  );
}

/** When to read a surveyed file: why it matched, and what it costs. */
function whenToRead(hit: SearchHit, blockBudget: number): string {
  const passage = hit.snippet !== undefined ? ` (line ${hit.line}: ${hit.snippet})` : '';
  let when: string;
  if (hit.where === 'name+content') when = `Its name and its text match${passage}. Read it first.`;
  else if (hit.where === 'content')
    when = `Its text matches${passage}. Read it when you need that passage.`;
  else if (isTextMimeType(hit.file.mimeType))
    when = 'Only its name matches. Read it if the question is about this file itself.';
  else when = 'A non-text file whose name matches. Open it only if you need to see it.';
  const large =
    hit.file.size > blockBudget
      ? ` It is large (${formatBytes(hit.file.size)}): read it only if the others are not enough.`
      : '';
  return when + large;
}

function registerPrompts(server: McpServer, provider: FilesystemProvider): void {
  const folder = path.basename(provider.root) || provider.root;
  server.prompt(
    'review-file',
    {
      title: 'Review a file',
      description: 'Embeds one file of the served folder and asks for a critical review of it.',
      arguments: [
        {
          name: 'path',
          description: 'Path relative to the served folder (completion available)',
          required: true,
        },
      ],
      complete: { path: (value) => provider.complete(value) },
    },
    async ({ path: file = '' }, ctx) => {
      const problem = pathProblem(file);
      if (problem)
        throw ProtocolError.invalidParams(
          `review-file: refused path ${JSON.stringify(file)}: ${problem}`,
          { argument: 'path' },
        );
      const stat = await provider.stat(file);
      if (!stat) {
        throw ProtocolError.invalidParams(
          `review-file: no file ${JSON.stringify(file)} in the served folder; complete the "path" argument to see what exists`,
          { argument: 'path', path: file },
        );
      }
      // The file and the instructions are sized together, by the call that builds the result.
      try {
        return await ctx.messages(
          {
            role: 'user',
            content: ctx.attach(provider.uriOf(file), { required: true }),
          },
          { role: 'user', content: text(reviewInstructions(file, stat.mimeType)) },
        );
      } catch (error) {
        if (!isMcpKitError(error, 'RESULT_TOO_LARGE') && !isProtocolError(error)) throw error;
        if (isProtocolError(error) && error.code !== ERROR_CODES.INTERNAL_ERROR) throw error;
        const wire =
          (isTextMimeType(stat.mimeType ?? '') ? stat.size : base64Length(stat.size)) + 2;
        throw resultTooLarge(
          `review-file: ${file} (${formatBytes(stat.size)}) cannot be embedded: with the review ` +
            `instructions it is too large for one prompt (the file alone takes at least ` +
            `${formatBytes(wire)} on the wire; ${budgets(server, ctx)}). Use the "read" tool or the ` +
            '"survey" prompt, which link large files instead, or raise the budgets or the cap ' +
            '(mcpkit serve --block-budget, --result-budget, --max-line-bytes, --max-body-bytes).',
          {
            path: file,
            size: stat.size,
            wireBytes: wire,
            capBytes: ctx.capBytes,
          },
        );
      }
    },
  );

  server.prompt(
    'survey',
    {
      title: 'Survey the folder',
      description:
        'Links the files that match a query and says what each is and when to read it; nothing is embedded.',
      arguments: [
        { name: 'query', description: 'Words to look for in file names and texts', required: true },
      ],
    },
    async ({ query = '' }, ctx) => {
      if (query.trim() === '')
        throw ProtocolError.invalidParams('survey: the "query" argument is empty', {
          argument: 'query',
        });
      const found = await searchFiles(provider, query, { limit: SURVEY_LINKS, signal: ctx.signal });
      const q = JSON.stringify(query);
      if (found.hits.length === 0) {
        return `No file in ${folder} matches ${q} by name or text (${found.total} files). Ask the user for other words, or call the "search" tool with fewer words.`;
      }
      const block = server.options.content?.blockBudgetBytes ?? DEFAULT_BLOCK_BUDGET_BYTES;
      const lines = found.hits.map(
        (h, i) =>
          `${i + 1}. ${h.file.path} (${h.file.mimeType}, ${formatBytes(h.file.size)}). ${whenToRead(h, block)}`,
      );
      const more = found.truncated
        ? ` Only the first ${found.hits.length} are shown; more files may match.`
        : '';
      const intro =
        `Survey of ${folder} for ${q}: ${found.hits.length} matching file${found.hits.length === 1 ? ' is' : 's are'} linked below, ` +
        `not embedded, so read only what you need (resources/read).${more}\n\nWhat each link is, and when to read it:\n${lines.join('\n')}`;
      const messages: PromptMessage[] = [
        { role: 'user', content: text(intro) },
        ...found.hits.map((h): PromptMessage => ({
          role: 'user',
          content: linkOf(h.file, describeHit(h)),
        })),
        {
          role: 'user',
          content: text(
            `Answer questions about ${q} from the files you read, and cite their paths.`,
          ),
        },
      ];
      return { messages };
    },
  );
}
