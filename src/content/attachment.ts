import type { Annotations, MetaObject } from '../protocol/types.js';

/** Loaded content of an attachment. */
export interface AttachmentContent {
  text?: string;
  bytes?: Uint8Array;
  /** Canonical base64. */
  blob?: string;
  mimeType?: string;
}

/**
 * A resource the author wants in a result, embedded or linked as the policy decides. Give the
 * content (`text`, `bytes` or `blob`), or a `size` and a `load` function so that a large resource
 * can be linked without being read.
 */
export interface Attachment extends AttachmentContent {
  readonly type: 'mcpkit/attachment';
  /** Omitted: a content-addressed artifact URI, kept in the link store when linked. */
  uri?: string;
  name: string;
  title?: string;
  description?: string;
  /** Raw size in bytes when the content is not given. */
  size?: number;
  /**
   * Learns the size (and type) without loading, when `size` is not given: the server's
   * `ctx.result`, `ctx.messages`, `ctx.embed` and `ctx.link` call it before the policy runs.
   */
  stat?: () => Promise<{ size: number; mimeType?: string } | undefined>;
  load?: () => Promise<AttachmentContent>;
  annotations?: Annotations;
  _meta?: MetaObject;
  required?: boolean;
  volatile?: boolean;
  sensitive?: boolean;
  mode?: 'auto' | 'embed' | 'link';
}

export type AttachmentInput = Omit<Attachment, 'type'>;

/**
 * Describes a resource for a result; the assembler embeds or links it.
 *
 * @example
 * ctx.result(text('The report:'), attach({ uri: 'file:///r.pdf', name: 'r.pdf', bytes }))
 */
export function attach(input: AttachmentInput): Attachment {
  return { ...input, type: 'mcpkit/attachment' };
}

export function isAttachment(value: unknown): value is Attachment {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'mcpkit/attachment'
  );
}
