import { partBytes, type MessagePart } from '../../../content/encode-message.js';
import { isStreamedBody, type StreamedChunk } from '../../../content/streamed-body.js';
import type { ChannelFlow } from '../../../server/transport.js';
import type { BodyLimits, BodyOutcome } from './body-limits.js';

/** The little an HTTP handler needs from a runtime; the web and node adapters implement it. */
export interface HttpExchange {
  readonly method: string;
  /** The request path without the query string. */
  readonly path: string;
  /** The query string without its `?` (absent when there is none). */
  readonly query?: string | undefined;
  /**
   * A framework routed the request to this handler (it is mounted): without a `path` option it
   * is then served wherever it arrived.
   */
  readonly mounted?: boolean;
  /** A header value by lower-case name (several values joined with ", "). */
  header(name: string): string | undefined;
  /**
   * Reads the body as UTF-8 text within `limits` (see body-limits.ts): 'too-large' as soon as it
   * passes maxBytes, 'busy' when the endpoint's budget has no room for it, 'timeout' when it
   * stalls. Its share of the budget is released whenever reading stops, however it stops.
   */
  body(limits: BodyLimits): Promise<BodyOutcome>;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
}

/**
 * An SSE response body. Writes never block: past its high-water mark a sink buffers and says
 * so, and listen streams (which see the sink as their channel's flow) hold frames until it drains.
 */
export interface SseSink extends ChannelFlow {
  /**
   * Writes a chunk; false once the client is not keeping up (the chunk is buffered), as
   * Writable.write. A Uint8Array chunk may be shared with other responses: it is written as it
   * is, never copied nor modified.
   */
  write(chunk: string | Uint8Array): boolean;
  end(): void;
  /**
   * Cuts the stream as a failure (node: the response destroyed; web: the body errored), for a
   * message that could not be finished: the client never sees a complete-looking wrong one.
   * Without it, a writer ends the stream mid-event instead (an SSE client drops that event).
   */
  abort?(): void;
}

export interface HttpResponder {
  /**
   * `body` in parts is the concatenation of the parts: large blobs are sent uncopied, and
   * Uint8Array parts (shared with other responses) as they are, never modified. A StreamedBody
   * part is iterated as the client takes it, within the exact length announced; if it fails,
   * the body is cut (see content/streamed-body.ts).
   */
  send(
    status: number,
    headers: Record<string, string>,
    body?: string | readonly MessagePart[],
    /** Called once the client took the whole response, or it was cut (node); at once (web). */
    done?: () => void,
  ): void;
  stream(status: number, headers: Record<string, string>): SseSink;
}

/** Bodies in parts up to this many bytes are written at once (joined, or one corked writev). */
const JOINED_BODY_BYTES = 64 * 1024;

/**
 * A body in parts, in one pass: its exact length, and whether it is written at once (small,
 * nothing streamed).
 * Node measures text with the native Buffer.byteLength: a JS loop is slower on a large part.
 */
export function bodyPlan(
  parts: readonly MessagePart[],
  textBytes: (text: string) => number = partBytes,
): { bytes: number; joined: boolean } {
  let bytes = 0;
  let streamed = false;
  for (const part of parts) {
    if (typeof part === 'string') bytes += textBytes(part);
    else if (part instanceof Uint8Array) bytes += part.byteLength;
    else {
      bytes += part.wireBytes;
      streamed = true;
    }
  }
  return { bytes, joined: !streamed && bytes <= JOINED_BODY_BYTES };
}

/**
 * The pieces of `parts` in order: in-memory ones through `split`, a streamed one as its source
 * yields them. `stopped` is asked before each part and piece, so a gone client opens no further
 * source; stopping early (or the consumer's return()) closes the one being read.
 */
export async function* partPieces(
  parts: readonly MessagePart[],
  split: (part: string | Uint8Array) => Iterable<StreamedChunk> = (part) => [part],
  stopped: () => boolean = () => false,
): AsyncGenerator<StreamedChunk, void, undefined> {
  for (const part of parts) {
    if (stopped()) return;
    for await (const piece of isStreamedBody(part) ? part.chunks() : split(part)) {
      if (stopped()) return;
      yield piece;
    }
  }
}
