/** @module mcpkit/protocol */
export {
  LATEST_PROTOCOL_VERSION,
  LATEST_LEGACY_VERSION,
  MODERN_VERSIONS,
  LEGACY_VERSIONS,
  SUPPORTED_VERSIONS,
  eraOf,
  isModernVersion,
} from './versions.js';
export type { Era } from './versions.js';
export { requestEra } from './era.js';
export type { EraClues } from './era.js';
export { META, MCPKIT_META_PREFIX, MAX_MESSAGE_BYTES_META } from './meta-keys.js';
export { ERROR_CODES } from './error-codes.js';
export type { ErrorCode } from './error-codes.js';
export {
  classify,
  resultResponse,
  errorResponse,
  notification,
  isErrorResponse,
} from './jsonrpc.js';
export type {
  RequestId,
  JSONRPCRequest,
  JSONRPCNotification,
  JSONRPCResultResponse,
  JSONRPCErrorObject,
  JSONRPCErrorResponse,
  JSONRPCResponse,
  JSONRPCMessage,
  Classified,
} from './jsonrpc.js';
export { findBase64Problem, isBase64, base64Length, decodedBase64Length } from './base64.js';
export type { Base64Problem } from './base64.js';
export { uriProblem, isUri } from './uri-syntax.js';
export {
  validateParams,
  validateClientResult,
  validateServerResult,
  validateDef,
  warmValidators,
} from './validate.js';
export { decodeHeaderValue, encodeHeaderValue, headerFormOf } from './header-values.js';
export type { ValidationIssue, ParamsValidator } from './validate.js';
export type {
  Role,
  LoggingLevel,
  CacheScope,
  ResultType,
  MetaObject,
  Icon,
  Implementation,
  Annotations,
  TextContent,
  ImageContent,
  AudioContent,
  Resource,
  ResourceTemplate,
  ResourceLink,
  TextResourceContents,
  BlobResourceContents,
  ResourceContents,
  EmbeddedResource,
  ContentBlock,
  ToolAnnotations,
  Tool,
  PromptArgument,
  Prompt,
  PromptMessage,
  ServerCapabilities,
  ClientCapabilities,
  CallToolResult,
  GetPromptResult,
  ReadResourceResult,
  CompleteResult,
  SubscriptionFilter,
  InputRequest,
  InputRequests,
  InputResponses,
  InputRequiredResult,
} from './types.js';
