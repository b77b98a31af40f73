import { ERROR_CODES } from '../protocol/error-codes.js';
import type { Era } from '../protocol/versions.js';
import { ProtocolError } from './protocol-error.js';

/**
 * Every MCP-specific wire error is built here, so that its code, message and `data` agree
 * wherever it is raised (server, transports, providers, and later the client's checks).
 */

/** Resource not found: `-32602` with `data.uri` in 2026-07-28, `-32002` in 2025-11-25. */
export function resourceNotFound(uri: string, era: Era, why = ''): ProtocolError {
  const code =
    era === 'legacy' ? ERROR_CODES.LEGACY_RESOURCE_NOT_FOUND : ERROR_CODES.INVALID_PARAMS;
  return new ProtocolError(code, `Resource not found: ${uri}${why}`, { uri });
}

/** A resource URI a guard refused (traversal, NUL, …): `-32602` naming the URI (and variable). */
export function resourceRefused(uri: string, reason: string, variable?: string): ProtocolError {
  const which = variable ? ` (variable "${variable}")` : '';
  return ProtocolError.invalidParams(
    `Refused resource URI ${JSON.stringify(uri)}${which}: ${reason}`,
    { uri },
  );
}

/** `-32020`: a request header disagrees with the body, or a required one is missing. */
export function headerMismatch(message: string, header: string): ProtocolError {
  return new ProtocolError(ERROR_CODES.HEADER_MISMATCH, message, { header });
}

/** `-32022` with the versions we speak and the one asked for (left out when it was not a string). */
export function unsupportedVersion(
  requested: string | undefined,
  supported: readonly string[],
  message = `Unsupported protocol version ${JSON.stringify(requested)}; supported: ${supported.join(', ')}`,
): ProtocolError {
  return new ProtocolError(ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION, message, {
    supported: [...supported],
    ...(requested !== undefined ? { requested } : {}),
  });
}

/** `-32021`: the request needs a client capability it did not declare. */
export function missingCapability(method: string, capability: string): ProtocolError {
  return new ProtocolError(
    ERROR_CODES.MISSING_REQUIRED_CLIENT_CAPABILITY,
    `${method} needs the client capability "${capability}", which this request did not declare`,
    { requiredCapabilities: { [capability]: {} } },
  );
}

/** `data.reason` of a too-large error: what content's assembler looks for to link instead. */
export const TOO_LARGE_REASON = 'too-large';

/**
 * `-32603` for content too large for this connection's cap for one message: the request is
 * valid, this server cannot answer it here. `data` carries the sizes and `reason: 'too-large'`.
 */
export function resultTooLarge(message: string, data: Record<string, unknown>): ProtocolError {
  return new ProtocolError(ERROR_CODES.INTERNAL_ERROR, message, {
    ...data,
    reason: TOO_LARGE_REASON,
  });
}

/**
 * `-32602` for a message nested deeper than the server takes (`ServerOptions.maxDepth`), refused
 * before anything recursive walks it. `data` carries the limit and `reason: 'too-deep'` (HTTP 400).
 */
export function tooDeep(limit: number, where = 'params'): ProtocolError {
  return ProtocolError.invalidParams(
    `The message nests objects or arrays more than ${limit} levels below ${where} (maxDepth ${limit}); flatten it, or raise maxDepth on the server`,
    { limit, reason: 'too-deep' },
  );
}
