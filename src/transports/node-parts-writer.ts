/** Writes a response's parts to node:http when one is streamed or large: in order, with backpressure. */
import type { ServerResponse } from 'node:http';
import type { MessagePart } from '../content/encode-message.js';
import { partPieces } from './http/server/exchange.js';

/**
 * Largest piece of a string or byte part handed to the socket at once: the bytes are in memory
 * already, a slice only lets a client that takes nothing be seen (each slice waits for 'drain').
 */
const SLICE_BYTES = 256 * 1024;

/** How a response is written besides its parts. */
export interface WriteLimits {
  /**
   * A response whose client takes nothing for this long is cut and its connection closed (0 or
   * undefined: never). Each write the socket takes, or a 'drain', starts the wait again.
   */
  readonly stallMs?: number | undefined;
  /** Called once the client took the whole response, or the response was cut. */
  readonly done?: (() => void) | undefined;
}

/**
 * Writes `parts` (the head already sent, with their exact Content-Length) and ends the response:
 * a streamed part a chunk at a time, a large one a slice at a time, waiting for 'drain' so that
 * memory holds a few chunks, never the body. A body that fails (its file changed, a short read)
 * or a client that takes nothing for `limits.stallMs` gets the response destroyed, reported once:
 * a cut body, never a complete-looking wrong answer. A client that goes away stops the iteration
 * (closing the source). Never rejects, and leaves no listener behind.
 */
export async function writeParts(
  res: ServerResponse,
  parts: readonly MessagePart[],
  report: (text: string) => void,
  limits: WriteLimits = {},
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
  const stall = stallWatch(res, limits.stallMs, report);
  const drained = (): Promise<void> | undefined =>
    closed || !res.writableNeedDrain
      ? undefined
      : new Promise<void>((resolve) => {
          stall.arm();
          wake = () => {
            wake = undefined;
            stall.disarm();
            resolve();
          };
        });
  try {
    for await (const piece of partPieces(parts, slices, () => closed))
      if (!res.write(piece)) await drained();
    if (!closed) {
      res.end();
      // What the socket still holds is at most a window: a client that takes none of it in
      // stallMs is dropped too.
      if (!res.writableFinished) {
        stall.arm();
        res.once('finish', stall.disarm);
      }
    }
  } catch (error) {
    report(`mcpkit: cut a streamed answer mid-body: ${(error as Error).message}`);
    res.destroy();
  } finally {
    if (!res.writableEnded || res.writableFinished) stall.disarm();
    res.off('close', onClose);
    res.off('drain', onDrain);
    if (limits.done) {
      if (res.writableFinished || res.destroyed) limits.done();
      else res.once('close', limits.done);
    }
  }
}

/** A string or byte part in pieces of at most {@link SLICE_BYTES} (a string: of characters). */
function* slices(part: string | Uint8Array): Generator<string | Uint8Array> {
  if (part.length <= SLICE_BYTES) {
    yield part;
    return;
  }
  if (typeof part !== 'string') {
    for (let at = 0; at < part.length; at += SLICE_BYTES) yield part.subarray(at, at + SLICE_BYTES);
    return;
  }
  for (let at = 0; at < part.length;) {
    let end = Math.min(part.length, at + SLICE_BYTES);
    // Never between the two halves of a surrogate pair: each slice is encoded on its own.
    const last = part.charCodeAt(end - 1);
    if (end < part.length && last >= 0xd800 && last <= 0xdbff) end++;
    yield part.slice(at, end);
    at = end;
  }
}

/** Cuts `res` once a wait for 'drain' lasts `stallMs` (none when 0 or undefined). */
function stallWatch(
  res: ServerResponse,
  stallMs: number | undefined,
  report: (text: string) => void,
): { arm(): void; disarm(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const disarm = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  if (stallMs === undefined || stallMs <= 0) return { arm: () => undefined, disarm };
  return {
    arm: () => {
      disarm();
      timer = setTimeout(() => {
        timer = undefined;
        report(
          `mcpkit: dropped a connection that took nothing of its answer for ${stallMs} ms ` +
            `(writeTimeoutMs, --write-timeout); ${res.writableLength} bytes were waiting`,
        );
        res.destroy();
      }, stallMs);
      timer.unref?.();
    },
    disarm,
  };
}
