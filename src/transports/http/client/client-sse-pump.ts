import type { HttpAnswer } from './client-requester.js';
import type { SseDecoder, SseEvent } from './client-sse-reader.js';

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
  body: HttpAnswer,
  decoder: SseDecoder,
  onEvent: (event: SseEvent) => boolean,
): Promise<PumpEnd> {
  let end: PumpEnd | undefined;
  while (end === undefined) {
    let chunk: Uint8Array | undefined;
    try {
      chunk = await body.read();
    } catch (cause) {
      return { kind: 'broken', cause };
    }
    if (chunk === undefined) return { kind: 'ended' };
    for (const event of decoder.push(chunk)) {
      if (onEvent(event)) {
        end = { kind: 'stopped' };
        break;
      }
    }
    if (end === undefined && decoder.overflowed) end = { kind: 'too-large' };
  }
  await body.cancel();
  return end;
}
