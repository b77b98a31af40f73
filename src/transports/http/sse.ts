import type { JSONRPCMessage } from '../../protocol/jsonrpc.js';
import type { SseSink } from './exchange.js';

/** One SSE event carrying a JSON-RPC message. */
export function sseEvent(message: JSONRPCMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
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
