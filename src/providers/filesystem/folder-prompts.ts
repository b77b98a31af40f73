/** The prompts of a served folder: review-file (one file embedded) and survey (links only). */
import * as path from 'node:path';
import type { PromptMessage } from '../../protocol/types.js';
import { base64Length } from '../../protocol/base64.js';
import { isMcpKitError } from '../../errors/mcpkit-error.js';
import { ProtocolError, isProtocolError } from '../../errors/protocol-error.js';
import { resultTooLarge, TOO_LARGE_REASON } from '../../errors/wire-errors.js';
import { text } from '../../content/builders.js';
import { isTextMimeType } from '../../content/mime.js';
import { DEFAULT_BLOCK_BUDGET_BYTES } from '../../content/policy.js';
import type { McpServer, RequestContext, ResourceStat } from '../../server/index.js';
import type { FilesystemProvider } from './filesystem-provider.js';
import { formatBytes } from './format.js';
import {
  budgets,
  describeHit,
  linkOf,
  pathProblem,
  partialNote,
  type RunSearch,
  type SearchHit,
} from './folder-text.js';

const SURVEY_LINKS = 20;
/** Longest survey query (as the search tool's). */
const MAX_SURVEY_QUERY = 500;

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

/** Files offered when a review names none that exists. */
const CHOICES = 20;

/**
 * A review of a path that names no file, from a client that takes elicitations: asks which of
 * the nearest names was meant (in 2026-07-28 one more round, its state in the signed
 * `requestState`, so the retry may reach another instance). Undefined when nothing is near.
 */
async function askWhichFile(
  provider: FilesystemProvider,
  folder: string,
  file: string,
  ctx: RequestContext,
): Promise<{ file: string; stat: ResourceStat } | undefined> {
  if (!takesForms(ctx) || file === '') return undefined;
  const stem = path.posix.basename(file).replace(/\.[^.]*$/, '');
  const near = new Set((await provider.complete(file)).values);
  if (stem !== '') for (const p of (await provider.complete(stem)).values) near.add(p);
  const choices = [...near].slice(0, CHOICES);
  if (choices.length === 0) return undefined;
  const { pick } = await ctx.ask({
    pick: {
      method: 'elicitation/create',
      params: {
        message: `There is no file ${JSON.stringify(file)} in ${folder}. Which file should be reviewed?`,
        requestedSchema: {
          type: 'object',
          properties: { path: { type: 'string', title: 'File', enum: choices } },
          required: ['path'],
        },
      },
    },
  });
  const action = String(pick['action']);
  const picked = (pick['content'] as { path?: unknown } | undefined)?.path;
  if (action !== 'accept' || typeof picked !== 'string')
    throw ProtocolError.invalidParams(
      `review-file: no file ${JSON.stringify(file)} in the served folder, and none was chosen (${action})`,
      { argument: 'path', path: file },
    );
  // What comes back is the client's: one of the names offered, checked like the argument itself.
  const problem = choices.includes(picked) ? pathProblem(picked) : 'not one of the files offered';
  const stat = problem ? undefined : await provider.stat(picked);
  if (!stat)
    throw ProtocolError.invalidParams(
      `review-file: the chosen file ${JSON.stringify(picked)} cannot be reviewed: ${problem ?? 'it is gone'}`,
      { argument: 'path', path: picked },
    );
  return { file: picked, stat };
}

/** A client that declared form elicitation (an empty `elicitation` object means form, as in 2025-06-18). */
function takesForms(ctx: RequestContext): boolean {
  const declared = ctx.clientCapabilities['elicitation'];
  if (typeof declared !== 'object' || declared === null) return false;
  return 'form' in declared || !('url' in declared);
}

/** Registers review-file and survey; survey searches through `search` (the shared gate). */
export function registerPrompts(
  server: McpServer,
  provider: FilesystemProvider,
  search: RunSearch,
): void {
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
    async ({ path: asked = '' }, ctx) => {
      let file = asked;
      const problem = pathProblem(file);
      if (problem)
        throw ProtocolError.invalidParams(
          `review-file: refused path ${JSON.stringify(file)}: ${problem}`,
          { argument: 'path' },
        );
      let stat = await provider.stat(file);
      const picked = stat ? undefined : await askWhichFile(provider, folder, file, ctx);
      if (picked) ({ file, stat } = picked);
      if (!stat) {
        throw ProtocolError.invalidParams(
          `review-file: no file ${JSON.stringify(file)} in the served folder; complete the "path" argument to see what exists`,
          { argument: 'path', path: file },
        );
      }
      // The file and the instructions are sized together, by the call that builds the result.
      try {
        return await ctx.messages(
          { role: 'user', content: ctx.attach(provider.uriOf(file), { required: true }) },
          { role: 'user', content: text(reviewInstructions(file, stat.mimeType)) },
        );
      } catch (error) {
        // Only a refusal for size is reworded: a read that timed out, stalled or kept changing
        // is -32603 too, and says why itself.
        const tooLarge =
          isMcpKitError(error, 'RESULT_TOO_LARGE') ||
          (isProtocolError(error) &&
            (error.data as { reason?: unknown } | undefined)?.reason === TOO_LARGE_REASON);
        if (!tooLarge) throw error;
        const wire =
          (isTextMimeType(stat.mimeType ?? '') ? stat.size : base64Length(stat.size)) + 2;
        throw resultTooLarge(
          `review-file: ${file} (${formatBytes(stat.size)}) cannot be embedded: with the review ` +
            `instructions it is too large for one prompt (the file alone takes at least ` +
            `${formatBytes(wire)} on the wire; ${budgets(server, ctx)}). Use the "read" tool or the ` +
            '"survey" prompt, which link large files instead, or raise the budgets or the cap ' +
            '(mcpkit serve --block-budget, --result-budget, --max-response-bytes).',
          { path: file, size: stat.size, wireBytes: wire, capBytes: ctx.capBytes },
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
      if (query.length > MAX_SURVEY_QUERY)
        throw ProtocolError.invalidParams(
          `survey: the "query" argument is longer than ${MAX_SURVEY_QUERY} characters`,
          { argument: 'query' },
        );
      const found = await search(query, SURVEY_LINKS, ctx.signal);
      const q = JSON.stringify(query);
      if (found.hits.length === 0) {
        return `No file in ${folder} matches ${q} by name or text (${found.total} files).${partialNote(found)} Ask the user for other words, or call the "search" tool with fewer words.`;
      }
      const block = server.options.content?.blockBudgetBytes ?? DEFAULT_BLOCK_BUDGET_BYTES;
      const lines = found.hits.map(
        (h, i) =>
          `${i + 1}. ${h.file.path} (${h.file.mimeType}, ${formatBytes(h.file.size)}). ${whenToRead(h, block)}`,
      );
      const more =
        (found.matched > found.hits.length
          ? ` Only the best ${found.hits.length} of ${found.matched} are shown.`
          : '') + partialNote(found);
      const intro =
        `Survey of ${folder} for ${q}: ${found.hits.length} matching file${found.hits.length === 1 ? ' is' : 's are'} linked below, ` +
        `not embedded, so read only what you need (resources/read).${more}\n\nWhat each link is, and when to read it:\n${lines.join('\n')}`;
      const messages: PromptMessage[] = [
        { role: 'user', content: text(intro) },
        ...found.hits.map((h): PromptMessage => ({
          role: 'user',
          content: linkOf(provider, h.file, ctx.capBytes, describeHit(h)),
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
