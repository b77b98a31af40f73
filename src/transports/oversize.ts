import { ERROR_CODES } from '../protocol/error-codes.js';
import {
  errorResponse,
  isResponse,
  type JSONRPCMessage,
  type JSONRPCResponse,
} from '../protocol/jsonrpc.js';
import {
  encodeMessage,
  LARGE_PART_BYTES,
  type EncodedMessage,
  type EncodeOptions,
} from '../content/encode-message.js';
import { McpKitError } from '../errors/mcpkit-error.js';
import { utf8Length } from '../content/wire-size.js';
import { resultTooLarge } from '../errors/wire-errors.js';

/**
 * The smallest outbound cap a transport accepts: an answer that does not fit becomes an error,
 * and that error must itself fit.
 */
export const MIN_RESPONSE_BYTES = 4096;

function sizeOf(encoded: EncodedMessage): number {
  if (encoded.bytes < 0) encoded.bytes = utf8Length(encoded.parts[0] as string);
  return encoded.bytes;
}

/**
 * Keeps an outbound message under the transport's cap. A response that would not fit becomes an
 * error the client can act on (never a dropped connection); a notification that would not fit is
 * dropped and reported. Returns the parts to send, or undefined to send nothing.
 */
export function encodeWithinCap(
  message: JSONRPCMessage,
  capBytes: number,
  report: (text: string) => void,
  options: EncodeOptions = {},
): EncodedMessage | undefined {
  let encoded: EncodedMessage;
  try {
    encoded = encodeMessage(message, options);
  } catch (error) {
    // A BigInt, a cycle or nesting too deep for JSON.stringify (RangeError): never a crash.
    return unencodable(message, error, report);
  }
  // Small messages (bytes < 0) fit any sane cap without an exact count.
  if (encoded.bytes < 0 && LARGE_PART_BYTES <= capBytes) return encoded;
  const bytes = sizeOf(encoded);
  if (bytes <= capBytes) return encoded;
  // Any response is answered, an id-less one too (with id null): only notifications and requests
  // are dropped.
  if (!isResponse(message)) {
    const what = 'method' in message ? message.method : 'message';
    report(
      `mcpkit: dropped a ${bytes}-byte ${what}: over the ${capBytes}-byte cap (maxResponseBytes)`,
    );
    return undefined;
  }
  const error = resultTooLarge(
    `The result is ${bytes} bytes, over this transport's ${capBytes}-byte message cap (maxResponseBytes). ` +
      'Ask for a link instead of embedded content, read a smaller resource, or raise the cap on both sides.',
    { bytes, limit: capBytes },
  );
  const text = JSON.stringify(errorResponse(message.id, error.code, error.message, error.data));
  return { parts: [text], bytes: utf8Length(text) };
}

/**
 * What a transport does with a message it could not send: a request the server waits on fails
 * at once (thrown to the sender, the peer rejects it) instead of waiting out its timeout.
 */
export function failUnsent(message: JSONRPCMessage, capBytes: number): void {
  if ('method' in message && 'id' in message)
    throw new McpKitError(
      'REQUEST_UNSENDABLE',
      `${message.method} could not be sent to the client: over this transport's ${capBytes}-byte ` +
        'message cap (maxResponseBytes), or not encodable as JSON',
    );
}

/**
 * `encodeWithinCap` with a last line of defence, for transports: a response that still cannot
 * be encoded is answered with -32603 rather than left unanswered; anything else is dropped.
 */
export function encodeForSend(
  message: JSONRPCMessage,
  capBytes: number,
  report: (text: string) => void,
  options: EncodeOptions = {},
): EncodedMessage | undefined {
  try {
    const encoded = encodeWithinCap(message, capBytes, report, options);
    if (encoded || !isResponse(message)) return encoded;
  } catch (error) {
    report(`mcpkit: could not encode a message: ${String(error)}`);
    if (!isResponse(message)) return undefined;
  }
  return cannotEncode(message.id);
}

/** `encodeForSend` for a response, which always gets an answer. */
export function encodeResponse(
  response: JSONRPCResponse,
  capBytes: number,
  report: (text: string) => void,
  options: EncodeOptions = {},
): EncodedMessage {
  return encodeForSend(response, capBytes, report, options) ?? cannotEncode(response.id);
}

function cannotEncode(id: JSONRPCResponse['id']): EncodedMessage {
  const text = JSON.stringify(
    errorResponse(id, ERROR_CODES.INTERNAL_ERROR, 'The response could not be encoded'),
  );
  return { parts: [text], bytes: -1 };
}

/** The answer to a message JSON.stringify refused: -32603 for a response, nothing otherwise. */
function unencodable(
  message: JSONRPCMessage,
  error: unknown,
  report: (text: string) => void,
): EncodedMessage | undefined {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const why = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  if (!isResponse(message)) {
    const what = 'method' in message ? message.method : 'message';
    report(`mcpkit: dropped a ${what} that could not be encoded as JSON (${why})`);
    return undefined;
  }
  report(`mcpkit: the response to id ${JSON.stringify(message.id)} could not be encoded (${why})`);
  const answer = JSON.stringify(
    errorResponse(
      message.id,
      ERROR_CODES.INTERNAL_ERROR,
      `The response could not be encoded as JSON (${why})`,
    ),
  );
  return { parts: [answer], bytes: utf8Length(answer) };
}
