import { ERROR_CODES } from '../protocol/error-codes.js';
import { errorResponse, type JSONRPCMessage } from '../protocol/jsonrpc.js';
import { utf8Length } from '../content/wire-size.js';

/**
 * Keeps an outbound message under the transport's cap. A response that would not fit becomes an
 * error the client can act on (never a dropped connection); a notification that would not fit is
 * dropped and reported. Returns the JSON text to send, or undefined to send nothing.
 */
export function encodeWithinCap(
  message: JSONRPCMessage,
  capBytes: number,
  option: string,
  report: (text: string) => void,
): string | undefined {
  const text = JSON.stringify(message);
  // UTF-8 needs at most 3 bytes per UTF-16 unit: most messages skip the exact count.
  if (text.length * 3 <= capBytes) return text;
  const bytes = utf8Length(text);
  if (bytes <= capBytes) return text;
  if (!('id' in message) || message.id === null || !('result' in message || 'error' in message)) {
    report(
      `mcpkit: dropped a ${bytes}-byte ${'method' in message ? message.method : 'message'}: over the ${capBytes}-byte cap (${option})`,
    );
    return undefined;
  }
  return JSON.stringify(
    errorResponse(
      message.id,
      ERROR_CODES.INTERNAL_ERROR,
      `The result is ${bytes} bytes, over this transport's ${capBytes}-byte message cap (${option}). ` +
        'Ask for a link instead of embedded content, read a smaller resource, or raise the cap on both sides.',
      { bytes, limit: capBytes },
    ),
  );
}
