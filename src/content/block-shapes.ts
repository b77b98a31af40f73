/**
 * The blocks an attachment becomes (an embedded resource or a link) and what they weigh on the
 * wire, measured without building the big strings into them.
 */
import { base64Length } from '../protocol/base64.js';
import type { EmbeddedResource, ResourceLink } from '../protocol/types.js';
import { ARTIFACT_PREFIX, partUri } from './artifact-parts.js';
import type { Attachment, AttachmentContent } from './attachment.js';
import { firstPartDescription } from './policy.js';
import { contentWireSize, jsonStringWireSize, textSizes } from './wire-size.js';

/** What content weighs: `raw`, UTF-8 of a text or a blob's decoded length; a text's JSON string. */
export interface ContentSize {
  raw: number | undefined;
  /** `jsonStringWireSize(text)`, measured in the same scan as `raw`. */
  textWire?: number;
}

export function sizeOfContent(c: AttachmentContent): ContentSize {
  if (c.text !== undefined) {
    const { utf8, json } = textSizes(c.text);
    return { raw: utf8, textWire: json };
  }
  if (c.bytes !== undefined) return { raw: c.bytes.length };
  if (c.blob !== undefined) {
    const pad = c.blob.endsWith('==') ? 2 : c.blob.endsWith('=') ? 1 : 0;
    return { raw: (c.blob.length / 4) * 3 - pad };
  }
  return { raw: undefined };
}

export function hasContent(c: AttachmentContent | undefined): boolean {
  return c !== undefined && (c.text !== undefined || c.bytes !== undefined || c.blob !== undefined);
}

/** The URI an attachment without one is sized with: an artifact URI's length. */
export const PLACEHOLDER_URI = ARTIFACT_PREFIX + '0'.repeat(64);

/**
 * A link's block; `firstPart`, the bytes of the part it names instead of the whole (an artifact
 * too large to read whole over this connection), as a file's link names its first part.
 */
export function linkSkeleton(
  att: Attachment,
  raw: number,
  mime: string | undefined,
  firstPart?: number,
): ResourceLink {
  const link: ResourceLink = {
    type: 'resource_link',
    uri: att.uri ?? PLACEHOLDER_URI,
    name: att.name,
  };
  if (att.title !== undefined) link.title = att.title;
  if (att.description !== undefined) link.description = att.description;
  const type = mime ?? att.mimeType;
  if (type !== undefined) link.mimeType = type;
  link.size = raw;
  if (firstPart !== undefined) {
    link.uri = partUri(link.uri, 0, firstPart);
    link.size = firstPart;
    const note = firstPartDescription(att.name, raw);
    link.description = att.description === undefined ? note : `${att.description}. ${note}`;
  }
  if (att.annotations !== undefined) link.annotations = att.annotations;
  if (att._meta !== undefined) link._meta = att._meta;
  return link;
}

export function embedWireSize(
  att: Attachment,
  content: AttachmentContent,
  raw: number,
  mime: string,
  textWire?: number,
): number {
  const skeleton: EmbeddedResource = {
    type: 'resource',
    resource: { uri: att.uri ?? PLACEHOLDER_URI, mimeType: mime, text: '' },
  };
  if (att.annotations !== undefined) skeleton.annotations = att.annotations;
  if (att._meta !== undefined) skeleton._meta = att._meta;
  const base = contentWireSize(skeleton) - 2;
  if (content.text !== undefined) return base + (textWire ?? jsonStringWireSize(content.text));
  // "blob" and "text" are both four characters: only the string differs.
  return base + base64Length(raw) + 2;
}
