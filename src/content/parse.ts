/**
 * Content-block parsing in two modes.
 * - Strict (`parseContentBlock`, sync): for what we emit. Any violation throws McpKitError
 *   `INVALID_CONTENT` whose message starts with the full field path, e.g.
 *   `content[2].resource.blob is not canonical base64 at offset 17 (...)`.
 * - Lenient (`parseContentBlockLenient`, async): for what we receive. Repairs with one warning
 *   each, keeps unknown fields, throws only for what cannot be used.
 */
import type { ContentBlock } from '../protocol/types.js';
import {
  describe,
  fail,
  iconProblems,
  isPlainObject,
  mimeTypeProblem,
  sizeProblem,
  stringProblem,
  uriFieldProblem,
} from './checks.js';
import { readContents } from './parse-contents.js';
import { ParseContext } from './parse-context.js';

const COMMON = ['type', 'annotations', '_meta'] as const;
const KNOWN = {
  text: [...COMMON, 'text'],
  image: [...COMMON, 'data', 'mimeType'],
  audio: [...COMMON, 'data', 'mimeType'],
  resource: [...COMMON, 'resource'],
  resource_link: [
    ...COMMON,
    ...['uri', 'name', 'title', 'description', 'mimeType', 'size', 'icons'],
  ],
} as const;
type BlockType = keyof typeof KNOWN;

function isBlockType(value: unknown): value is BlockType {
  return typeof value === 'string' && Object.hasOwn(KNOWN, value);
}

function readBlock(value: unknown, path: string, ctx: ParseContext): ContentBlock {
  if (!isPlainObject(value)) fail(path, `must be a content block object, got ${describe(value)}`);
  const type = value.type;
  if (!isBlockType(type)) {
    fail(`${path}.type`, `must be one of ${Object.keys(KNOWN).join(', ')}; got ${describe(type)}`);
  }
  const out: Record<string, unknown> = { type };
  let annotations = value.annotations;
  switch (type) {
    case 'text':
      if (typeof value.text !== 'string')
        fail(`${path}.text`, `must be a string, got ${describe(value.text)}`);
      out.text = value.text;
      break;
    case 'image':
    case 'audio': {
      out.data = ctx.base64(value.data, `${path}.data`);
      ctx.blobMime(value.mimeType, out, out.data as string, path, type);
      break;
    }
    case 'resource_link':
      readLink(value, out, path, ctx);
      break;
    case 'resource': {
      const { contents, nested } = readContents(value.resource, `${path}.resource`, ctx);
      out.resource = contents;
      if (nested !== undefined) {
        const at = `${path}.resource.annotations`;
        const where = `annotations belong at the top level of an embedded resource (${path}.annotations)`;
        if (annotations === undefined) {
          ctx.fix(at, `is misplaced: ${where}`, `moved to ${path}.annotations`);
          annotations = nested;
        } else {
          ctx.fix(at, `is misplaced: ${where}`, `dropped (${path}.annotations is kept)`);
        }
      }
      break;
    }
  }
  ctx.annotations(annotations, out, `${path}.annotations`);
  ctx.meta(value, out, path);
  const article = type === 'image' || type === 'audio' ? 'an' : 'a';
  ctx.extras(value, out, KNOWN[type], path, `${article} ${type} block`);
  return out as unknown as ContentBlock;
}

function readLink(
  value: Record<string, unknown>,
  out: Record<string, unknown>,
  path: string,
  ctx: ParseContext,
): void {
  const uriWhy = uriFieldProblem(value.uri);
  if (uriWhy !== undefined) fail(`${path}.uri`, uriWhy);
  out.uri = value.uri;
  const nameWhy = stringProblem(value.name, true);
  if (nameWhy === undefined) out.name = value.name;
  else {
    ctx.fix(`${path}.name`, nameWhy, 'set to the URI');
    out.name = value.uri;
  }
  const optional: [string, (v: unknown) => string | undefined][] = [
    ['title', (v) => stringProblem(v)],
    ['description', (v) => stringProblem(v)],
    ['mimeType', (v) => mimeTypeProblem(v)],
    ['size', sizeProblem],
  ];
  for (const [key, check] of optional) {
    if (value[key] === undefined) continue;
    const why = check(value[key]);
    if (why === undefined) out[key] = value[key];
    else ctx.fix(`${path}.${key}`, why, 'dropped');
  }
  if (value.icons === undefined) return;
  if (!Array.isArray(value.icons)) {
    ctx.fix(`${path}.icons`, `must be an array, got ${describe(value.icons)}`, 'dropped');
    return;
  }
  const icons: unknown[] = [];
  value.icons.forEach((icon: unknown, i) => {
    const problems = iconProblems(icon, `${path}.icons[${i}]`, ctx.strict);
    for (const [at, message] of problems) ctx.fix(at, message, `dropped ${path}.icons[${i}]`);
    if (problems.length === 0) icons.push(icon);
  });
  out.icons = icons;
}

/**
 * Strictly checks a content block we are about to emit; returns an ordered shallow copy (big
 * strings are shared, not copied). Beyond the schema it requires canonical base64, valid URIs, an
 * `image/*` or `audio/*` mimeType on media, a mimeType on blobs, annotations at the top level of
 * an embedded resource, and no unknown fields. Throws McpKitError `INVALID_CONTENT`.
 *
 * @example
 * result.content.forEach((block, i) => parseContentBlock(block, `content[${i}]`));
 */
export function parseContentBlock(value: unknown, path = 'content'): ContentBlock {
  return readBlock(value, path, new ParseContext('strict'));
}

/** Strictly checks an array of content blocks (`content[i]` paths); see `parseContentBlock`. */
export function parseContentBlocks(value: unknown, path = 'content'): ContentBlock[] {
  if (!Array.isArray(value))
    fail(path, `must be an array of content blocks, got ${describe(value)}`);
  const ctx = new ParseContext('strict');
  return value.map((block: unknown, i) => readBlock(block, `${path}[${i}]`, ctx));
}

/**
 * Leniently reads a content block we received. Repairs, one warning string each: a missing or
 * malformed image/audio/blob `mimeType` is sniffed from the decoded bytes (else
 * `application/octet-stream`); annotations nested inside `resource` move to the top level; fixable
 * base64 (line breaks, URL-safe alphabet, padding) is re-encoded; bad optional fields are dropped.
 * Unknown fields are kept. Throws `INVALID_CONTENT` for what cannot be used: an unknown `type`, a
 * missing or invalid uri, missing text/data/blob, a blob that is not base64.
 * Async because sniffing is; to tolerate bad blocks in an array, map over it and catch per block.
 *
 * @example
 * const { block, warnings } = await parseContentBlockLenient(received, 'content[0]');
 */
export async function parseContentBlockLenient(
  value: unknown,
  path = 'content',
): Promise<{ block: ContentBlock; warnings: string[] }> {
  const ctx = new ParseContext('lenient');
  const block = readBlock(value, path, ctx);
  await ctx.finish();
  return { block, warnings: ctx.warnings };
}
