import type { ChangeEvent, InterestMessage } from './types.js';

/**
 * What travels on `<prefix>events`, as JSON, with exactly one of three fields besides `v` and
 * `from` (the publishing bus's instance id: an instance delivers its own messages when it
 * publishes them, and skips their echo):
 * - `event`: a change, `{ type: 'resource-updated', uri }` or `{ type: 'list-changed', list }`;
 * - `gap`: an instance could not publish some of its events; every other one ends its streams;
 * - `interest`: which URIs one server's listeners name, `{ type: 'attach' | 'refresh', from,
 *   uris, everyMs }`, `{ type: 'detach', from, uris }` or `{ type: 'query', from }` (`from` is
 *   the server's id). Best-effort; a big set goes out in several messages ({@link chunkInterest}).
 *   An instance older than interest ignores these (and logs that it did, a few times).
 */
export type BusMessage =
  | { from: string; event: ChangeEvent; gap?: undefined; interest?: undefined }
  | { from: string; gap: string; event?: undefined; interest?: undefined }
  | { from: string; interest: InterestMessage; event?: undefined; gap?: undefined };

export const BUS_WIRE_VERSION = 1;

/** Longest message read off the channel: anyone who can write to Redis can publish on it. */
export const MAX_BUS_MESSAGE_CHARS = 64 * 1024;

/** Most URIs one interest message carries. */
export const MAX_INTEREST_URIS = 256;

/** Longest URI an interest message carries; a longer one is not announced. */
export const MAX_INTEREST_URI_CHARS = 4096;

/** Longest server id in an interest message. */
export const MAX_INTEREST_ID_CHARS = 128;

/** The bounds of `interestRefreshMs` (ServerOptions), which `everyMs` carries. */
const MIN_EVERY_MS = 10;
const MAX_EVERY_MS = 86_400_000;

/** Room kept for the envelope around the URIs of one interest message. */
const ENVELOPE_CHARS = 1024;

const LISTS: ReadonlySet<string> = new Set(['tools', 'prompts', 'resources']);

/** Most characters of another instance's gap notice repeated here. */
export const MAX_GAP_SHOWN_CHARS = 512;

/**
 * C0, DEL, C1, format characters (bidi overrides, zero-width), line and paragraph separators and
 * lone surrogates: what drives a terminal or makes one text look like another.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\p{Cf}\u2028\u2029\ud800-\udfff]/gu;

/**
 * Another instance's gap notice as this one repeats it (in its log, which may be a terminal, and
 * in the error of every listen stream it ends): anyone who can publish on the channel writes
 * it, so it is cut to {@link MAX_GAP_SHOWN_CHARS} and every unsafe character is shown escaped.
 */
export function shownGap(text: string): string {
  const cut = text.length > MAX_GAP_SHOWN_CHARS ? `${text.slice(0, MAX_GAP_SHOWN_CHARS)}…` : text;
  return cut.replace(UNSAFE, (ch) => {
    const code = ch.codePointAt(0) as number;
    if (ch === '\n') return '\\n';
    if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
    if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
    return `\\u{${code.toString(16)}}`;
  });
}

export function encodeBusMessage(message: BusMessage): string {
  const { from } = message;
  if (message.event !== undefined)
    return JSON.stringify({ v: BUS_WIRE_VERSION, from, event: message.event });
  if (message.gap !== undefined)
    return JSON.stringify({ v: BUS_WIRE_VERSION, from, gap: message.gap });
  return JSON.stringify({ v: BUS_WIRE_VERSION, from, interest: message.interest });
}

/**
 * Splits an interest message into messages that each decode on the other side: at most
 * {@link MAX_INTEREST_URIS} URIs and {@link MAX_BUS_MESSAGE_CHARS} characters. URIs that can
 * never be carried (empty, or longer than {@link MAX_INTEREST_URI_CHARS}) are left out and
 * counted in `dropped`; a message left without URIs is not sent.
 */
export function chunkInterest(message: InterestMessage): {
  chunks: InterestMessage[];
  dropped: number;
} {
  if (message.type === 'query') return { chunks: [message], dropped: 0 };
  const budget = MAX_BUS_MESSAGE_CHARS - ENVELOPE_CHARS - JSON.stringify(message.from).length;
  const chunks: InterestMessage[] = [];
  let dropped = 0;
  let uris: string[] = [];
  let chars = 0;
  const cut = (): void => {
    if (uris.length > 0) chunks.push({ ...message, uris });
    uris = [];
    chars = 0;
  };
  for (const uri of message.uris) {
    if (uri.length === 0 || uri.length > MAX_INTEREST_URI_CHARS) {
      dropped++;
      continue;
    }
    const size = JSON.stringify(uri).length + 1;
    if (uris.length >= MAX_INTEREST_URIS || chars + size > budget) cut();
    uris.push(uri);
    chars += size;
  }
  cut();
  return { chunks, dropped };
}

/** The message, or undefined when the text is not one this version publishes. */
export function decodeBusMessage(text: string): BusMessage | undefined {
  if (text.length > MAX_BUS_MESSAGE_CHARS) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { v, from, event, gap, interest } = value as Record<string, unknown>;
  if (v !== BUS_WIRE_VERSION || typeof from !== 'string' || from.length === 0) return undefined;
  const present = [event, gap, interest].filter((field) => field !== undefined).length;
  if (present !== 1) return undefined;
  if (gap !== undefined) return typeof gap === 'string' ? { from, gap } : undefined;
  if (interest !== undefined) {
    const parsed = parseInterest(interest);
    return parsed && { from, interest: parsed };
  }
  const parsed = parseEvent(event);
  return parsed && { from, event: parsed };
}

function parseEvent(value: unknown): ChangeEvent | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, uri, list } = value as Record<string, unknown>;
  if (type === 'resource-updated' && typeof uri === 'string' && uri.length > 0)
    return { type, uri };
  if (type === 'list-changed' && typeof list === 'string' && LISTS.has(list))
    return { type, list: list as 'tools' | 'prompts' | 'resources' };
  return undefined;
}

function parseInterest(value: unknown): InterestMessage | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { type, from, uris, everyMs } = value as Record<string, unknown>;
  if (typeof from !== 'string' || from.length === 0 || from.length > MAX_INTEREST_ID_CHARS)
    return undefined;
  if (type === 'query')
    return uris === undefined && everyMs === undefined ? { type, from } : undefined;
  const list = parseUris(uris);
  if (list === undefined) return undefined;
  if (type === 'detach') return everyMs === undefined ? { type, from, uris: list } : undefined;
  if (type !== 'attach' && type !== 'refresh') return undefined;
  if (!Number.isSafeInteger(everyMs)) return undefined;
  const every = everyMs as number;
  if (every < MIN_EVERY_MS || every > MAX_EVERY_MS) return undefined;
  return { type, from, uris: list, everyMs: every };
}

/** 1 to MAX_INTEREST_URIS strings, each 1 to MAX_INTEREST_URI_CHARS long; else undefined. */
function parseUris(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_INTEREST_URIS)
    return undefined;
  for (const uri of value) {
    if (typeof uri !== 'string' || uri.length === 0 || uri.length > MAX_INTEREST_URI_CHARS)
      return undefined;
  }
  return value as string[];
}
