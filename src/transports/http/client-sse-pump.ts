import type { SseDecoder, SseEvent } from './client-sse-reader.js';

type ReadResult = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

/** How reading one SSE body ended. */
export type PumpEnd =
  /** The server ended the body. */
  | { kind: 'ended' }
  /** Reading failed: the connection broke, or the fetch was aborted. */
  | { kind: 'broken'; cause: unknown }
  /** `onEvent` asked to stop (its answer came); the body is cancelled. */
  | { kind: 'stopped' }
  /** An event passed the decoder's cap; the body is cancelled, nothing more buffered. */
  | { kind: 'too-large' };

/**
 * Reads an SSE body as it arrives, handing each event to `onEvent` (true: stop reading). Never
 * rejects; whatever ends the body is in the result.
 */
export async function pumpSse(
  body: ReadableStream<Uint8Array> | null,
  decoder: SseDecoder,
  onEvent: (event: SseEvent) => boolean,
): Promise<PumpEnd> {
  if (!body) return { kind: 'ended' };
  const reader = body.getReader();
  let end: PumpEnd | undefined;
  try {
    while (end === undefined) {
      let chunk: ReadResult;
      try {
        chunk = await reader.read();
      } catch (cause) {
        return { kind: 'broken', cause };
      }
      if (chunk.done) return { kind: 'ended' };
      for (const event of decoder.push(chunk.value)) {
        if (onEvent(event)) {
          end = { kind: 'stopped' };
          break;
        }
      }
      if (end === undefined && decoder.overflowed) end = { kind: 'too-large' };
    }
    await reader.cancel().catch(() => undefined);
    return end;
  } finally {
    reader.releaseLock();
  }
}
