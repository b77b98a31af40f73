/**
 * Context assembly: from one turn's blocks and their annotations, what goes to the model and what
 * is shown to the person, under a budget. Pure: no I/O, nothing read here.
 */
import { utf8Length } from '../content/wire-size.js';
import { decodedBase64Length } from '../protocol/base64.js';
import type { ContentBlock, Role } from '../protocol/index.js';
import { isResolvedEntry } from './resolved-brand.js';
import type { ResolvedBlock, ResolvedInvalid, Resolution } from './types.js';

/** One input entry: a plain content block, or what the resolver made of one. */
export type ContextEntry = ContentBlock | ResolvedBlock;

export interface AssembleContextOptions {
  /** The most `forModel` may cost in all, in the units of `measure`; default: unlimited. */
  budget?: number;
  /**
   * What one entry costs; default `contextBytes` (UTF-8 bytes of what it contributes). Pass
   * `estimateTokens` for a rough token count, or a real tokenizer. Must return a number >= 0.
   */
  measure?: (block: ContextEntry) => number;
  /** The role the budgeted list (`forModel`) is built for; default `'assistant'`, the model. */
  audience?: Role;
  /**
   * A link whose outcome is not `read` (or a plain, unresolved `resource_link`): `'pointer'`
   * (default) sends it as its URI and name, so the model may ask for it; `'leave-out'` leaves it
   * out as `not-read` (for a host whose model cannot ask for a resource).
   */
  unreadLinks?: 'pointer' | 'leave-out';
}

/** One entry that made it into a list. */
export interface ContextItem {
  /** The entry as given. */
  block: ContextEntry;
  /** Its position in the input. */
  index: number;
  cost: number;
  /** `annotations.priority`, or 0.5 when absent or not a number in [0, 1]. */
  priority: number;
  /** `'pointer'` for a link that was not read: render its URI and name, not contents. */
  form: 'content' | 'pointer';
}

export type LeftOutReason = 'audience' | 'budget' | 'not-read' | 'invalid';

/** One entry that did not go to the model (`forModel`), and why. */
export interface LeftOut {
  index: number;
  block: ContextEntry;
  reason: LeftOutReason;
  detail: string;
  cost: number;
  priority: number;
}

export interface AssembledContext {
  /** What goes to the model, in input order, within the budget. */
  forModel: ContextItem[];
  /** What is shown to the person (audience absent or naming `user`), in input order; no budget. */
  forUser: ContextItem[];
  /** What is not in `forModel`, in input order. */
  leftOut: LeftOut[];
  /** The cost of `forModel`. */
  used: number;
  /** The budget applied, when one was given. */
  budget?: number;
}

const DEFAULT_PRIORITY = 0.5;
// Slack for fractional costs (token estimates): 0.1 + 0.2 must fit a budget of 0.3.
const TOLERANCE = 1e-9;

/**
 * Builds the model's context and the person's view from one turn's blocks. `audience` filters (a
 * block without one goes to both), `priority` orders: when the budget runs out the lowest
 * priority goes first (a block without one counts 0.5; between equals the later block goes
 * first). Blocks are taken by priority while they fit; one that does not fit is left out and the
 * next smaller ones may still fill the space, so a lower priority never pushes out a higher one.
 * Kept blocks stay in input order. The budget applies to `forModel` only.
 *
 * @example
 * const turn = await resolver.resolve(result.content);
 * const { forModel, forUser, leftOut } = assembleContext(turn, { budget: 32_000 });
 */
export function assembleContext(
  input: Resolution | readonly ContextEntry[],
  options: AssembleContextOptions = {},
): AssembledContext {
  const entries: readonly ContextEntry[] = isEntryList(input) ? input : input.blocks;
  const budget = checkBudget(options.budget);
  const role = options.audience ?? 'assistant';
  if (role !== 'assistant' && role !== 'user') {
    throw new RangeError(`assembleContext: audience must be "assistant" or "user", got ${role}`);
  }
  const unreadLinks = options.unreadLinks ?? 'pointer';
  if (unreadLinks !== 'pointer' && unreadLinks !== 'leave-out') {
    throw new RangeError(
      `assembleContext: unreadLinks must be "pointer" or "leave-out", got ${unreadLinks}`,
    );
  }
  const measure = options.measure ?? contextBytes;

  const forUser: ContextItem[] = [];
  const candidates: ContextItem[] = [];
  const leftOut: LeftOut[] = [];
  entries.forEach((entry, index) => {
    // Not a content block at all (a result taken as received): never sent anywhere.
    const junk = isInvalid(entry)
      ? entry.error
      : !isResolved(entry) &&
          (typeof entry !== 'object' || entry === null || typeof entry.type !== 'string')
        ? `entry ${index} is not a content block`
        : undefined;
    if (junk !== undefined) {
      const item: ContextItem = { block: entry, index, cost: 0, priority: 0, form: 'content' };
      leftOut.push(leave(item, 'invalid', junk));
      return;
    }
    const raw = rawBlock(entry);
    const audience = audienceOf(raw);
    const item: ContextItem = {
      block: entry,
      index,
      cost: checkCost(measure(entry), index),
      priority: priorityOf(raw),
      form: isUnreadLink(entry) ? 'pointer' : 'content',
    };
    if (audience === undefined || audience.includes('user')) forUser.push(item);
    if (audience !== undefined && !audience.includes(role)) {
      const named = audience.map((r) => `"${r}"`).join(', ');
      leftOut.push(leave(item, 'audience', `audience is [${named}], not "${role}"`));
    } else if (item.form === 'pointer' && unreadLinks === 'leave-out') {
      leftOut.push(leave(item, 'not-read', notReadDetail(entry)));
    } else {
      candidates.push(item);
    }
  });

  const forModel = fit(candidates, budget, leftOut);
  leftOut.sort((a, b) => a.index - b.index);
  const used = forModel.reduce((sum, item) => sum + item.cost, 0);
  return budget === undefined
    ? { forModel, forUser, leftOut, used }
    : { forModel, forUser, leftOut, used, budget };
}

/** Takes candidates by priority (ties: earlier first) while they fit; returns them in input order. */
function fit(candidates: ContextItem[], budget: number | undefined, leftOut: LeftOut[]) {
  if (budget === undefined) return candidates;
  const order = [...candidates].sort((a, b) => b.priority - a.priority || a.index - b.index);
  const kept = new Set<ContextItem>();
  let used = 0;
  for (const item of order) {
    if (used + item.cost - budget <= TOLERANCE * Math.max(1, budget)) {
      kept.add(item);
      used += item.cost;
    } else {
      const left = budget - used;
      const detail = `costs ${item.cost}, ${left} of the budget of ${budget} left (priority ${item.priority})`;
      leftOut.push(leave(item, 'budget', detail));
    }
  }
  return candidates.filter((item) => kept.has(item));
}

/**
 * The default measure: UTF-8 bytes of what an entry contributes to the context. Text: its text.
 * Image and audio: the base64 `data` as sent. An embedded resource: its decoded contents (from the
 * resolver, else computed from the block). A read link: the decoded bytes of its contents. A link
 * not read: its pointer, `uri` plus `name`. Any other block type: its JSON.
 */
export function contextBytes(entry: ContextEntry): number {
  if (isResolved(entry)) {
    if (entry.type === 'resource') return entry.contents?.size ?? blockBytes(entry.block);
    if (entry.type === 'resource_link' && entry.outcome.status === 'read') {
      const { contents, bytes } = entry.outcome;
      if (contents !== undefined) return contents.reduce((sum, c) => sum + c.size, 0);
      return bytes ?? blockBytes(entry.block);
    }
    if (entry.type === 'invalid') return 0;
    return blockBytes(entry.block);
  }
  if (isInvalid(entry)) return 0;
  return blockBytes(entry);
}

function blockBytes(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return stringBytes(block.text);
    case 'image':
    case 'audio':
      return stringBytes(block.data);
    case 'resource': {
      const contents = block.resource as { text?: unknown; blob?: unknown } | undefined;
      if (typeof contents?.text === 'string') return utf8Length(contents.text);
      return typeof contents?.blob === 'string' ? decodedBase64Length(contents.blob) : 0;
    }
    case 'resource_link':
      return stringBytes(block.uri) + stringBytes(block.name);
    default:
      return utf8Length(JSON.stringify(block) ?? '');
  }
}

function stringBytes(value: unknown): number {
  return typeof value === 'string' ? utf8Length(value) : 0;
}

function isEntryList(
  input: Resolution | readonly ContextEntry[],
): input is readonly ContextEntry[] {
  return Array.isArray(input);
}

function isInvalid(entry: ContextEntry): entry is ResolvedInvalid {
  return isResolvedEntry(entry) && entry.type === ('invalid' as string);
}

/** Only what the resolver made is resolved: a server's block with a `block` field is not. */
function isResolved(entry: ContextEntry): entry is ResolvedBlock {
  return isResolvedEntry(entry);
}

function rawBlock(entry: ContextEntry): ContentBlock {
  return isResolved(entry) ? (entry.block as ContentBlock) : entry;
}

function isUnreadLink(entry: ContextEntry): boolean {
  if (!isResolved(entry)) return entry.type === 'resource_link';
  return entry.type === 'resource_link' && entry.outcome.status !== 'read';
}

function notReadDetail(entry: ContextEntry): string {
  if (!isResolved(entry) || entry.type !== 'resource_link') return 'link not resolved';
  const { status, reason } = entry.outcome;
  return reason === undefined ? `link ${status}` : `link ${status}: ${reason}`;
}

/** The roles named, or undefined (both) when the field is absent or names no valid role. */
function audienceOf(block: ContentBlock): Role[] | undefined {
  const audience: unknown = annotationsOf(block)?.audience;
  if (!Array.isArray(audience)) return undefined;
  const roles = (['user', 'assistant'] as const).filter((r) => audience.includes(r));
  return roles.length === 0 ? undefined : roles;
}

function priorityOf(block: ContentBlock): number {
  const priority: unknown = annotationsOf(block)?.priority;
  return typeof priority === 'number' && priority >= 0 && priority <= 1
    ? priority
    : DEFAULT_PRIORITY;
}

function annotationsOf(block: ContentBlock): Record<string, unknown> | undefined {
  const annotations: unknown = (block as { annotations?: unknown }).annotations;
  return typeof annotations === 'object' && annotations !== null
    ? (annotations as Record<string, unknown>)
    : undefined;
}

function leave(item: ContextItem, reason: LeftOutReason, detail: string): LeftOut {
  const { index, block, cost, priority } = item;
  return { index, block, reason, detail, cost, priority };
}

function checkBudget(budget: number | undefined): number | undefined {
  if (budget === undefined || budget === Infinity) return undefined;
  if (typeof budget !== 'number' || !(budget >= 0)) {
    throw new RangeError(`assembleContext: budget must be a number >= 0, got ${String(budget)}`);
  }
  return budget;
}

function checkCost(cost: number, index: number): number {
  if (typeof cost !== 'number' || !(cost >= 0)) {
    throw new RangeError(
      `assembleContext: measure returned ${String(cost)} for block ${index}; a cost is a number >= 0`,
    );
  }
  return cost;
}
