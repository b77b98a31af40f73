/**
 * Lines on stderr about what a peer does (a refused token, an upstream's odd message): one line,
 * its control characters blanked and its length bounded, at most one per interval, with how many
 * more came since the last line, so that a peer repeating itself in a loop cannot flood the log.
 */

export const REJECTION_LINE_INTERVAL_MS = 10_000;
const MAX_REASON_CHARS = 300;

/** `format(text, more)` builds the line; `more` counts the reports skipped since the last one. */
export function rateLimitedLines(
  write: (line: string) => void,
  format: (text: string, more: number) => string,
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
    const more = skipped;
    skipped = 0;
    const text = reason.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, MAX_REASON_CHARS);
    write(format(text, more));
  };
}

/** `serve`'s reporter for `ResourceServerOptions.onRejected`: the reason only, never the token. */
export function rejectionReporter(
  write: (line: string) => void,
  intervalMs: number = REJECTION_LINE_INTERVAL_MS,
  now: () => number = Date.now,
): (reason: string) => void {
  return rateLimitedLines(
    write,
    (text, more) =>
      `auth: refused a bearer token: ${text}${more > 0 ? ` (${more} more refused since the last line)` : ''}`,
    intervalMs,
    now,
  );
}
