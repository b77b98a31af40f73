/**
 * A handler's programming mistakes (a bad or unserved URI attached, a blob not base64): the model
 * can do nothing about them, so they are -32603 naming the handler and the fix, not tool
 * failures (`isError`), and are logged on the server's side (onError, else stderr).
 */
import { isMcpKitError } from '../../errors/mcpkit-error.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import type { ServerCore } from '../core.js';

const MISTAKES = new Set([
  'INVALID_URI',
  'ATTACHMENT_NOT_SERVED',
  'ATTACHMENT_EMPTY',
  'INVALID_BASE64',
]);

/** `error` as -32603 when it is an author's mistake (reported first); undefined otherwise. */
export function authorMistake(
  core: ServerCore,
  error: unknown,
  method: string,
  who: string,
): ProtocolError | undefined {
  if (!isMcpKitError(error) || !MISTAKES.has(error.code)) return undefined;
  const message = `${who}: ${error.message}`;
  reportHandlerError(core, error, method, message);
  return ProtocolError.internal(message);
}

/** A handler's failure, for the server's log: onError when given, else stderr. */
export function reportHandlerError(
  core: ServerCore,
  error: unknown,
  method: string,
  message: string,
): void {
  if (core.options.onError) core.options.onError(error, method);
  else console.error(`mcpkit: ${message}`);
}
