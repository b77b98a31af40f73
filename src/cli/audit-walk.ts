/**
 * The walk of `mcpkit audit`: the discover answer (2026-07-28), the four lists, a read of each
 * listed resource within the budget, each prompt (required arguments from completions, else a
 * placeholder), the tools named by `--call`, and every link met on the way.
 */
import type { McpClient } from '../client/index.js';
import type { ServerCapabilities } from '../protocol/index.js';
import {
  checkBlocks,
  checkReadContents,
  type ContentContext,
  type LinkMet,
} from './audit-content.js';
import { Coverage } from './audit-coverage.js';
import type { LinkFetch } from './audit-fetch.js';
import { quote, type Place } from './audit-findings.js';
import { checkLinks } from './audit-links.js';
import {
  checkListedSizes,
  checkNames,
  checkResourceEntries,
  walkList,
  type ListMethod,
  type Listed,
} from './audit-lists.js';
import { describeError, isInvalidResult, judged, ReadBudget } from './audit-read.js';
import type { HostArgs } from './host-args.js';

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The values a required prompt argument gets when completions offer none: a word, then (when
 * the server refuses it) a number, since many such arguments are ids or counts.
 */
export const PLACEHOLDERS = ['example', '1'] as const;

export interface WalkStats {
  tools: number;
  prompts: number;
  resources: number;
  resourceTemplates: number;
  /** Resources read, and their decoded bytes (links included). */
  reads: number;
  bytesRead: number;
  links: number;
  linksRead: number;
  calls: number;
}

/** What the walk reports as it goes (stderr progress). */
export type WalkProgress = (stage: string, done: number, total: number) => void;

export interface WalkDeps {
  client: McpClient;
  args: HostArgs;
  ctx: ContentContext;
  fetch?: LinkFetch;
  progress?: WalkProgress;
}

export async function walkServer(deps: WalkDeps): Promise<WalkStats> {
  const { client, ctx, args } = deps;
  const caps: ServerCapabilities = client.serverCapabilities ?? {};
  const progress = deps.progress ?? ((): void => undefined);
  if (ctx.era === 'modern') {
    const got = await judged({ method: 'server/discover' }, ctx, (onRawResult) =>
      client.request('server/discover', {}, { onRawResult, cache: false }),
    );
    if (got.raw === undefined) failed({ method: 'server/discover' }, ctx, got.error);
  }
  const lists: Record<ListMethod, Listed[]> = {
    'tools/list': [],
    'prompts/list': [],
    'resources/list': [],
    'resources/templates/list': [],
  };
  const wanted: ListMethod[] = [];
  if (caps.tools) wanted.push('tools/list');
  if (caps.prompts) wanted.push('prompts/list');
  if (caps.resources) wanted.push('resources/templates/list', 'resources/list');
  for (const method of wanted) {
    progress(`listing ${method.replace('/list', '')}`, 0, 0);
    lists[method] = await walkList(client, method, ctx);
    if (method !== 'resources/templates/list') checkNames(method, lists[method], ctx);
  }
  const coverage = new Coverage();
  checkResourceEntries(lists['resources/list'], lists['resources/templates/list'], ctx, coverage);
  checkListedSizes(lists['resources/list'], ctx, coverage);

  const budget = new ReadBudget(args.budgetBytes);
  const stats: WalkStats = {
    tools: lists['tools/list'].length,
    prompts: lists['prompts/list'].length,
    resources: lists['resources/list'].length,
    resourceTemplates: lists['resources/templates/list'].length,
    reads: 0,
    bytesRead: 0,
    links: 0,
    linksRead: 0,
    calls: args.calls.length,
  };
  stats.reads = await readResources(lists['resources/list'], deps, budget, progress);
  const links: LinkMet[] = [];
  await getPrompts(lists['prompts/list'], deps, Boolean(caps.completions), links, progress);
  await callTools(deps, links);
  stats.links = new Set(links.map((l) => l.uri)).size;
  const linkDeps = { client, ctx, budget, coverage, ...(deps.fetch ? { fetch: deps.fetch } : {}) };
  stats.linksRead = await checkLinks(links, linkDeps, (i, n) => progress('checking links', i, n));
  stats.bytesRead = budget.used;
  if (budget.skipped.length > 0) {
    const shown = budget.skipped.slice(0, 3).map((u) => quote(u, 100));
    ctx.log.add({
      code: 'budget-spent',
      message: `${budget.skipped.length} listed resource(s) not read: over what was left of the budget of ${budget.limit} bytes (--budget): ${shown.join(', ')}${budget.skipped.length > 3 ? ', …' : ''}`,
      method: 'resources/read',
    });
  }
  return stats;
}

function failed(
  place: Place,
  ctx: ContentContext,
  error: unknown,
  severity?: 'warning',
  why = '',
): void {
  ctx.log.add({
    code: 'request-failed',
    message: `${place.method} failed${why}: ${describeError(error)}`,
    ...place,
    ...(severity ? { severity } : {}),
  });
}

async function readResources(
  resources: readonly Listed[],
  deps: WalkDeps,
  budget: ReadBudget,
  progress: WalkProgress,
): Promise<number> {
  const { client, ctx } = deps;
  const seen = new Set<string>();
  let reads = 0;
  for (let i = 0; i < resources.length; i++) {
    const { entry } = resources[i] as Listed;
    const uri = entry['uri'];
    if (typeof uri !== 'string' || seen.has(uri)) continue;
    seen.add(uri);
    const size = typeof entry['size'] === 'number' ? entry['size'] : undefined;
    if (!budget.fits(size)) {
      budget.skipped.push(uri);
      continue;
    }
    progress('reading resources', i, resources.length);
    const place: Place = { method: 'resources/read', uri };
    if (typeof entry['name'] === 'string') place.name = entry['name'];
    let items: Array<{ uri: unknown; bytes: number }> = [];
    const got = await judged(
      place,
      ctx,
      (onRawResult) => client.readResource(uri, { onRawResult, cache: false }),
      async (raw) => void (items = await checkReadContents(raw, place, ctx)),
    );
    if (got.raw !== undefined) {
      reads++;
      const bytes = items.reduce((n, item) => n + item.bytes, 0);
      budget.spend(bytes);
      const only = items.length === 1 ? items[0] : undefined;
      if (size !== undefined && only?.uri === uri && only.bytes !== size) {
        ctx.log.add({
          code: 'size-mismatch',
          message: `listed with size ${size}, but the read gave ${only.bytes} bytes`,
          path: '/contents/0',
          ...place,
        });
      }
    }
    if (got.error !== undefined && !isInvalidResult(got.error)) {
      failed(place, ctx, got.error, undefined, ' for a listed resource');
    }
  }
  return reads;
}

/** Values for the required arguments: the first completion, else the placeholder. */
async function promptArguments(
  prompt: Obj,
  deps: WalkDeps,
  completions: boolean,
): Promise<{ values: Record<string, string>; placeholders: string[] }> {
  const values: Record<string, string> = {};
  const placeholders: string[] = [];
  const name = prompt['name'] as string;
  const declared = Array.isArray(prompt['arguments']) ? (prompt['arguments'] as unknown[]) : [];
  for (const arg of declared) {
    if (!isObj(arg) || arg['required'] !== true || typeof arg['name'] !== 'string') continue;
    const argName = arg['name'];
    let value: string | undefined;
    if (completions) {
      const context = Object.keys(values).length > 0 ? { arguments: { ...values } } : undefined;
      const got = await judged({ method: 'completion/complete', name }, deps.ctx, (onRawResult) =>
        deps.client.complete({ type: 'ref/prompt', name }, { name: argName, value: '' }, context, {
          onRawResult,
        }),
      );
      const raw = got.raw;
      const offered =
        isObj(raw) && isObj(raw['completion']) ? raw['completion']['values'] : undefined;
      const first: unknown = Array.isArray(offered) ? offered[0] : undefined;
      if (typeof first === 'string' && first !== '') value = first;
    }
    if (value === undefined) {
      value = PLACEHOLDERS[0];
      placeholders.push(argName);
    }
    values[argName] = value;
  }
  return { values, placeholders };
}

async function getPrompts(
  prompts: readonly Listed[],
  deps: WalkDeps,
  completions: boolean,
  links: LinkMet[],
  progress: WalkProgress,
): Promise<void> {
  const { client, ctx } = deps;
  for (let i = 0; i < prompts.length; i++) {
    const prompt = (prompts[i] as Listed).entry;
    const name = prompt['name'];
    if (typeof name !== 'string') continue;
    progress('getting prompts', i, prompts.length);
    const { values, placeholders } = await promptArguments(prompt, deps, completions);
    const place: Place = { method: 'prompts/get', name };
    const args = Object.keys(values).length > 0 ? values : undefined;
    const inspect = (raw: unknown): Promise<void> => {
      const messages =
        isObj(raw) && Array.isArray(raw['messages']) ? (raw['messages'] as unknown[]) : [];
      const blocks = messages.map((m, j) => ({
        block: isObj(m) ? m['content'] : undefined,
        path: `/messages/${j}/content`,
      }));
      return checkBlocks(blocks, place, ctx, links);
    };
    const get = (given: Record<string, string> | undefined) =>
      judged(
        place,
        ctx,
        (onRawResult) => client.getPrompt(name, given, { onRawResult, cache: false }),
        inspect,
      );
    let got = await get(args);
    if (got.error !== undefined && got.raw === undefined && placeholders.length > 0) {
      const second = { ...values };
      for (const p of placeholders) second[p] = PLACEHOLDERS[1];
      const retry = await get(second);
      if (retry.error === undefined || retry.raw !== undefined) got = retry;
    }
    if (got.error !== undefined && !isInvalidResult(got.error)) {
      const why =
        placeholders.length > 0
          ? ` (with the placeholders ${PLACEHOLDERS.map((p) => JSON.stringify(p)).join(' and ')} for ${placeholders.map((p) => quote(p, 40)).join(', ')}: no completion offered a value)`
          : '';
      failed(place, ctx, got.error, placeholders.length > 0 ? 'warning' : undefined, why);
    }
  }
}

async function callTools(deps: WalkDeps, links: LinkMet[]): Promise<void> {
  const { client, ctx, args } = deps;
  for (const call of args.calls) {
    const place: Place = { method: 'tools/call', name: call.name };
    const contentOf = (raw: unknown): unknown[] =>
      isObj(raw) && Array.isArray(raw['content']) ? (raw['content'] as unknown[]) : [];
    const got = await judged(
      place,
      ctx,
      (onRawResult) => client.callTool(call.name, call.arguments, { onRawResult, cache: false }),
      (raw) =>
        checkBlocks(
          contentOf(raw).map((block, i) => ({ block, path: `/content/${i}` })),
          place,
          ctx,
          links,
        ),
    );
    const raw = got.raw;
    const content = contentOf(raw);
    if (isObj(raw) && raw['isError'] === true) {
      const text = content.find((b) => isObj(b) && b['type'] === 'text') as Obj | undefined;
      ctx.log.add({
        code: 'tool-error',
        message: `the tool answered isError: true${typeof text?.['text'] === 'string' ? `: ${quote(text['text'], 200)}` : ''}`,
        path: '/isError',
        ...place,
      });
    }
    if (got.error !== undefined && !isInvalidResult(got.error)) failed(place, ctx, got.error);
  }
}
