/**
 * The guard's error: an `McpKitError` (match on `code`) that also carries what it was about, so a
 * host can show the refused address and its reason without parsing the message.
 */
import { McpKitError, type McpKitErrorCode } from '../errors/index.js';

/** What a guard error was about. */
export interface GuardErrorDetails {
  /** The URL of the hop that failed (as given, or as a redirect resolved it). */
  url: string;
  /** The address refused, or the one connected to when the failure came later. */
  address?: string;
  /** Why it was refused, in `classifyAddress`'s words (the name `localhost` is `'loopback'`). */
  reason?: string;
  /** The final HTTP status, for a non-2xx answer. */
  status?: number;
}

/**
 * Thrown by `guardedFetch` and a guard's `fetch`/`check`. `code` is one of `GUARD_BLOCKED`,
 * `GUARD_BAD_URL`, `GUARD_REDIRECT_LIMIT`, `GUARD_TOO_LARGE`, `GUARD_TIMEOUT`, `FETCH_FAILED`,
 * or `REQUEST_CANCELLED` (a signal aborted). A signal whose reason is an `McpKitError` rejects
 * with that reason instead.
 */
export class GuardError extends McpKitError {
  override readonly name: string = 'GuardError';
  readonly details: GuardErrorDetails;

  constructor(
    code: McpKitErrorCode,
    message: string,
    details: GuardErrorDetails,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.details = details;
  }
}

const MAX_SHOWN = 300;
// Marks that reorder or break text without showing: ALM, LRM, RLM, line and paragraph separators.
const INVISIBLE = new Set([0x061c, 0x200e, 0x200f, 0x2028, 0x2029]);

/**
 * A URL (or any untrusted string) quoted for an error message: controls, DEL, C1 and bidi
 * overrides escaped, so a hostile server's URL cannot rewrite a terminal; long ones shortened.
 */
export function quoted(value: string): string {
  const short = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
  let out = '"';
  for (const char of short) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0))
      out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (
      INVISIBLE.has(code) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069)
    )
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}
