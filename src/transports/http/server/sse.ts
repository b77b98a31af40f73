import { isStreamedBody } from '../../../content/streamed-body.js';
import type { JSONRPCMessage } from '../../../protocol/jsonrpc.js';
import type { MessagePart } from '../../../content/encode-message.js';
import { encodeForSend } from '../../oversize.js';
import type { SseSink } from './exchange.js';

const EVENT_HEAD = 'event: message\ndata: ';
const EVENT_TAIL = '\n\n';
/** What the SSE framing of one message adds to its JSON. */
export const SSE_FRAME_BYTES = EVENT_HEAD.length + EVENT_TAIL.length;

/**
 * One SSE event carrying a message the server sends on its own (a notification, a request to
 * the client), as parts to write; undefined when it is dropped because, framing included, it
 * would pass `maxResponseBytes` or cannot be encoded (reported).
 */
export function sseEvent(
  message: JSONRPCMessage,
  maxResponseBytes: number,
  report: (text: string) => void,
): Array<string | Uint8Array> | undefined {
  const encoded = encodeForSend(message, maxResponseBytes - SSE_FRAME_BYTES, report);
  // Without `streams`, encodeForSend never leaves a streamed part in.
  return encoded && [EVENT_HEAD, ...(encoded.parts as Array<string | Uint8Array>), EVENT_TAIL];
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

export const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
};

/** What `stream()` returns once the response was answered: writes go nowhere. */
export const DROPPED_SINK: SseSink = {
  write: () => true,
  end: () => undefined,
  abort: () => undefined,
  congested: false,
  bufferedBytes: 0,
  onDrain: (cb) => void setTimeout(cb, 0),
};

/**
 * Writes an SSE comment every `everyMs` so that proxies keep the stream open; returns the stop.
 * Skipped while the sink is congested: a client that is not reading needs no keep-alive, and
 * each one would grow the buffer.
 */
export function startKeepAlive(sink: SseSink, everyMs: number): () => void {
  if (everyMs <= 0) return () => undefined;
  const timer = setInterval(() => {
    if (!sink.congested) sink.write(': keep-alive\n\n');
  }, everyMs);
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}

/** Resolves once `sink` drained, or at once when the client went away (no drain comes then). */
function drainedOrGone(sink: SseSink, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    sink.onDrain(done);
  });
}

/**
 * Writes one encoded message as an SSE event; a streamed part (base64: no line break in the data
 * line) a chunk at a time, waiting while the sink is congested. False when it was cut: the client
 * went away (the iteration stops, closing the source), or the body failed (reported once, the
 * stream aborted so that the client never dispatches a wrong event).
 */
export async function writeSseMessage(
  sink: SseSink,
  parts: readonly MessagePart[],
  signal: () => AbortSignal,
  report: (text: string) => void,
): Promise<boolean> {
  sink.write(EVENT_HEAD);
  for (const part of parts) {
    if (!isStreamedBody(part)) {
      sink.write(part);
      continue;
    }
    try {
      for await (const chunk of part.chunks()) {
        if (signal().aborted) return false;
        if (!sink.write(chunk)) await drainedOrGone(sink, signal());
      }
    } catch (error) {
      report(`mcpkit: cut a streamed answer mid-body: ${(error as Error).message}`);
      if (sink.abort) sink.abort();
      else sink.end();
      return false;
    }
  }
  sink.write(EVENT_TAIL);
  return true;
}
