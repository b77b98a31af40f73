/** One block of the rewritten content, with what the result limit needs to know of its text. */
import type { ContentBlock } from '../../protocol/index.js';

export interface TextPart {
  /** The bridge's line before the body (counted in the limit, never cut). */
  header: string;
  /** The text: a text block's, or a resource's from its start. */
  body: string;
  /** The resource the body is the text of (the rest is read there with an offset). */
  uri?: string | undefined;
  mimeType?: string | undefined;
  /** The resource's whole size in UTF-8 bytes, when `body` is only its start (a cut link). */
  size?: number | undefined;
}

export interface OutItem {
  block: ContentBlock;
  /** Index of the upstream block (or prompt message) it stands for. */
  source: number;
  /** Present for the blocks whose text counts against the host's limit. */
  text?: TextPart;
}

/** The block with its text part replaced by `body` (the header kept). */
export function withBody(item: OutItem, body: string): ContentBlock {
  const { block } = item;
  const header = item.text?.header ?? '';
  if (block.type === 'resource') return { ...block, resource: { ...block.resource, text: body } };
  return { ...block, type: 'text', text: header + body } as ContentBlock;
}

export function textItem(
  source: number,
  header: string,
  body: string,
  extra: Partial<TextPart> = {},
): OutItem {
  return {
    block: { type: 'text', text: header + body },
    source,
    text: { header, body, ...extra },
  };
}
