import { ERROR_CODES } from '../protocol/error-codes.js';
import { isBase64 } from '../protocol/base64.js';
import { preEncodedOf } from '../protocol/pre-encoded.js';
import { errorResponse, type JSONRPCMessage, type JSONRPCResponse } from '../protocol/jsonrpc.js';
import { SHARED_BODY_MIN_BYTES, sharedBodies } from '../content/shared-bodies.js';
import { isStreamedBody, type StreamedBody } from '../content/streamed-body.js';
import { McpKitError } from '../errors/mcpkit-error.js';
import { utf8Length } from '../content/wire-size.js';
import { resultTooLarge } from '../errors/wire-errors.js';

/**
 * The smallest outbound cap a transport accepts: an answer that does not fit becomes an error,
 * and that error must itself fit.
 */
export const MIN_RESPONSE_BYTES = 4096;

/** Base64 strings at least this long are written as their own parts, never copied into the JSON. */
export const LARGE_PART_BYTES = SHARED_BODY_MIN_BYTES;

/**
 * A message as JSON in parts (joined, they are the JSON); `bytes` is its UTF-8 size. A string
 * part is text to write; a Uint8Array part is UTF-8 already, shared with other responses (see
 * content/shared-bodies.ts): written as it is, never modified; a StreamedBody part is a blob's
 * JSON string still to be read from its source (content/streamed-body.ts), quotes included.
 */
export interface EncodedMessage {
  parts: MessagePart[];
  bytes: number;
}

/**
 * Text to write, UTF-8 bytes shared with other responses (never to be modified), or a streamed
 * blob (only from `encodeMessage(..., { streams: true })`: its writer iterates it).
 */
export type MessagePart = string | Uint8Array | StreamedBody;

/** How a transport's writer sends a message. */
export interface EncodeOptions {
  /**
   * Whether the writer sends StreamedBody parts (HTTP). Without it a message holding one cannot
   * be encoded: a response then becomes -32603, never `[object Object]` on the wire.
   */
  streams?: boolean;
}

/** The UTF-8 size of one part. */
export function partBytes(part: MessagePart): number {
  if (typeof part === 'string') return utf8Length(part);
  return part instanceof Uint8Array ? part.byteLength : part.wireBytes;
}

/** Whether any part is streamed (its writer must iterate it, with backpressure). */
export function hasStreamedPart(parts: readonly MessagePart[]): boolean {
  for (const part of parts)
    if (typeof part !== 'string' && !(part instanceof Uint8Array)) return true;
  return false;
}

const NONCE = `mcpkit-part-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
const BLOB_KEYS = new Set(['blob', 'data']);

/** A string written as its own part: base64 under a blob key, or one with shared bytes. */
function isLargePart(key: string, value: string): boolean {
  if (value.length < LARGE_PART_BYTES) return false;
  if (BLOB_KEYS.has(key)) return true;
  return key === 'text' && sharedBodies.size > 0 && sharedBodies.get(value) !== undefined;
}

function hasLargePart(value: unknown, depth: number): boolean {
  if (depth > 6 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (hasLargePart(item, depth + 1)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const v = record[key];
    if (typeof v === 'string') {
      if (isLargePart(key, v)) return true;
    } else if (key === 'blob' && isStreamedBody(v)) return true;
    else if (typeof v === 'object' && hasLargePart(v, depth + 1)) return true;
  }
  return false;
}

/**
 * Serializes a message. Large strings are not copied into one big JSON text: a string with
 * shared bytes (a cached file's contents) is written as those bytes, the same for every
 * response; another large base64 blob stays the string it is, as its own part. Base64 needs no
 * JSON escaping, which is checked before a string is passed through. A StreamedBody under
 * `blob` is its own part, counted with its exact `wireBytes`, when `options.streams` says the
 * writer sends one; otherwise it throws `STREAM_UNSUPPORTED`.
 */
export function encodeMessage(
  message: JSONRPCMessage,
  options: EncodeOptions = {},
): EncodedMessage {
  const pre = 'result' in message ? preEncodedOf(message.result) : undefined;
  if (pre !== undefined && 'id' in message) {
    // The same bytes JSON.stringify would give ({ jsonrpc, id, result }), the result encoded once.
    const text = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${pre}}`;
    return { parts: [text], bytes: text.length * 3 <= LARGE_PART_BYTES ? -1 : utf8Length(text) };
  }
  if (!('result' in message) || !hasLargePart(message.result, 0)) {
    const text = JSON.stringify(message);
    return { parts: [text], bytes: text.length * 3 <= LARGE_PART_BYTES ? -1 : utf8Length(text) };
  }
  const large: MessagePart[] = [];
  const skeleton = JSON.stringify(message, (key, value: unknown) => {
    if (typeof value === 'object' && value !== null) return detachStreamed(value, large, options);
    if (typeof value !== 'string' || value.length < LARGE_PART_BYTES) return value;
    const shared = BLOB_KEYS.has(key) || key === 'text' ? sharedBodies.get(value) : undefined;
    if (shared !== undefined || (BLOB_KEYS.has(key) && isBase64(value))) {
      large.push(shared ?? value);
      return `${NONCE}:${large.length - 1}`;
    }
    return value;
  });
  const parts: MessagePart[] = [];
  let bytes = 0;
  let at = 0;
  for (const [i, part] of large.entries()) {
    const token = `"${NONCE}:${i}"`;
    const found = skeleton.indexOf(token, at);
    // Shared and streamed bytes carry their quotes; a string part goes between the skeleton's.
    const quoted = typeof part !== 'string';
    const head = skeleton.slice(at, quoted ? found : found + 1);
    if (head !== '') parts.push(head);
    parts.push(part);
    bytes += utf8Length(head) + (quoted ? partBytes(part) : part.length);
    at = quoted ? found + token.length : found + token.length - 1;
  }
  const tail = skeleton.slice(at);
  parts.push(tail);
  bytes += utf8Length(tail);
  return { parts, bytes };
}

/**
 * The replacer's view of an object: one whose `blob` is streamed is serialized as a copy with a
 * token there (JSON.stringify calls `toJSON` before the replacer, so the body itself must never
 * be reached), and the body becomes the token's part.
 */
function detachStreamed(value: object, large: MessagePart[], options: EncodeOptions): unknown {
  const blob = (value as { blob?: unknown }).blob;
  if (!isStreamedBody(blob)) return value;
  if (options.streams !== true)
    throw new McpKitError(
      'STREAM_UNSUPPORTED',
      `a streamed blob (${blob.wireBytes} bytes) reached a transport that cannot stream it`,
    );
  large.push(blob);
  return { ...value, blob: `${NONCE}:${large.length - 1}` };
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
 * What a transport does with a message it could not send: a request the server waits on fails
 * at once (thrown to the sender, the peer rejects it) instead of waiting out its timeout.
 */
export function failUnsent(message: JSONRPCMessage, capBytes: number, option: string): void {
  if ('method' in message && 'id' in message)
    throw new McpKitError(
      'REQUEST_UNSENDABLE',
      `${message.method} could not be sent to the client: over this transport's ${capBytes}-byte ` +
        `message cap (${option}), or not encodable as JSON`,
    );
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
  options: EncodeOptions = {},
): EncodedMessage | undefined {
  try {
    const encoded = encodeWithinCap(message, capBytes, option, report, options);
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
  options: EncodeOptions = {},
): EncodedMessage {
  return encodeForSend(response, capBytes, option, report, options) ?? cannotEncode(response.id);
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
