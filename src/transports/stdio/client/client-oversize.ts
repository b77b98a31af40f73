import { isRequestId, type RequestId } from '../../../protocol/jsonrpc.js';

/** How much of a discarded line is kept to find what it was (`LineDecoder`'s `headBytes`). */
export const OVERSIZE_HEAD_BYTES = 4096;

/** What the first bytes of a discarded message tell about it. */
export interface OversizeHead {
  /** The top-level `"id"`, when it is a string or a safe integer complete within the head. */
  id?: RequestId;
  /** A top-level `"method"` key was seen: a server request or notification, not an answer. */
  method: boolean;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const INTEGER = /^-?(?:0|[1-9]\d*)/;

/**
 * Reads the top-level `"id"` and whether there is a `"method"` from a JSON object's prefix (the
 * rest of the line was discarded, so it cannot be parsed whole). Only keys at depth 1 count: an
 * `"id"` inside `params` or `result` names something else.
 *
 * @example
 * scanOversizeHead('{"jsonrpc":"2.0","result":{"id":7},"id":3,"x":"…'); // { id: 3, method: false }
 */
export function scanOversizeHead(head: string): OversizeHead {
  const found: OversizeHead = { method: false };
  let i = skipSpace(head, 0);
  if (head[i] !== '{') return found;
  let depth = 0;
  for (; i < head.length; i++) {
    const ch = head[i];
    if (ch === '"') {
      const end = stringEnd(head, i);
      if (end < 0) break;
      if (depth === 1) {
        const colon = skipSpace(head, end + 1);
        // A string at depth 1 followed by ':' is a key.
        if (head[colon] === ':') {
          const key = head.slice(i + 1, end);
          if (key === 'method') found.method = true;
          else if (key === 'id' && found.id === undefined) {
            const id = valueAt(head, skipSpace(head, colon + 1));
            if (id !== undefined) found.id = id;
          }
        }
      }
      i = end;
    } else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
  }
  return found;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && WHITESPACE.has(text[i] as string)) i++;
  return i;
}

/** The index of the quote closing the string that opens at `start`, or -1 when cut off. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x5c) i++;
    else if (ch === 0x22) return i;
  }
  return -1;
}

/** A request id that starts at `at` and ends within the text, or undefined. */
function valueAt(text: string, at: number): RequestId | undefined {
  if (text[at] === '"') {
    const end = stringEnd(text, at);
    if (end < 0) return undefined;
    try {
      const value: unknown = JSON.parse(text.slice(at, end + 1));
      return typeof value === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  }
  const match = INTEGER.exec(text.slice(at, at + 24));
  if (!match) return undefined;
  const next = text[at + match[0].length];
  // The number must be complete (not cut by the head's end) and an integer (no '.', 'e').
  if (next === undefined || !(next === ',' || next === '}' || WHITESPACE.has(next))) {
    return undefined;
  }
  const value = Number(match[0]);
  return isRequestId(value) ? value : undefined;
}
