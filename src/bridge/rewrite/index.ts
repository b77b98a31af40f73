/**
 * Rewriting upstream results for what the host surfaces (its profile): links read upstream and
 * embedded, blobs decoded or named, text cut to the host's limit, every decision recorded in
 * `_meta["dev.mcpkit/decisions"]`. With `passthrough` a result is returned as it came.
 */
import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  PromptMessage,
} from '../../protocol/index.js';
import type { ResolverClient } from '../../host/index.js';
import {
  builtinProfileOf,
  type FullProfile,
  type HostProfile,
  type PromptRules,
  type ReadRules,
  type ResultLimit,
  type SurfaceRules,
} from '../profiles/index.js';
import type { PdfExtractOptions } from '../pdf/pdf-text.js';
import { DECISIONS_META_KEY, type Decision } from './decisions.js';
import type { OutItem } from './out-item.js';
import { applyLimit } from './result-limit.js';
import { rewriteBlocks, type SideView } from './rewrite-blocks.js';

export { DECISIONS_META_KEY } from './decisions.js';
export type { Decision, DecisionAction } from './decisions.js';

export interface RewriteContext {
  profile: HostProfile;
  /** The upstream, read through for links the host would not read itself. */
  upstream: ResolverClient;
  /** `--max-link-bytes`: the most decoded bytes one resolved link may bring (default 256 KiB). */
  maxLinkBytes: number;
  /** `--max-result-chars`: the most text one result carries; undefined = the profile's limit. */
  maxResultChars?: number | undefined;
  /** The name the bridge's own read tool has downstream (`read_resource`, or prefixed on a clash). */
  readToolName: string;
  signal?: AbortSignal | undefined;
  /** Timeout of each upstream `resources/read` (ms); default: the upstream client's own. */
  readTimeoutMs?: number | undefined;
  /**
   * Keeps a text that has no URI of its own (a tool's text block cut to the limit) and returns
   * the URI `read_resource` serves it under, so the rest stays reachable; absent, the note says
   * the rest is not kept.
   */
  spill?: ((text: string, mimeType: string) => string | undefined) | undefined;
  /** `--extract-pdf`: the text of PDFs the host would not see, within these limits. */
  pdf?: PdfExtractOptions | undefined;
}

export const DEFAULT_MAX_LINK_BYTES = 256 * 1024;

const passthrough = builtinProfileOf('passthrough') as FullProfile;

interface Side {
  view: SideView;
  limit: ResultLimit | null;
  read: ReadRules;
}

function sideOf(ctx: RewriteContext, which: 'tools' | 'prompts'): Side {
  const p = ctx.profile as Partial<FullProfile>;
  const rules: SurfaceRules = p[which] ?? passthrough[which];
  const nonText = which === 'prompts' ? (rules as PromptRules).nonText !== false : true;
  const limit =
    ctx.maxResultChars !== undefined ? { chars: ctx.maxResultChars } : (rules.maxResult ?? null);
  return {
    view: {
      // A text-only side passes no link either: read and given as text, or named in a line.
      links: nonText ? rules.resourceLinks : 'text',
      blobs: nonText ? rules.blobs : 'none',
      embeddedText: nonText && rules.embeddedText,
      where: which === 'tools' ? 'tool results' : 'prompts',
    },
    limit,
    read: p.read ?? passthrough.read,
  };
}

/** Nothing to do: the host surfaces everything and keeps any size. */
const isIdentity = (s: Side): boolean =>
  s.view.links === 'read' && s.view.blobs === 'all' && s.view.embeddedText && s.limit === null;

async function rewriteList(
  blocks: readonly ContentBlock[],
  sources: readonly number[],
  side: Side,
  ctx: RewriteContext,
  decisions: Decision[],
): Promise<OutItem[] | undefined> {
  // The common case costs nothing: text only, no limit to apply.
  if (side.limit === null && blocks.every((b) => b?.type === 'text')) return undefined;
  const items = await rewriteBlocks(
    blocks,
    sources,
    side.view,
    {
      upstream: ctx.upstream,
      read: side.read,
      maxLinkBytes: ctx.maxLinkBytes,
      readToolName: ctx.readToolName,
      signal: ctx.signal,
      timeoutMs: ctx.readTimeoutMs,
      pdf: ctx.pdf,
    },
    decisions,
  );
  const limited = side.limit ? applyLimit(items, side.limit, ctx, decisions) : items;
  const changed =
    limited.length !== blocks.length || limited.some((item, i) => item.block !== blocks[i]);
  return changed ? limited : undefined;
}

/**
 * The bridge's decisions appended to the upstream's own (an mcpkit server writes the same key),
 * each marked `by: "bridge"`; an upstream value that is not an array is kept as the first entry.
 */
function withDecisions(meta: Record<string, unknown> | undefined, decisions: Decision[]) {
  const own = meta?.[DECISIONS_META_KEY];
  const ours = decisions.map((d) => ({ ...d, by: 'bridge' as const }));
  const before = own === undefined ? [] : Array.isArray(own) ? (own as unknown[]) : [own];
  return { ...meta, [DECISIONS_META_KEY]: [...before, ...ours] };
}

export async function rewriteToolResult(
  result: CallToolResult,
  ctx: RewriteContext,
): Promise<CallToolResult> {
  const side = sideOf(ctx, 'tools');
  if (isIdentity(side) || !Array.isArray(result.content)) return result;
  const decisions: Decision[] = [];
  const blocks = result.content;
  const items = await rewriteList(
    blocks,
    blocks.map((_, i) => i),
    side,
    ctx,
    decisions,
  );
  if (items === undefined && decisions.length === 0) return result;
  const content = items ? items.map((item) => item.block) : blocks;
  return { ...result, content, _meta: withDecisions(result._meta, decisions) };
}

export async function rewritePromptResult(
  result: GetPromptResult,
  ctx: RewriteContext,
): Promise<GetPromptResult> {
  const side = sideOf(ctx, 'prompts');
  if (isIdentity(side) || !Array.isArray(result.messages)) return result;
  const decisions: Decision[] = [];
  const messages = result.messages;
  const blocks = messages.map((m) => m.content);
  const items = await rewriteList(
    blocks,
    messages.map((_, i) => i),
    side,
    ctx,
    decisions,
  );
  if (items === undefined && decisions.length === 0) return result;
  // One block per message: a message whose block became several is repeated with its role.
  const rewritten = items
    ? items.map((item) => ({ ...messages[item.source], content: item.block }) as PromptMessage)
    : messages;
  return { ...result, messages: rewritten, _meta: withDecisions(result._meta, decisions) };
}
