import type { McpKitErrorCode } from './codes.js';

/**
 * A local error with a stable string code from `MCPKIT_ERROR_CODES`. It never crosses the wire
 * as-is.
 *
 * @example
 * throw new McpKitError('REQUEST_TIMEOUT', 'tools/call "search" timed out after 30000 ms');
 */
export class McpKitError extends Error {
  override readonly name: string = 'McpKitError';
  readonly code: McpKitErrorCode;

  constructor(code: McpKitErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isMcpKitError(value: unknown, code?: McpKitErrorCode): value is McpKitError {
  return value instanceof McpKitError && (code === undefined || value.code === code);
}
