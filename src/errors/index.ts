/** @module mcpkit/errors */
export { ProtocolError, isProtocolError } from './protocol-error.js';
export { McpKitError, isMcpKitError } from './mcpkit-error.js';
export { MCPKIT_ERROR_CODES } from './codes.js';
export type { McpKitErrorCode } from './codes.js';
export {
  headerMismatch,
  missingCapability,
  resourceNotFound,
  resourceRefused,
  resultTooLarge,
  unsupportedVersion,
} from './wire-errors.js';
