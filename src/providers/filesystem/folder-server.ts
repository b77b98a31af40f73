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
import type { McpServer } from '../../server/index.js';
import { FilesystemProvider, type FilesystemProviderOptions } from './filesystem-provider.js';
import { registerPrompts } from './folder-prompts.js';
import { budgets, indexedSearch, pathProblem, type RunSearch } from './folder-text.js';
import { FolderSearch } from './folder-search.js';
import type { IndexedSearchOptions } from './folder-search-options.js';
import { registerSearchTool } from './search-tool.js';
import { formatBytes } from './format.js';

export interface ServeFolderOptions extends FilesystemProviderOptions {
  /** Register the `search` and `read` tools (default true). */
  tools?: boolean;
  /** Register the `review-file` and `survey` prompts (default true). */
  prompts?: boolean;
  /**
   * The search index behind the `search` tool and the `survey` prompt (every text file up to
   * `maxFileBytes`, 8 MiB, indexed in a worker; `timeoutMs` 5,000 per search): see
   * {@link IndexedSearchOptions}.
   */
  search?: IndexedSearchOptions;
}

/** Bytes a value takes on the wire as JSON. */
function wireSize(value: unknown): number {
  return utf8Length(JSON.stringify(value));
}

/** How long an unwatched folder waits after a change event before it walks again (ms). */
const BUS_WALK_DELAY_MS = 250;

/**
 * Unwatched (`--no-watch`, fed by the other instances through a shared bus), a change event
 * walks the folder again soon, so that the index follows without a search waiting for the walk.
 */
function followForIndex(server: McpServer, provider: FilesystemProvider): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = server.onChange((event) => {
    if (provider.watching || timer !== undefined) return;
    if (event.type === 'list-changed' && event.list !== 'resources') return;
    timer = setTimeout(() => {
      timer = undefined;
      provider.files().catch(() => undefined);
    }, BUS_WALK_DELAY_MS);
    timer.unref?.();
  });
  provider.attach({ closed: () => (stop(), clearTimeout(timer)) });
}

/** Registers the folder and, unless turned off, the tools and prompts around it. */
export function serveFolder(server: McpServer, options: ServeFolderOptions): FilesystemProvider {
  const provider = new FilesystemProvider(options);
  provider.register(server);
  const tools = options.tools !== false;
  if (!tools && options.prompts === false) return provider;
  // One index for the tool and the prompt, built in a worker from the start of serving; with a
  // file system of the provider's own, in process at the first search (it shares the thread).
  const eager = provider.ownFs === undefined;
  const index = new FolderSearch(provider, options.search, undefined, eager, options.onWarning);
  provider.attach(index);
  followForIndex(server, provider);
  const search = indexedSearch(provider, index);
  if (tools) registerTools(server, provider, search);
  if (options.prompts !== false) registerPrompts(server, provider, search);
  return provider;
}

function registerTools(server: McpServer, provider: FilesystemProvider, search: RunSearch): void {
  registerSearchTool(server, provider, search);
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
      let result: CallToolResult;
      try {
        // The summary is fitted with the file, by the same call: an embed leaves room for it.
        result = await ctx.result(
          text(`${about}, embedded below.`),
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
