/**
 * The embed-vs-link policy: a pure function from what is known about a resource and the result it
 * would join to a decision with a reason the server author can read.
 */
import { MCPKIT_META_PREFIX } from '../protocol/meta-keys.js';

/** What the policy knows about one resource to be attached. */
export interface PolicyInput {
  uri: string;
  /** Raw size in bytes (UTF-8 bytes for text, bytes for a blob). */
  rawBytes: number;
  /** What it costs embedded, on the wire (base64 and JSON escaping included). */
  wireBytes: number;
  /** The result makes no sense without it: embed when at all possible, else fail. */
  required?: boolean;
  /** It changes often: an embed would be a stale snapshot, so link. */
  volatile?: boolean;
  /** It needs the user's approval before it enters a conversation: link. */
  sensitive?: boolean;
  /** The author's explicit choice; 'auto' lets the policy decide. */
  mode?: 'auto' | 'embed' | 'link';
}

/** What the policy knows about the result and the transport. */
export interface PolicyContext {
  /** Hard cap for the result's blocks: the transport's message cap minus the envelope. */
  capBytes: number;
  /** Soft cap for one embedded block on the wire (default 1 MiB). */
  blockBudgetBytes: number;
  /** Soft cap for all blocks of one result on the wire (default 4 MiB). */
  resultBudgetBytes: number;
  /** Wire bytes the result already uses. */
  usedBytes: number;
  /** Whether the client can follow links with resources/read (default true). */
  clientCanReadResources: boolean;
}

export type DecisionReason =
  | 'fits'
  | 'requested-embed'
  | 'required'
  | 'requested-link'
  | 'sensitive'
  | 'volatile'
  | 'over-block-budget'
  | 'over-result-budget'
  | 'over-transport-cap';

export type Decision =
  | { kind: 'embed'; reason: DecisionReason; detail: string }
  | { kind: 'link'; reason: DecisionReason; detail: string }
  | { kind: 'fail'; reason: DecisionReason; detail: string };

export const DEFAULT_BLOCK_BUDGET_BYTES = 1024 * 1024;
export const DEFAULT_RESULT_BUDGET_BYTES = 4 * 1024 * 1024;

export type Policy = (input: PolicyInput, context: PolicyContext) => Decision;

function fmt(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const pretty =
    bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : bytes < 1024 * 1024 * 1024
        ? `${(bytes / (1024 * 1024)).toFixed(2)} MiB`
        : `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GiB`;
  return `${pretty} (${bytes} B)`;
}

/**
 * `_meta` key of the contents of one part of a resource read in parts: `{ offset, length, size,
 * version, next? }`, byte offsets into the resource, `next` the URI of the next part.
 */
export const PART_META_KEY = `${MCPKIT_META_PREFIX}part`;

/**
 * The description of a link that points at the first part of a resource too large to be read
 * whole over this connection (instead of at the resource itself, which would not resolve here).
 */
export function firstPartDescription(name: string, size: number): string {
  return (
    `${name}: ${fmt(size)}, too large to read whole over this connection; this is its first part ` +
    `(read the next parts through _meta["${PART_META_KEY}"].next)`
  );
}

/**
 * Decides embed or link. Order: explicit mode, sensitivity, the hard cap, requiredness,
 * volatility, then the soft budgets. A required block that cannot fit the hard cap (or the
 * result budget) fails; an optional one falls back to a link.
 *
 * @example
 * decide({ uri, rawBytes: 750_000, wireBytes: 1_000_080 }, { ...ctx, blockBudgetBytes: 1_000_000 })
 * // -> { kind: 'link', reason: 'over-block-budget', ... }
 */
export const decide: Policy = (input, ctx) => {
  const wire = input.wireBytes;
  const room = ctx.capBytes - ctx.usedBytes;
  const resultRoom = ctx.resultBudgetBytes - ctx.usedBytes;
  const size = `${fmt(wire)} on the wire (${fmt(input.rawBytes)} raw)`;
  if (input.mode === 'link')
    return { kind: 'link', reason: 'requested-link', detail: 'the author asked for a link' };
  if (input.mode === 'embed') {
    if (wire > room) {
      return {
        kind: 'fail',
        reason: 'over-transport-cap',
        detail: `${size} does not fit the ${fmt(room)} left under the transport cap`,
      };
    }
    return {
      kind: 'embed',
      reason: 'requested-embed',
      detail: `the author asked for an embed (${size})`,
    };
  }
  if (input.sensitive)
    return {
      kind: 'link',
      reason: 'sensitive',
      detail: "needs the user's approval before it enters the conversation",
    };
  if (wire > room) {
    const detail = `${size} exceeds the ${fmt(room)} left under the transport cap`;
    return input.required
      ? { kind: 'fail', reason: 'over-transport-cap', detail }
      : { kind: 'link', reason: 'over-transport-cap', detail };
  }
  if (input.required) {
    if (wire > resultRoom) {
      return {
        kind: 'fail',
        reason: 'over-result-budget',
        detail: `${size} exceeds the ${fmt(Math.max(0, resultRoom))} left in the result budget`,
      };
    }
    return { kind: 'embed', reason: 'required', detail: `required, and ${size} fits` };
  }
  if (input.volatile && ctx.clientCanReadResources) {
    return {
      kind: 'link',
      reason: 'volatile',
      detail: 'changes often: an embedded copy would go stale',
    };
  }
  if (wire > ctx.blockBudgetBytes) {
    return {
      kind: 'link',
      reason: 'over-block-budget',
      detail: `${size} exceeds the per-block budget of ${fmt(ctx.blockBudgetBytes)}`,
    };
  }
  if (wire > resultRoom) {
    return {
      kind: 'link',
      reason: 'over-result-budget',
      detail: `${size} exceeds the ${fmt(Math.max(0, resultRoom))} left in the result budget`,
    };
  }
  return { kind: 'embed', reason: 'fits', detail: `${size} fits the budgets` };
};
