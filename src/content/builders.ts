/** Builders of spec content blocks and resource contents. */
import type {
  AudioContent,
  BlobResourceContents,
  EmbeddedResource,
  Icon,
  ImageContent,
  ResourceLink,
  TextContent,
  TextResourceContents,
} from '../protocol/types.js';
import { annotations, type AnnotationsInput } from './annotations.js';
import { encodeBase64 } from './blob.js';
import {
  base64FieldProblem,
  describe,
  fail,
  iconProblems,
  isPlainObject,
  metaProblem,
  mimeTypeProblem,
  sizeProblem,
  stringProblem,
  uriFieldProblem,
} from './checks.js';
import { readContents } from './parse-contents.js';
import { ParseContext } from './parse-context.js';
import { DEFAULT_TEXT_MIME } from './mime.js';

/** Optional fields every content block builder takes. */
export interface BlockOptions {
  annotations?: AnnotationsInput | undefined;
  _meta?: Record<string, unknown> | undefined;
}

/** Fields of `resourceLink()`: a spec `Resource` whose annotations may use a `Date`. */
export interface ResourceLinkInput {
  uri: string;
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  mimeType?: string | undefined;
  /** Raw bytes (before any base64). */
  size?: number | undefined;
  icons?: Icon[] | undefined;
  annotations?: AnnotationsInput | undefined;
  _meta?: Record<string, unknown> | undefined;
}

function check(path: string, why: string | undefined): void {
  if (why !== undefined) fail(path, why);
}

/** Appends annotations (when not empty) and `_meta` in spec order. */
function withOptions<T extends object>(
  block: T,
  options: BlockOptions | undefined,
  path: string,
): T {
  if (options === undefined) return block;
  if (!isPlainObject(options)) fail(path, `options must be an object, got ${describe(options)}`);
  const out = block as Record<string, unknown>;
  for (const key of Object.keys(options)) {
    if (key !== 'annotations' && key !== '_meta') fail(`${path}.${key}`, 'is not a content option');
  }
  const { annotations: input, _meta } = options as BlockOptions;
  if (input !== undefined) {
    const a = annotations(input, `${path}.annotations`);
    if (Object.keys(a).length > 0) out.annotations = a;
  }
  if (_meta !== undefined) {
    check(`${path}._meta`, metaProblem(_meta));
    out._meta = _meta;
  }
  return block;
}

function base64Of(data: Uint8Array | string, path: string): string {
  if (data instanceof Uint8Array) return encodeBase64(data);
  check(path, base64FieldProblem(data));
  return data;
}

/**
 * A text block: `{ type: 'text', text, annotations?, _meta? }`.
 *
 * @example
 * text('Build passed', { annotations: { audience: ['user'] } });
 */
export function text(text: string, options?: BlockOptions): TextContent {
  check('text.text', stringProblem(text));
  return withOptions({ type: 'text', text }, options, 'text');
}

function media<T extends 'image' | 'audio'>(
  type: T,
  data: Uint8Array | string,
  mimeType: string,
  options: BlockOptions | undefined,
): { type: T; data: string; mimeType: string } {
  const b64 = base64Of(data, `${type}.data`);
  check(
    `${type}.mimeType`,
    mimeType === undefined ? 'is required' : mimeTypeProblem(mimeType, type),
  );
  return withOptions({ type, data: b64, mimeType }, options, type);
}

/** An image block from bytes (base64-encoded here) or canonical base64; mimeType must be image/*. */
export function image(
  data: Uint8Array | string,
  mimeType: string,
  options?: BlockOptions,
): ImageContent {
  return media('image', data, mimeType, options);
}

/** An audio block from bytes (base64-encoded here) or canonical base64; mimeType must be audio/*. */
export function audio(
  data: Uint8Array | string,
  mimeType: string,
  options?: BlockOptions,
): AudioContent {
  return media('audio', data, mimeType, options);
}

/**
 * An embedded resource: `{ type: 'resource', resource, annotations?, _meta? }`. Annotations go at
 * the top level beside `resource` (never inside it); contents are checked strictly (a blob needs a
 * mimeType).
 *
 * @example
 * embeddedResource(textContents('file:///a.md', '# A', 'text/markdown'), { annotations: { priority: 1 } });
 */
export function embeddedResource(
  contents: TextResourceContents | BlobResourceContents,
  options?: BlockOptions,
): EmbeddedResource {
  const path = 'embeddedResource.resource';
  const { contents: resource, nested } = readContents(contents, path, new ParseContext('strict'));
  if (nested !== undefined) {
    fail(
      `${path}.annotations`,
      'is misplaced: pass annotations in options (they go beside "resource")',
    );
  }
  return withOptions({ type: 'resource', resource }, options, 'embeddedResource');
}

const LINK_FIELDS = new Set([
  'uri',
  'name',
  'title',
  'description',
  'mimeType',
  'size',
  'icons',
  'annotations',
  '_meta',
]);

/**
 * A resource link: `{ type: 'resource_link', uri, name, title?, description?, mimeType?, size?,
 * icons?, annotations?, _meta? }`. The URI must be valid, the name non-empty, size raw bytes.
 */
export function resourceLink(input: ResourceLinkInput): ResourceLink {
  if (!isPlainObject(input)) fail('resourceLink', `needs an object, got ${describe(input)}`);
  for (const key of Object.keys(input)) {
    if (!LINK_FIELDS.has(key)) fail(`resourceLink.${key}`, 'is not a field of a resource link');
  }
  check('resourceLink.uri', uriFieldProblem(input.uri));
  check('resourceLink.name', stringProblem(input.name, true));
  const out: ResourceLink = { type: 'resource_link', uri: input.uri, name: input.name };
  if (input.title !== undefined) {
    check('resourceLink.title', stringProblem(input.title));
    out.title = input.title;
  }
  if (input.description !== undefined) {
    check('resourceLink.description', stringProblem(input.description));
    out.description = input.description;
  }
  if (input.mimeType !== undefined) {
    check('resourceLink.mimeType', mimeTypeProblem(input.mimeType));
    out.mimeType = input.mimeType;
  }
  if (input.size !== undefined) {
    check('resourceLink.size', sizeProblem(input.size));
    out.size = input.size;
  }
  if (input.icons !== undefined) {
    if (!Array.isArray(input.icons))
      fail('resourceLink.icons', `must be an array, got ${describe(input.icons)}`);
    input.icons.forEach((icon, i) => {
      const first = iconProblems(icon, `resourceLink.icons[${i}]`, true)[0];
      if (first !== undefined) fail(first[0], first[1]);
    });
    out.icons = [...input.icons];
  }
  return withOptions(out, { annotations: input.annotations, _meta: input._meta }, 'resourceLink');
}

function contentsShell(
  uri: string,
  mimeType: string,
  _meta: unknown,
  path: string,
): Record<string, unknown> {
  check(`${path}.uri`, uriFieldProblem(uri));
  check(`${path}.mimeType`, mimeType === undefined ? 'is required' : mimeTypeProblem(mimeType));
  if (_meta !== undefined) check(`${path}._meta`, metaProblem(_meta));
  return { uri, mimeType };
}

/** Text resource contents: `{ uri, mimeType, text, _meta? }` (mimeType defaults to text/plain). */
export function textContents(
  uri: string,
  text: string,
  mimeType: string = DEFAULT_TEXT_MIME,
  _meta?: Record<string, unknown>,
): TextResourceContents {
  const out = contentsShell(uri, mimeType, _meta, 'textContents');
  check('textContents.text', stringProblem(text));
  out.text = text;
  if (_meta !== undefined) out._meta = _meta;
  return out as unknown as TextResourceContents;
}

/**
 * Blob resource contents: `{ uri, mimeType, blob, _meta? }`. Bytes are base64-encoded here; a
 * string must already be canonical base64. The mimeType is required (see `resolveMimeType`).
 */
export function blobContents(
  uri: string,
  data: Uint8Array | string,
  mimeType: string,
  _meta?: Record<string, unknown>,
): BlobResourceContents {
  const out = contentsShell(uri, mimeType, _meta, 'blobContents');
  out.blob = base64Of(data, 'blobContents.blob');
  if (_meta !== undefined) out._meta = _meta;
  return out as unknown as BlobResourceContents;
}
