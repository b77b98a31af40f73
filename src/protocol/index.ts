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
export { META, MCPKIT_META_PREFIX } from './meta-keys.js';
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
export { findBase64Problem, isBase64, base64Length } from './base64.js';
export type { Base64Problem } from './base64.js';
export { uriProblem, isUri } from './uri-syntax.js';
export { validateParams, validateClientResult, validateDef, warmValidators } from './validate.js';
export type { ValidationIssue, ParamsValidator } from './validate.js';
export type * from './types.js';
