/** Request bodies read from a node:http request within the endpoint's limits. */
import type { IncomingMessage } from 'node:http';
import { BodyTally, TIMED_OUT, type BodyLimits, type BodyOutcome } from './body-limits.js';
import { StallWatch } from './stall-watch.js';

/**
 * Reads a request body within `limits` (see http/body-limits.ts): its outcome, or rejected with
 * the error that ended it. Its share of the budget is released on every way out: end, refusal,
 * stall, error, or the client going away.
 */
export function readNodeBody(req: IncomingMessage, limits: BodyLimits): Promise<BodyOutcome> {
  return new Promise((resolve, reject) => {
    const length = req.headers['content-length'];
    const tally = new BodyTally(limits);
    const refused = tally.declare(length);
    if (refused) {
      tally.release();
      // Discarded as it arrives, never buffered; the answer closes the connection.
      req.resume();
      return resolve(refused);
    }
    const stalls = (limits.stalls ??= new StallWatch(limits.idleMs));
    // A large declared body is copied into one buffer of its size: the socket's 64 KiB chunks
    // are then short-lived, and memory held by stalled bodies goes back when they end.
    const declared = Number(length);
    let whole = declared >= ONE_BUFFER_BYTES ? Buffer.allocUnsafeSlow(declared) : undefined;
    let filled = 0;
    let parts: Buffer[] = [];
    let settled = false;
    // Settles once; whatever still arrives afterwards is discarded, not buffered.
    const settle = (outcome: BodyOutcome | Error | typeof DONE): void => {
      if (settled) return;
      settled = true;
      tally.release();
      watched.stop();
      const text =
        outcome !== DONE
          ? undefined
          : whole
            ? whole.toString('utf8', 0, filled)
            : (parts.length === 1
                ? (parts[0] as Buffer)
                : Buffer.concat(parts, tally.bytes)
              ).toString('utf8');
      parts = [];
      whole = undefined;
      if (text !== undefined) return resolve(text);
      req.resume();
      if (outcome instanceof Error) reject(outcome);
      else if (outcome !== DONE) resolve(outcome);
    };
    const watched = stalls.watch(() => settle(TIMED_OUT));
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      const over = tally.add(chunk.length);
      if (over) return settle(over);
      if (whole && filled + chunk.length <= whole.length) {
        chunk.copy(whole, filled);
        filled += chunk.length;
      } else {
        // More than declared (no conforming client sends it): keep everything, in order.
        if (whole) parts = [whole.subarray(0, filled)];
        whole = undefined;
        parts.push(chunk);
      }
      stalls.progress(watched);
    });
    // `on`, not `once`: settle is idempotent, and a listener stays for an 'error' emitted twice.
    req.on('end', () => settle(DONE));
    req.on('error', (error: Error) => settle(error));
    // 'close' follows every request; only before the end is it the client going away (and an
    // Error, with its stack, is made only then).
    req.on('close', () => {
      if (!settled) settle(new Error('the client went away before its body ended'));
    });
  });
}

/** Declared bodies at least this large are read into one buffer (see readNodeBody). */
const ONE_BUFFER_BYTES = 256 * 1024;

/** What `settle` gets when the body ended: its text is then the answer. */
const DONE = Symbol('body ended');
