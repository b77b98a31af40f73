/** @module mcpkit/content */
export { annotations, isIsoDateTime } from './annotations.js';
export type { AnnotationsInput } from './annotations.js';
export {
  text,
  image,
  audio,
  embeddedResource,
  resourceLink,
  textContents,
  blobContents,
} from './builders.js';
export { userMessage, assistantMessage, toolResult, toolError } from './messages.js';
export type { BlockOptions, ResourceLinkInput } from './builders.js';
export { parseContentBlock, parseContentBlocks, parseContentBlockLenient } from './parse.js';
export { parseResourceContents, parseResourceContentsLenient } from './parse-contents.js';
export {
  encodeBase64,
  decodeBase64,
  encodeBase64Stream,
  blobWireSize,
  repairBase64,
} from './blob.js';
export type { EncodeBase64StreamOptions } from './blob.js';
export {
  streamedBody,
  base64Body,
  isStreamedBody,
  asBlobString,
  collectBlob,
} from './streamed-body.js';
export type {
  StreamedBody,
  StreamedBodySource,
  StreamedChunk,
  Base64BodySource,
} from './streamed-body.js';
export {
  jsonStringWireSize,
  utf8Length,
  contentWireSize,
  resourceContentsWireSize,
} from './wire-size.js';
export {
  mimeFromName,
  sniffMime,
  looksLikeText,
  resolveMimeType,
  isTextMimeType,
  DEFAULT_TEXT_MIME,
  DEFAULT_BINARY_MIME,
} from './mime.js';
export type { MimeSource, ResolveMimeTypeInput } from './mime.js';
export { decide, DEFAULT_BLOCK_BUDGET_BYTES, DEFAULT_RESULT_BUDGET_BYTES } from './policy.js';
export type { Policy, PolicyInput, PolicyContext, Decision, DecisionReason } from './policy.js';
export { attach, isAttachment } from './attachment.js';
export type { Attachment, AttachmentInput, AttachmentContent } from './attachment.js';
export { assembleBlocks } from './assemble.js';
export type { AssembleOptions, DecisionRecord } from './assemble.js';
