import { ERROR_CODES } from '../protocol/error-codes.js';

/**
 * An error that crosses the wire as a JSON-RPC error object.
 *
 * @example
 * throw ProtocolError.invalidParams('Unknown tool: "search2"', { name: 'search2' });
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.data = data;
  }

  static parseError(message: string): ProtocolError {
    return new ProtocolError(ERROR_CODES.PARSE_ERROR, message);
  }

  static invalidRequest(message: string, data?: unknown): ProtocolError {
    return new ProtocolError(ERROR_CODES.INVALID_REQUEST, message, data);
  }

  static methodNotFound(method: string, why?: string): ProtocolError {
    const text = why ? `Method not found: ${method} (${why})` : `Method not found: ${method}`;
    return new ProtocolError(ERROR_CODES.METHOD_NOT_FOUND, text, { method });
  }

  static invalidParams(message: string, data?: unknown): ProtocolError {
    return new ProtocolError(ERROR_CODES.INVALID_PARAMS, message, data);
  }

  static internal(message: string, cause?: unknown): ProtocolError {
    return new ProtocolError(ERROR_CODES.INTERNAL_ERROR, message, undefined, { cause });
  }

  /** The JSON-RPC error object. */
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export function isProtocolError(value: unknown): value is ProtocolError {
  return value instanceof ProtocolError;
}
