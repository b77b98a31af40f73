/** The bridge's rewriting decisions of one result, handed to `onDecision` (`--log`). */
import type { CallToolResult, GetPromptResult } from '../protocol/index.js';

type Obj = Record<string, unknown>;

export const DECISIONS = 'dev.mcpkit/decisions';

/**
 * Logs the decisions the bridge made on `result` (`before`: the upstream's own `_meta`
 * decisions, when it wrote the same key: not the bridge's, not logged). Returns the result.
 */
export function logDecisions(
  onDecision: ((entry: Obj) => void) | undefined,
  method: string,
  params: Obj,
  before: unknown,
  result: CallToolResult | GetPromptResult,
): Obj {
  const decisions = (result._meta as Obj | undefined)?.[DECISIONS];
  if (onDecision && Array.isArray(decisions) && decisions !== before) {
    const at = new Date().toISOString();
    // The bridge's come after the upstream's (kept first, a non-array as one entry), which may
    // say `by: "bridge"` too: those are skipped, not taken for the bridge's.
    const theirs = before === undefined ? 0 : Array.isArray(before) ? before.length : 1;
    for (const decision of decisions.slice(theirs))
      if ((decision as Obj)['by'] === 'bridge')
        onDecision({ at, method, name: params['name'], ...(decision as Obj) });
  }
  return result as unknown as Obj;
}
