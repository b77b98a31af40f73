/**
 * The walk of `mcpkit audit`: the discover answer (2026-07-28), the four lists, a read of each
 * listed resource within the budget (the first part of one too large to read whole, when a parts
 * template covers it), each prompt (audit-prompts.ts), the tools named by `--call`, and every
 * link met on the way. Timeouts in a row stop the walk (`walk-stopped`).
 */
import { isProtocolError } from '../errors/index.js';
import type { ServerCapabilities } from '../protocol/index.js';
import { answerBytes, RESULT_CAP_BYTES } from './audit-answer.js';
import {
  checkBlocks,
  checkReadContents,
  sizeContradicts,
  type ContentContext,
  type LinkMet,
  type ReadItem,
} from './audit-content.js';
import { Coverage } from './audit-coverage.js';
import { quote, type Place } from './audit-findings.js';
import { checkLinks } from './audit-links.js';
import {
  checkListedSizes,
  checkNames,
  checkResourceEntries,
  listedWireBytes,
  walkList,
  type ListMethod,
  type Listed,
} from './audit-lists.js';
import { getPrompts } from './audit-prompts.js';
import { recordResource, type ResourceSize } from './audit-record.js';
import type { WalkDeps, WalkProgress, WalkStep } from './audit-walk-types.js';
import { describeError, isInvalidResult, judged, ReadBudget, WalkStopped } from './audit-read.js';
import { RequestBudget } from './audit-requests.js';
import { cliListLimits } from './list-limits.js';

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A listed resource whose listed size puts a whole read within 10% of the 10 MiB cap (or over
 * it) is read through its first part when a parts template covers it: servers keep a margin
 * under the cap (mcpkit serve refuses such a whole read and points at the parts).
 */
export const NEAR_CAP_BYTES = Math.floor(RESULT_CAP_BYTES * 0.9);

/** The length asked for the first part of such a resource (mcpkit serve's part size). */
export const FIRST_PART_BYTES = 1024 * 1024;

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
  /** Requests sent (--max-requests bounds them). */
  requests: number;
}

/** What the walk reports as it goes (stderr progress). */
export type { WalkDeps, WalkProgress };

export async function walkServer(deps: WalkDeps): Promise<WalkStats> {
  const stats: WalkStats = {
    tools: 0,
    prompts: 0,
    resources: 0,
    resourceTemplates: 0,
    reads: 0,
    bytesRead: 0,
    links: 0,
    linksRead: 0,
    calls: deps.args.calls.length,
    requests: 0,
  };
  // Where the walk is, for the finding that says where it stopped.
  let at = { stage: 'starting', done: 0, total: 0 };
  const report = deps.progress;
  const progress: WalkProgress = (stage, done, total) => {
    at = { stage, done, total };
    report?.(stage, done, total);
  };
  const budget = new ReadBudget(deps.args.budgetBytes);
  const requests = new RequestBudget(deps.args.maxRequests, deps.args.maxRequestsPerKind);
  try {
    await walkStages({ ...deps, progress, requests }, stats, budget);
  } catch (error) {
    if (!(error instanceof WalkStopped)) throw error;
    deps.ctx.log.add({
      code: 'walk-stopped',
      message: `${error.timeouts} requests in a row got no answer within --timeout (${deps.args.timeoutMs / 1000} s), the last a ${error.last.method}; the walk stopped while ${at.stage}${at.total > 0 ? ` (${at.done + 1} of ${at.total})` : ''}: nothing after that was walked`,
      ...error.last,
    });
  }
  stats.bytesRead = budget.used;
  stats.requests = requests.used;
  requests.report(deps.ctx.log);
  if (budget.skipped.length > 0) {
    const shown = budget.skipped.slice(0, 3).map((u) => quote(u, 100));
    deps.ctx.log.add({
      code: 'budget-spent',
      message: `${budget.skipped.length} listed resource(s) not read: over what was left of the budget of ${budget.limit} bytes (--budget): ${shown.join(', ')}${budget.skipped.length > 3 ? ', …' : ''}`,
      method: 'resources/read',
    });
  }
  if (budget.linksSkipped > 0) {
    deps.ctx.log.add({
      code: 'budget-spent',
      message: `${budget.linksSkipped} link(s) not read: over what was left of the budget of ${budget.limit} bytes (--budget); each has its link-not-checked`,
      method: 'resources/read',
    });
  }
  return stats;
}

async function walkStages(deps: WalkStep, stats: WalkStats, budget: ReadBudget): Promise<void> {
  const { client, ctx, progress, requests } = deps;
  const caps: ServerCapabilities = client.serverCapabilities ?? {};
  if (ctx.era === 'modern' && requests.allow('server/discover', 'server/discover not sent')) {
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
    lists[method] = await walkList(client, method, ctx, cliListLimits(deps.args), requests);
    if (method !== 'resources/templates/list') checkNames(method, lists[method], ctx);
  }
  stats.tools = lists['tools/list'].length;
  stats.prompts = lists['prompts/list'].length;
  stats.resources = lists['resources/list'].length;
  stats.resourceTemplates = lists['resources/templates/list'].length;
  const coverage = new Coverage();
  try {
    await walkCovered(deps, stats, budget, lists, coverage);
  } finally {
    const spent = coverage.spentMessage();
    if (spent !== undefined)
      ctx.log.add({ code: 'budget-spent', message: spent, method: 'resources/templates/list' });
  }
}

/** The walk past the lists: reads, prompts, calls and links, with what the templates cover. */
async function walkCovered(
  deps: WalkStep,
  stats: WalkStats,
  budget: ReadBudget,
  lists: Record<ListMethod, Listed[]>,
  coverage: Coverage,
): Promise<void> {
  const { client, ctx, progress, requests } = deps;
  checkResourceEntries(lists['resources/list'], lists['resources/templates/list'], ctx, coverage);
  checkListedSizes(lists['resources/list'], ctx, coverage);

  await readResources(lists['resources/list'], deps, { budget, coverage, stats });
  const links: LinkMet[] = [];
  const completions = Boolean(client.serverCapabilities?.completions);
  await getPrompts(lists['prompts/list'], deps, completions, links);
  await callTools(deps, links, lists['tools/list']);
  stats.links = new Set(links.map((l) => l.uri)).size;
  const linkDeps = {
    client,
    ctx,
    budget,
    coverage,
    requests,
    ...(deps.record ? { record: deps.record } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  };
  stats.linksRead = await checkLinks(links, linkDeps, (i, n) => progress('checking links', i, n));
}

function failed(place: Place, ctx: ContentContext, error: unknown, why = ''): void {
  ctx.log.add({
    code: 'request-failed',
    message: `${place.method} failed${why}: ${describeError(error)}`,
    ...place,
  });
}

/**
 * Reads each listed resource once, within the budget. One whose listed size puts a whole read
 * near or over the cap, and that a parts template covers, is read through its first part: the
 * whole read would be refused, and hosts are meant to read it in parts.
 */
async function readResources(
  resources: readonly Listed[],
  deps: WalkStep,
  walk: { budget: ReadBudget; coverage: Coverage; stats: WalkStats },
): Promise<void> {
  const { client, ctx, progress, requests } = deps;
  const { budget, coverage, stats } = walk;
  const seen = new Set<string>();
  for (let i = 0; i < resources.length; i++) {
    const { entry } = resources[i] as Listed;
    const uri = entry['uri'];
    if (typeof uri !== 'string' || seen.has(uri)) continue;
    seen.add(uri);
    const size = typeof entry['size'] === 'number' ? entry['size'] : undefined;
    const wire = listedWireBytes(entry);
    const note = (read: ResourceSize['read'], measured?: number): void => {
      if (!deps.record) return;
      const partsTemplate = coverage.partsTemplateFor(uri) !== undefined;
      recordResource(deps.record, {
        entry,
        uri,
        read,
        partsTemplate,
        nearCapBytes: NEAR_CAP_BYTES,
        ...(measured === undefined ? {} : { measured }),
        ...(wire === undefined ? {} : { estimated: wire }),
      });
    };
    const length = Math.min(FIRST_PART_BYTES, budget.left);
    const part =
      wire !== undefined && wire > NEAR_CAP_BYTES && length > 0
        ? coverage.firstPartUri(uri, length)
        : undefined;
    if (part === undefined && !budget.fits(size)) {
      budget.skipped.push(uri);
      note('not read');
      continue;
    }
    if (!requests.allow('resources/read', 'listed resource(s) not read', uri)) {
      note('not read');
      continue;
    }
    progress('reading resources', i, resources.length);
    const place: Place = { method: 'resources/read', uri: part ?? uri };
    if (typeof entry['name'] === 'string') place.name = entry['name'];
    let items: ReadItem[] = [];
    const got = await judged(
      place,
      ctx,
      (onRawResult) => client.readResource(part ?? uri, { onRawResult, cache: false }),
      async (raw) => void (items = await checkReadContents(raw, place, ctx)),
    );
    if (deps.record) {
      if (got.raw === undefined) note('failed');
      else if (part !== undefined) note('first part');
      else note('whole', answerBytes(got.raw));
    }
    if (got.raw !== undefined) {
      stats.reads++;
      budget.spend(items.reduce((n, item) => n + item.bytes, 0));
      const only = items.length === 1 ? items[0] : undefined;
      // A part is not the whole: its size says nothing about the listed one.
      if (
        part === undefined &&
        size !== undefined &&
        only?.uri === uri &&
        sizeContradicts(size, only)
      ) {
        ctx.log.add({
          code: 'size-mismatch',
          message: `listed with size ${size}, but the read gave ${only.bytes} bytes`,
          path: '/contents/0',
          ...place,
        });
      }
    }
    if (got.error !== undefined && !isInvalidResult(got.error)) {
      const why =
        part === undefined
          ? ' for a listed resource'
          : ` for the first part of a listed resource too large to read whole (${uri})`;
      failed(place, ctx, got.error, why);
    }
  }
}

async function callTools(
  deps: WalkStep,
  links: LinkMet[],
  listed: readonly Listed[],
): Promise<void> {
  const { client, ctx, args, progress, requests } = deps;
  for (let i = 0; i < args.calls.length; i++) {
    const call = args.calls[i] as (typeof args.calls)[number];
    if (!requests.allow('tools/call', 'tool call(s) named by --call not made', call.name)) continue;
    progress('calling tools', i, args.calls.length);
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
    if (got.error === undefined || isInvalidResult(got.error)) continue;
    if (isProtocolError(got.error) && !listed.some(({ entry }) => entry['name'] === call.name))
      ctx.log.add({
        code: 'unknown-tool',
        message: `--call ${quote(call.name, 100)}: the server lists no such tool (tools/list: ${listedNames(listed)}); it answered ${describeError(got.error)}`,
        ...place,
      });
    else failed(place, ctx, got.error);
  }
}

/** The names of the tools listed, for a message: at most 20. */
function listedNames(listed: readonly Listed[]): string {
  if (listed.length === 0) return 'none';
  const names = listed.slice(0, 20).map(({ entry }) => quote(String(entry['name']), 60));
  return `${names.join(', ')}${listed.length > 20 ? `, … (${listed.length} in all)` : ''}`;
}
