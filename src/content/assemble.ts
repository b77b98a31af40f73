import { base64Length } from '../protocol/base64.js';
import type { ContentBlock, EmbeddedResource, ResourceLink } from '../protocol/types.js';
import { MCPKIT_ERROR_CODES } from '../errors/codes.js';
import { McpKitError } from '../errors/mcpkit-error.js';
import { TOO_LARGE_REASON } from '../errors/wire-errors.js';
import { isAttachment, type Attachment, type AttachmentContent } from './attachment.js';
import { artifactFirstPart } from './artifact-parts.js';
import { embedWireSize, hasContent, linkSkeleton, sizeOfContent } from './block-shapes.js';
import { decodeBase64, encodeBase64 } from './blob.js';
import {
  DEFAULT_BINARY_MIME,
  DEFAULT_TEXT_MIME,
  SNIFF_SAMPLE,
  isTextMimeType,
  mimeFromName,
  resolveMimeType,
} from './mime.js';
import {
  DEFAULT_BLOCK_BUDGET_BYTES,
  DEFAULT_RESULT_BUDGET_BYTES,
  decide,
  type Decision,
  type Policy,
} from './policy.js';
import { contentWireSize } from './wire-size.js';

export interface AssembleOptions {
  /** Hard cap for all blocks together: the transport's message cap minus the envelope. */
  capBytes: number;
  blockBudgetBytes?: number | undefined;
  resultBudgetBytes?: number | undefined;
  clientCanReadResources?: boolean | undefined;
  /** Replaces the default policy. */
  policy?: Policy | undefined;
  /**
   * Gives an attachment without a URI its URI, and keeps it where reads find it; `linked` is
   * true when it will be linked, false when embedded.
   */
  artifactUri?: (
    content: { name: string; mimeType: string; text?: string; blob?: string; size: number },
    linked: boolean,
  ) => Promise<string>;
  /** Sees every decision with its reason. */
  onDecision?: (record: DecisionRecord) => void;
  /** Wire bytes around each item beyond its block (e.g. a prompt message's role wrapper). */
  itemOverheadBytes?: number;
}

export interface DecisionRecord {
  uri: string | undefined;
  name: string;
  rawBytes: number;
  wireBytes: number;
  decision: Decision;
}

interface Pending {
  index: number;
  att: Attachment;
  content: AttachmentContent | undefined;
  raw: number;
  /** The MIME type the emitted block will carry. */
  mime: string;
  embedWire: number;
  linkWire: number;
  decision: Decision;
  /** Bytes of the first part a link to it names: an artifact too large to read whole here. */
  firstPart?: number;
}

/**
 * Turns blocks and attachments into the content of one result: each attachment is embedded or
 * linked as the policy decides, then optional embeds fall back to links (lowest priority, then
 * largest, first) until the result fits its budget and the hard cap. A required attachment that
 * cannot fit throws RESULT_TOO_LARGE with sizes and what to do.
 */
export async function assembleBlocks(
  items: ReadonlyArray<ContentBlock | Attachment>,
  options: AssembleOptions,
): Promise<{ blocks: ContentBlock[]; decisions: DecisionRecord[] }> {
  const policy = options.policy ?? decide;
  const blockBudgetBytes = options.blockBudgetBytes ?? DEFAULT_BLOCK_BUDGET_BYTES;
  const resultBudgetBytes = options.resultBudgetBytes ?? DEFAULT_RESULT_BUDGET_BYTES;
  const cap = options.capBytes;
  const overhead = options.itemOverheadBytes ?? 0;
  let fixed = 2;
  for (const item of items) if (!isAttachment(item)) fixed += contentWireSize(item) + 1 + overhead;
  if (fixed > cap) {
    throw new McpKitError(
      'RESULT_TOO_LARGE',
      `the result's content blocks take ${fixed} bytes on the wire, over the ${cap}-byte cap; return less, or link large parts with attach()`,
    );
  }
  const pending: Pending[] = [];
  const canRead = options.clientCanReadResources ?? true;
  for (const [index, item] of items.entries()) {
    if (!isAttachment(item)) continue;
    let content: AttachmentContent | undefined = hasContent(item) ? item : undefined;
    let size = content ? sizeOfContent(content) : { raw: item.size };
    let raw = size.raw;
    let mime = content ? await mimeOf(item, content) : (item.mimeType ?? mimeFromName(item.name));
    const room = Math.min(blockBudgetBytes, cap - fixed, resultBudgetBytes - fixed);
    const mustLoad = (item.mode === 'embed' || item.required === true) && !content;
    let refused = false;
    if (raw === undefined || mustLoad || (!content && mightEmbed(item, raw, room, canRead, mime))) {
      try {
        content = await loadContent(item);
        size = sizeOfContent(content);
        raw = size.raw ?? 0;
        mime = await mimeOf(item, content);
      } catch (error) {
        // An optional resource too large for its reader to return is linked, not an error.
        if (mustLoad || raw === undefined || !isTooLarge(error)) throw error;
        content = undefined;
        refused = true;
      }
    }
    const finalMime = mime ?? DEFAULT_BINARY_MIME;
    const embedWire = content
      ? embedWireSize(item, content, raw, finalMime, size.textWire)
      : raw === 0
        ? 0
        : embedWireSize(item, { blob: '' }, raw, finalMime);
    const firstPart =
      item.uri === undefined && content
        ? artifactFirstPart(content, finalMime, cap, size.textWire)
        : undefined;
    const linkWire = contentWireSize(linkSkeleton(item, raw, finalMime, firstPart)) + 1 + overhead;
    const ctx = {
      capBytes: cap,
      blockBudgetBytes,
      resultBudgetBytes,
      usedBytes: fixed,
      clientCanReadResources: canRead,
    };
    const decision: Decision = refused
      ? {
          kind: 'link',
          reason: 'over-transport-cap',
          detail: 'its reader refused to return it whole (too large)',
        }
      : policy({ uri: item.uri ?? '', rawBytes: raw, wireBytes: embedWire, ...flags(item) }, ctx);
    if (decision.kind === 'fail') throw tooLarge(item, embedWire, decision);
    pending.push({
      index,
      att: item,
      content,
      raw,
      mime: finalMime,
      embedWire: embedWire + overhead,
      linkWire,
      decision,
      ...(firstPart !== undefined ? { firstPart } : {}),
    });
  }
  // Fit the whole result: demote optional embeds until it fits.
  // Each block was counted with a separator after it; the last one has none.
  const lastSeparator = items.length > 0 ? 1 : 0;
  const total = (): number =>
    fixed -
    lastSeparator +
    pending.reduce(
      (sum, p) => sum + (p.decision.kind === 'embed' ? p.embedWire + 1 : p.linkWire),
      0,
    );
  const limit = Math.min(cap, resultBudgetBytes);
  while (total() > limit) {
    const candidates = pending.filter(
      (p) => p.decision.kind === 'embed' && !p.att.required && p.att.mode !== 'embed',
    );
    if (candidates.length === 0) break;
    candidates.sort(
      (a, b) =>
        (a.att.annotations?.priority ?? 0.5) - (b.att.annotations?.priority ?? 0.5) ||
        b.embedWire - a.embedWire,
    );
    const victim = candidates[0] as Pending;
    victim.decision = {
      kind: 'link',
      reason: total() > cap ? 'over-transport-cap' : 'over-result-budget',
      detail: `linked so that the whole result fits ${limit} bytes`,
    };
  }
  if (total() > resultBudgetBytes) {
    // Only required embeds are left to blame: several can overflow the budget together.
    const big = pending
      .filter((p) => p.decision.kind === 'embed' && p.att.required && p.att.mode !== 'embed')
      .sort((a, b) => b.embedWire - a.embedWire)[0];
    if (big)
      throw tooLarge(big.att, big.embedWire, {
        kind: 'fail',
        reason: 'over-result-budget',
        detail: `the required resources together would take ${total()} bytes, over the result budget of ${resultBudgetBytes}`,
      });
  }
  if (total() > cap) {
    const big = pending
      .filter((p) => p.decision.kind === 'embed')
      .sort((a, b) => b.embedWire - a.embedWire)[0];
    if (big)
      throw tooLarge(big.att, big.embedWire, {
        kind: 'fail',
        reason: 'over-transport-cap',
        detail: `the result would take ${total()} bytes, over the ${cap}-byte cap`,
      });
  }
  const blocks: ContentBlock[] = [];
  const decisions: DecisionRecord[] = [];
  const byIndex = new Map(pending.map((p) => [p.index, p]));
  for (const [index, item] of items.entries()) {
    const p = byIndex.get(index);
    if (!p) {
      blocks.push(item as ContentBlock);
      continue;
    }
    const block = await materialize(p, options);
    blocks.push(block);
    const record: DecisionRecord = {
      uri: 'resource' in block ? block.resource.uri : (block as ResourceLink).uri,
      name: p.att.name,
      rawBytes: p.raw,
      wireBytes: p.embedWire,
      decision: p.decision,
    };
    decisions.push(record);
    options.onDecision?.(record);
  }
  return { blocks, decisions };
}

/**
 * Whether an attachment known only by its size could still be embedded, so that it must be loaded
 * and measured exactly: the fewest wire bytes it can take (its block with an empty string, plus one
 * byte per raw byte, as neither text nor base64 is shorter than the bytes) fit `room`. Anything
 * larger is linked from its size alone, unread.
 */
function mightEmbed(
  att: Attachment,
  raw: number,
  room: number,
  canRead: boolean,
  mime: string | undefined,
): boolean {
  if (att.mode === 'link' || att.sensitive || (att.volatile && canRead)) return false;
  // Known binary types cost base64; otherwise count one byte per byte, the least any form takes.
  // An unknown type is counted as empty: the real one may be shorter than the default.
  const binary = mime !== undefined && !isTextMimeType(mime);
  const least =
    embedWireSize(att, { text: '' }, 0, mime ?? '') + (binary ? base64Length(raw) : raw);
  return least <= room;
}

/** The MIME type the block will carry: declared, else by name, else sniffed from the bytes. */
async function mimeOf(att: Attachment, content: AttachmentContent): Promise<string> {
  if (content.mimeType !== undefined) return content.mimeType;
  if (att.mimeType !== undefined) return att.mimeType;
  if (content.text !== undefined) return mimeFromName(att.name) ?? DEFAULT_TEXT_MIME;
  const bytes = content.bytes ?? (content.blob !== undefined ? headBytes(content.blob) : undefined);
  return (await resolveMimeType({ name: att.name, ...(bytes ? { bytes } : {}) })).mimeType;
}

/** The first bytes of a base64 blob, enough to sniff its type. */
function headBytes(blob: string): Uint8Array {
  return decodeBase64(blob.slice(0, Math.floor(SNIFF_SAMPLE / 3) * 4));
}

/** Whether a reader refused content for its size (a provider's too-large error). */
function isTooLarge(error: unknown): boolean {
  // By shape, not class: a provider may throw from another copy of this package.
  const e = error as { code?: unknown; data?: { reason?: unknown } } | null;
  return e?.data?.reason === TOO_LARGE_REASON || e?.code === MCPKIT_ERROR_CODES.RESULT_TOO_LARGE;
}

function flags(att: Attachment) {
  return {
    ...(att.required !== undefined ? { required: att.required } : {}),
    ...(att.volatile !== undefined ? { volatile: att.volatile } : {}),
    ...(att.sensitive !== undefined ? { sensitive: att.sensitive } : {}),
    ...(att.mode !== undefined ? { mode: att.mode } : {}),
  };
}

async function loadContent(att: Attachment): Promise<AttachmentContent> {
  if (hasContent(att)) return att;
  if (!att.load) {
    throw new McpKitError(
      'ATTACHMENT_EMPTY',
      `attachment "${att.name}" has no text, bytes, blob or load(): nothing to embed or size`,
    );
  }
  const loaded = await att.load();
  if (!hasContent(loaded))
    throw new McpKitError(
      'ATTACHMENT_EMPTY',
      `attachment "${att.name}": load() returned no content`,
    );
  return loaded;
}

function tooLarge(att: Attachment, wire: number, decision: Decision): McpKitError {
  return new McpKitError(
    'RESULT_TOO_LARGE',
    `required resource "${att.name}"${att.uri ? ` (${att.uri})` : ''} cannot be embedded: ${decision.detail}. ` +
      `It needs ${wire} bytes on the wire. Link it instead (mode: 'link' or required: false), raise the budgets ` +
      `(blockBudgetBytes / resultBudgetBytes) or the transport's outbound cap (maxResponseBytes), or split it.`,
  );
}

async function materialize(p: Pending, options: AssembleOptions): Promise<ContentBlock> {
  const att = p.att;
  const embed = p.decision.kind === 'embed';
  let content = p.content;
  // What was loaded was measured and decided on: a second load() could return something else.
  if (!content && (embed || !att.uri)) content = await loadContent(att);
  const mime = p.mime;
  const text = content?.text;
  const blob =
    text === undefined && content
      ? (content.blob ?? encodeBase64(content.bytes ?? new Uint8Array(0)))
      : undefined;
  let uri = att.uri;
  if (uri === undefined) {
    if (!options.artifactUri)
      throw new McpKitError(
        'ATTACHMENT_NO_URI',
        `attachment "${att.name}" has no uri and no link store was given`,
      );
    uri = await options.artifactUri(
      {
        name: att.name,
        mimeType: mime,
        size: p.raw,
        ...(text !== undefined ? { text } : { blob: blob ?? '' }),
      },
      !embed,
    );
  }
  if (embed) {
    const resource =
      text !== undefined
        ? { uri, mimeType: mime, text }
        : { uri, mimeType: mime, blob: blob ?? '' };
    const block: EmbeddedResource = { type: 'resource', resource };
    if (att.annotations !== undefined) block.annotations = att.annotations;
    if (att._meta !== undefined) block._meta = att._meta;
    return block;
  }
  const link = linkSkeleton({ ...att, uri }, p.raw, mime, p.firstPart);
  return link;
}
