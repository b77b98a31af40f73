/** Writes a response's parts to node:http when one is streamed: in order, with backpressure. */
import type { ServerResponse } from 'node:http';
import { isStreamedBody } from '../content/streamed-body.js';
import type { MessagePart } from './oversize.js';

/**
 * Writes `parts` (the head already sent, with their exact Content-Length) and ends the
 * response. A streamed part is iterated one chunk at a time, waiting for 'drain' whenever the
 * socket is behind, so that memory holds a few chunks, never the body. If the body fails
 * (its file changed, a short read) the response is destroyed: the client sees a cut body,
 * shorter than its Content-Length, never a complete-looking wrong answer; `report` says so
 * once. A client that goes away stops the iteration, which closes the source. Never rejects,
 * and leaves no listener behind.
 */
export async function writeParts(
  res: ServerResponse,
  parts: readonly MessagePart[],
  report: (text: string) => void,
): Promise<void> {
  let closed = res.destroyed;
  let wake: (() => void) | undefined;
  const onClose = (): void => {
    closed = true;
    wake?.();
  };
  const onDrain = (): void => wake?.();
  res.on('close', onClose);
  res.on('drain', onDrain);
  const drained = (): Promise<void> | undefined =>
    closed || !res.writableNeedDrain
      ? undefined
      : new Promise<void>((resolve) => {
          wake = () => {
            wake = undefined;
            resolve();
          };
        });
  try {
    for (const part of parts) {
      if (closed) return;
      if (!isStreamedBody(part)) {
        if (!res.write(part)) await drained();
        continue;
      }
      // Leaving the loop early (the client went away) closes the body's source.
      for await (const chunk of part.chunks()) {
        if (closed) return;
        if (!res.write(chunk)) await drained();
      }
    }
    if (!closed) res.end();
  } catch (error) {
    report(`mcpkit: cut a streamed answer mid-body: ${(error as Error).message}`);
    res.destroy();
  } finally {
    res.off('close', onClose);
    res.off('drain', onDrain);
  }
}
