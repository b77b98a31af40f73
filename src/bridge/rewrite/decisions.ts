/** What the rewriter did with each block, recorded in the result's `_meta["dev.mcpkit/decisions"]`. */

export const DECISIONS_META_KEY = 'dev.mcpkit/decisions';

/**
 * - `embedded`: a link the host would not read was read upstream and its contents put in its place;
 * - `kept`: the block reaches the host as the upstream sent it (the host surfaces it);
 * - `decoded`: a text-like blob (JSON, XML, CSV, `text/*`) given as text;
 * - `extracted`: a PDF the host would not see given as the text of its first pages (`--extract-pdf`);
 * - `text`: the block replaced by a line of text naming the URI (not read, or not shown by the host);
 * - `truncated`: text cut to the host's limit (or a link's contents to `maxLinkBytes`);
 * - `dropped`: left out (over the host's limit after a cut, or the same link again).
 */
export type DecisionAction =
  'embedded' | 'kept' | 'decoded' | 'extracted' | 'text' | 'truncated' | 'dropped';

export interface Decision {
  /** The URI the decision concerns; `""` for a block that has none (a text or image block). */
  uri: string;
  action: DecisionAction;
  /** Why, in a sentence; for a link not read, the resolver's reason (`budget: …`, `consent: …`). */
  reason: string;
  mimeType?: string;
  /** Size in bytes, when known (decoded bytes of a blob, UTF-8 bytes of a text). */
  bytes?: number;
  /** Index of the block in the upstream's content (tool result) or messages (prompt). */
  block: number;
  /** Set on each entry the bridge adds to `_meta` (after the upstream's own entries, if any). */
  by?: 'bridge';
}
