/**
 * `serve`'s line on stderr when a token is refused: the reason only (never the token), at most
 * one line per interval, with how many more were refused since the last line, so that a client
 * retrying in a loop cannot flood the log.
 */

export const REJECTION_LINE_INTERVAL_MS = 10_000;

/** A reporter for `ResourceServerOptions.onRejected`. */
export function rejectionReporter(
  write: (line: string) => void,
  intervalMs: number = REJECTION_LINE_INTERVAL_MS,
  now: () => number = Date.now,
): (reason: string) => void {
  let last = -Infinity;
  let skipped = 0;
  return (reason) => {
    const t = now();
    if (t - last < intervalMs) {
      skipped++;
      return;
    }
    last = t;
    const more = skipped > 0 ? ` (${skipped} more refused since the last line)` : '';
    skipped = 0;
    // One line, bounded: a reason may quote a URL or a library message.
    const text = reason.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, 300);
    write(`auth: refused a bearer token: ${text}${more}`);
  };
}
