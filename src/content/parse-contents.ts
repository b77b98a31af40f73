/** Parsing of `TextResourceContents | BlobResourceContents` (embedded or from resources/read). */
import type { ResourceContents } from '../protocol/types.js';
import { describe, fail, isPlainObject, mimeTypeProblem, uriFieldProblem } from './checks.js';
import { ParseContext } from './parse-context.js';

const KNOWN = ['uri', 'mimeType', 'text', 'blob', '_meta', 'annotations'] as const;

/**
 * Checks one contents object and returns an ordered copy (`uri, mimeType, text|blob, _meta`, then
 * extras) plus any `annotations` found inside it, which the caller places or rejects.
 * @internal
 */
export function readContents(
  value: unknown,
  path: string,
  ctx: ParseContext,
): { contents: ResourceContents; nested: unknown } {
  if (!isPlainObject(value)) fail(path, `must be an object, got ${describe(value)}`);
  const uriWhy = uriFieldProblem(value.uri);
  if (uriWhy !== undefined) fail(`${path}.uri`, uriWhy);
  let useText = value.text !== undefined;
  const hasBlob = value.blob !== undefined;
  if (!useText && !hasBlob) fail(path, 'needs a "text" or a "blob" field');
  if (useText && hasBlob) {
    useText = typeof value.text === 'string';
    ctx.fix(path, 'has both "text" and "blob"', `kept "${useText ? 'text' : 'blob'}"`);
  }
  const out: Record<string, unknown> = { uri: value.uri };
  if (useText) {
    if (typeof value.text !== 'string')
      fail(`${path}.text`, `must be a string, got ${describe(value.text)}`);
    if (value.mimeType !== undefined) {
      const why = mimeTypeProblem(value.mimeType);
      if (why === undefined) out.mimeType = value.mimeType;
      else ctx.fix(`${path}.mimeType`, why, 'dropped');
    }
    out.text = value.text;
  } else {
    const blob = ctx.base64(value.blob, `${path}.blob`);
    ctx.blobMime(value.mimeType, out, blob, path);
    out.blob = blob;
  }
  ctx.meta(value, out, path);
  ctx.extras(value, out, KNOWN, path, 'resource contents');
  return { contents: out as unknown as ResourceContents, nested: value.annotations };
}

function standalone(value: unknown, path: string, ctx: ParseContext): ResourceContents {
  const { contents, nested } = readContents(value, path, ctx);
  if (nested !== undefined) {
    ctx.fix(`${path}.annotations`, 'is not a field of resource contents', 'dropped');
  }
  return contents;
}

/**
 * Strictly checks resource contents we are about to emit and returns an ordered shallow copy.
 * Rules: `uri` a valid URI; exactly one of `text` (a string) and `blob` (canonical base64); a blob
 * carries a well-formed `mimeType` (mcpkit always emits one); no `annotations` or unknown fields.
 * Throws McpKitError `INVALID_CONTENT` naming the field path.
 *
 * @example
 * parseResourceContents(read.contents[0], 'contents[0]');
 */
export function parseResourceContents(value: unknown, path = 'contents'): ResourceContents {
  return standalone(value, path, new ParseContext('strict'));
}

/**
 * Leniently reads received resource contents: repairs what it can with one warning each (a
 * missing blob `mimeType` is sniffed from the bytes, else `application/octet-stream`; fixable
 * base64 is re-encoded; stray annotations and bad optional fields are dropped), keeps unknown
 * fields, and throws `INVALID_CONTENT` only for what cannot be used (no uri, no text or blob,
 * a blob that is not base64). Async because sniffing is.
 */
export async function parseResourceContentsLenient(
  value: unknown,
  path = 'contents',
): Promise<{ contents: ResourceContents; warnings: string[] }> {
  const ctx = new ParseContext('lenient');
  const contents = standalone(value, path, ctx);
  await ctx.finish();
  return { contents, warnings: ctx.warnings };
}
