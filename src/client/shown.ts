/**
 * A server-chosen value as our own messages quote it: JSON (strings quoted, control characters
 * escaped), with the C1, line-separator and bidi-override characters escaped too, and cut at
 * `max`. A warning printed to a terminal must not let a server move the cursor or reorder text.
 */
const UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function shown(value: unknown, max = 120): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut.replace(UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
