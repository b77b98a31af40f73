/**
 * Resource contents as bytes, checked: lenient about a missing `mimeType` (inferred, with a
 * warning), strict about base64 (a blob that is not canonical base64 is an error, not repaired).
 */
import {
  DEFAULT_BINARY_MIME,
  DEFAULT_TEXT_MIME,
  decodeBase64,
  sniffMime,
} from '../content/index.js';
import { findBase64Problem, uriProblem } from '../protocol/index.js';
import type { DecodedContents } from './types.js';

export type Decoded = { contents: DecodedContents } | { error: string; warnings: string[] };

const utf8 = new TextEncoder();
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const brief = (value: unknown): string => {
  const s = JSON.stringify(value) ?? String(value);
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
};

export async function decodeContents(value: unknown, path: string): Promise<Decoded> {
  const warnings: string[] = [];
  if (!isObj(value)) return { error: `${path} is not an object`, warnings };
  const uri = value['uri'];
  if (typeof uri !== 'string') return { error: `${path}.uri is not a string`, warnings };
  const bad = uriProblem(uri);
  if (bad !== undefined)
    return { error: `${path}.uri is not a valid URI (${bad}): ${brief(uri)}`, warnings };
  const declared =
    typeof value['mimeType'] === 'string' && value['mimeType'] !== ''
      ? value['mimeType']
      : undefined;
  if (typeof value['text'] === 'string') {
    const text = value['text'];
    const bytes = utf8.encode(text);
    if (declared === undefined)
      warnings.push(`${path} has no mimeType; ${DEFAULT_TEXT_MIME} assumed`);
    return {
      contents: {
        uri,
        mimeType: declared ?? DEFAULT_TEXT_MIME,
        text,
        bytes,
        size: bytes.length,
        warnings,
      },
    };
  }
  const blob = value['blob'];
  if (typeof blob !== 'string')
    return { error: `${path} has neither a text nor a blob string`, warnings };
  const problem = findBase64Problem(blob);
  if (problem !== undefined) {
    return {
      error: `INVALID_BASE64: ${path}.blob is not canonical base64 at offset ${problem.offset} (${problem.reason})`,
      warnings,
    };
  }
  const bytes = decodeBase64(blob);
  let mimeType = declared;
  if (mimeType === undefined) {
    const sniffed = await sniffMime(bytes);
    mimeType = sniffed ?? DEFAULT_BINARY_MIME;
    warnings.push(
      `${path} is a blob without mimeType; ${sniffed ? `sniffed as ${sniffed}` : `${DEFAULT_BINARY_MIME} assumed`}`,
    );
  }
  return { contents: { uri, mimeType, bytes, size: bytes.length, warnings } };
}
