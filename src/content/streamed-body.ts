/**
 * A blob that is not in memory: the exact bytes of its JSON string (opening quote, base64,
 * closing quote), made on demand from a source such as a file, with their count known before the
 * first byte is read, so that a transport can check its cap and announce a Content-Length. No
 * I/O here: the source is the producer's; this file only encodes and keeps count.
 */
import { McpKitError } from '../errors/mcpkit-error.js';
import { base64Length } from '../protocol/base64.js';
import { encodeBase64 } from './blob.js';
import { utf8Length } from './wire-size.js';

/**
 * A piece of a streamed body: bytes, or text counted as its UTF-8. Base64 goes as text: a write
 * of a string is copied into memory the socket frees as soon as it is sent, where a new buffer
 * per chunk would wait for a garbage collection.
 */
export type StreamedChunk = Uint8Array | string;

/** Bytes of a chunk on the wire. */
export function chunkBytes(chunk: StreamedChunk): number {
  return typeof chunk === 'string' ? utf8Length(chunk) : chunk.byteLength;
}

/** Crosses module copies (two installs of mcpkit), unlike `instanceof`. */
const BRAND = Symbol.for('mcpkit.streamedBody');

/**
 * The JSON string of a blob as a stream of UTF-8 bytes. Iterating {@link StreamedBody.chunks}
 * yields exactly `wireBytes` bytes, quotes included, or throws `STREAM_FAILED` (the source
 * changed, failed or gave another length): a writer then cuts its answer, never completes it.
 * Only transports that say so (`ctx.streamsBodies`) take one; `JSON.stringify` throws
 * `STREAM_UNSUPPORTED` rather than write `{}`.
 */
export interface StreamedBody {
  readonly [BRAND]: true;
  /** Exact bytes of the JSON string, both quotes included. */
  readonly wireBytes: number;
  /** The bytes, from the start, each call anew. A chunk is the writer's to keep. */
  chunks(): AsyncIterable<StreamedChunk>;
  toJSON(): never;
}

/** What {@link streamedBody} wraps. */
export interface StreamedBodySource {
  /** Exact bytes `chunks` will yield, quotes included (at least 2). */
  readonly wireBytes: number;
  /** The JSON string's bytes, opening quote first. */
  chunks(): AsyncIterable<StreamedChunk>;
}

class Streamed implements StreamedBody {
  readonly [BRAND] = true as const;

  constructor(
    readonly wireBytes: number,
    private readonly source: () => AsyncIterable<StreamedChunk>,
  ) {}

  chunks(): AsyncIterable<StreamedChunk> {
    return counted(this.wireBytes, this.source);
  }

  toJSON(): never {
    throw new McpKitError(
      'STREAM_UNSUPPORTED',
      `a streamed body (${this.wireBytes} bytes) cannot be serialized as JSON: only a transport ` +
        'that streams bodies (HTTP) can send it; read the bytes into a string for any other use',
    );
  }
}

function failed(message: string, cause?: unknown): McpKitError {
  return new McpKitError('STREAM_FAILED', message, cause === undefined ? {} : { cause });
}

/** The source's chunks, checked against the count promised: more, or fewer, throws. */
async function* counted(
  wireBytes: number,
  source: () => AsyncIterable<StreamedChunk>,
): AsyncGenerator<StreamedChunk> {
  let sent = 0;
  for await (const chunk of source()) {
    const bytes = chunkBytes(chunk);
    sent += bytes;
    if (sent > wireBytes)
      throw failed(`a streamed body gave more than the ${wireBytes} bytes it announced`);
    if (bytes > 0) yield chunk;
  }
  if (sent !== wireBytes)
    throw failed(`a streamed body ended after ${sent} of the ${wireBytes} bytes it announced`);
}

/**
 * A streamed body from a source of its JSON bytes; see {@link base64Body} for raw bytes.
 *
 * @example
 * const body = streamedBody({ wireBytes: 6, chunks: async function* () { yield bytesOf('"aGk="') } });
 */
export function streamedBody(source: StreamedBodySource): StreamedBody {
  const { wireBytes } = source;
  if (!Number.isSafeInteger(wireBytes) || wireBytes < 2)
    throw new RangeError(`streamedBody: wireBytes must be an integer >= 2, got ${wireBytes}`);
  return new Streamed(wireBytes, () => source.chunks());
}

/** Whether `value` is a {@link StreamedBody}. */
export function isStreamedBody(value: unknown): value is StreamedBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[BRAND] === true
  );
}

/** What {@link base64Body} encodes. */
export interface Base64BodySource {
  /** Exact raw bytes `chunks` will yield. */
  readonly size: number;
  /**
   * The raw bytes in order. A chunk is encoded before the next one is asked for, so a source
   * may read every chunk into the same buffer; a multiple of 3 bytes costs no carried bytes.
   */
  chunks(): AsyncIterable<Uint8Array>;
}

/**
 * The JSON string of the base64 of `size` raw bytes, encoded chunk by chunk: memory holds one
 * chunk and its encoding, never the whole. `wireBytes` is `4 * ceil(size / 3) + 2`.
 *
 * @example
 * const body = base64Body({ size: stats.size, chunks: () => readInChunks(path) });
 */
export function base64Body(source: Base64BodySource): StreamedBody {
  const { size } = source;
  if (!Number.isSafeInteger(size) || size < 0)
    throw new RangeError(`base64Body: size must be a non-negative integer, got ${size}`);
  return new Streamed(base64Length(size) + 2, () => base64Chunks(size, source));
}

async function* base64Chunks(size: number, source: Base64BodySource): AsyncGenerator<string> {
  if (size === 0) {
    for await (const chunk of source.chunks())
      if (chunk.byteLength > 0) throw failed('a streamed blob of 0 bytes gave bytes');
    yield '""';
    return;
  }
  const carry = new Uint8Array(3);
  let carried = 0;
  let seen = 0;
  let first = true;
  for await (const chunk of source.chunks()) {
    if (chunk.byteLength === 0) continue;
    seen += chunk.byteLength;
    if (seen > size) throw failed(`a streamed blob gave more than the ${size} bytes it announced`);
    const last = seen === size;
    let start = 0;
    while (carried > 0 && carried < 3 && start < chunk.byteLength)
      carry[carried++] = chunk[start++]!;
    // Whole groups of 3 only, except at the end, where base64 pads.
    const rest = chunk.byteLength - start;
    const end = last ? chunk.byteLength : start + rest - (rest % 3);
    const head =
      carried === 3 || (last && carried > 0) ? encodeBase64(carry.subarray(0, carried)) : '';
    if (head !== '') carried = 0;
    const body = end > start ? encodeBase64(chunk.subarray(start, end)) : '';
    const out = `${first ? '"' : ''}${head}${body}${last ? '"' : ''}`;
    for (let i = end; i < chunk.byteLength; i++) carry[carried++] = chunk[i]!;
    first = false;
    if (out.length > 0) yield out;
  }
  if (seen !== size)
    throw failed(`a streamed blob ended after ${seen} of the ${size} bytes it announced`);
}

/**
 * The one place a streamed body stands where a contents' `blob` string goes: the wire types say
 * `string`, and only writers that check {@link isStreamedBody} (the HTTP ones) ever see it.
 */
export function asBlobString(body: StreamedBody): string {
  return body as unknown as string;
}

/**
 * The base64 of a streamed blob, read whole into a string: for what needs the string itself
 * (result assembly embedding a resource), never for a transport.
 */
export async function collectBlob(body: StreamedBody): Promise<string> {
  // One decoder per body: a streaming decode holds a character cut between chunks, which a
  // shared one would hand to whichever collection decodes next.
  const utf8 = new TextDecoder();
  let text = '';
  for await (const chunk of body.chunks())
    text += typeof chunk === 'string' ? chunk : utf8.decode(chunk, { stream: true });
  text += utf8.decode();
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"'))
    throw failed('a streamed blob is not a JSON string');
  return text.slice(1, -1);
}
