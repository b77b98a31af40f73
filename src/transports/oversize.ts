import { ERROR_CODES } from '../protocol/error-codes.js';
import { isBase64 } from '../protocol/base64.js';
import { errorResponse, type JSONRPCMessage, type JSONRPCResponse } from '../protocol/jsonrpc.js';
import { utf8Length } from '../content/wire-size.js';
import { resultTooLarge } from '../errors/wire-errors.js';

/** Base64 strings at least this long are written as their own parts, never copied into the JSON. */
export const LARGE_PART_BYTES = 64 * 1024;

/** A message as JSON text in parts (joined, they are the JSON); `bytes` is its UTF-8 size. */
export interface EncodedMessage {
  parts: string[];
  bytes: number;
}

const NONCE = `mcpkit-part-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
const BLOB_KEYS = new Set(['blob', 'data']);

function hasLargeBlob(value: unknown, depth: number): boolean {
  if (depth > 6 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (hasLargeBlob(item, depth + 1)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const v = record[key];
    if (typeof v === 'string') {
      if (v.length >= LARGE_PART_BYTES && BLOB_KEYS.has(key)) return true;
    } else if (typeof v === 'object' && hasLargeBlob(v, depth + 1)) return true;
  }
  return false;
}

/**
 * Serializes a message. Large base64 blobs stay the strings they are (no copy into one big JSON
 * text): the transport writes them as separate parts. Base64 needs no JSON escaping, which is
 * checked before a string is passed through.
 */
export function encodeMessage(message: JSONRPCMessage): EncodedMessage {
  if (!('result' in message) || !hasLargeBlob(message.result, 0)) {
    const text = JSON.stringify(message);
    return { parts: [text], bytes: text.length * 3 <= LARGE_PART_BYTES ? -1 : utf8Length(text) };
  }
  const blobs: string[] = [];
  const skeleton = JSON.stringify(message, (key, value: unknown) => {
    if (
      typeof value === 'string' &&
      value.length >= LARGE_PART_BYTES &&
      BLOB_KEYS.has(key) &&
      isBase64(value)
    ) {
      blobs.push(value);
      return `${NONCE}:${blobs.length - 1}`;
    }
    return value;
  });
  const parts: string[] = [];
  let bytes = 0;
  let at = 0;
  for (const [i, blob] of blobs.entries()) {
    const token = `"${NONCE}:${i}"`;
    const found = skeleton.indexOf(token, at);
    const head = `${skeleton.slice(at, found)}"`;
    parts.push(head, blob);
    bytes += utf8Length(head) + blob.length;
    at = found + token.length - 1;
  }
  const tail = skeleton.slice(at);
  parts.push(tail);
  bytes += utf8Length(tail);
  return { parts, bytes };
}

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
  option: string,
  report: (text: string) => void,
): EncodedMessage | undefined {
  let encoded: EncodedMessage;
  try {
    encoded = encodeMessage(message);
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
  if (!('result' in message || 'error' in message)) {
    const what = 'method' in message ? message.method : 'message';
    report(`mcpkit: dropped a ${bytes}-byte ${what}: over the ${capBytes}-byte cap (${option})`);
    return undefined;
  }
  const error = resultTooLarge(
    `The result is ${bytes} bytes, over this transport's ${capBytes}-byte message cap (${option}). ` +
      'Ask for a link instead of embedded content, read a smaller resource, or raise the cap on both sides.',
    { bytes, limit: capBytes },
  );
  const text = JSON.stringify(errorResponse(message.id, error.code, error.message, error.data));
  return { parts: [text], bytes: utf8Length(text) };
}

/**
 * `encodeWithinCap` with a last line of defence, for transports: a response that still cannot
 * be encoded is answered with -32603 rather than left unanswered; anything else is dropped.
 */
export function encodeForSend(
  message: JSONRPCMessage,
  capBytes: number,
  option: string,
  report: (text: string) => void,
): EncodedMessage | undefined {
  try {
    const encoded = encodeWithinCap(message, capBytes, option, report);
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
  option: string,
  report: (text: string) => void,
): EncodedMessage {
  return encodeForSend(response, capBytes, option, report) ?? cannotEncode(response.id);
}

function isResponse(message: JSONRPCMessage): message is JSONRPCResponse {
  return 'result' in message || 'error' in message;
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
  if (!('result' in message || 'error' in message)) {
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
