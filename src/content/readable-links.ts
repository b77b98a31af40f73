/**
 * `read_resource` and `list_resources`: two tools that let a model in a host that never reads
 * resources itself (tool-only hosts) follow the links it is given. Used by `mcpkit bridge` over
 * its upstream, and by `readableLinks: true` over a server's own resources.
 */
import { decodeBase64, encodeBase64 } from './blob.js';
import { isTextMimeType } from './mime.js';
import { PART_META_KEY } from './policy.js';
import type { CallToolResult, ReadResourceResult, Resource } from '../protocol/types.js';

type Obj = Record<string, unknown>;

/** The most bytes one `read_resource` call returns (4 MiB): a larger read asks for a range. */
export const DEFAULT_READ_TOOL_BYTES = 4 * 1024 * 1024;

export const READ_RESOURCE_DESCRIPTION =
  'Reads a resource by its URI (e.g. a resource_link the result gave). Returns one text block: ' +
  "exactly the resource's text, or the base64 of a binary resource. With offset and/or length " +
  '(in bytes), returns the base64 of that byte range of the resource (text as UTF-8).';
export const LIST_RESOURCES_DESCRIPTION =
  'Lists the resources the server offers (uri, name, mimeType, size), one page at a time; ' +
  'give the returned nextCursor as cursor for the next page, and query to keep only names and ' +
  'URIs that contain it (case-insensitive).';

export const READ_RESOURCE_INPUT = {
  type: 'object',
  properties: {
    uri: { type: 'string', minLength: 1, description: 'The resource URI.' },
    offset: { type: 'integer', minimum: 0, description: 'First byte of a range (default 0).' },
    length: {
      type: 'integer',
      minimum: 1,
      description: 'Bytes of the range (default: to the end).',
    },
  },
  required: ['uri'],
  additionalProperties: false,
} as const;

export const LIST_RESOURCES_INPUT = {
  type: 'object',
  properties: {
    cursor: { type: 'string', description: 'nextCursor of the previous page.' },
    query: { type: 'string', description: 'Keep resources whose name or URI contains this.' },
  },
  additionalProperties: false,
} as const;

export interface ReadToolSource {
  read(uri: string): Promise<ReadResourceResult>;
  list(cursor: string | undefined): Promise<{ resources: Resource[]; nextCursor?: string }>;
  /** Most bytes one call returns (default {@link DEFAULT_READ_TOOL_BYTES}). */
  maxBytes?: number;
}

interface PartMeta {
  offset: number;
  length: number;
  size: number;
  next?: string;
}

function failed(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function partOf(contents: Obj | undefined): PartMeta | undefined {
  const meta = contents?.['_meta'] as Obj | undefined;
  const part = meta?.[PART_META_KEY] as PartMeta | undefined;
  return typeof part?.size === 'number' && typeof part.offset === 'number' ? part : undefined;
}

function bytesOf(contents: Obj): Uint8Array {
  if (typeof contents['text'] === 'string') return new TextEncoder().encode(contents['text']);
  return decodeBase64(String(contents['blob'] ?? ''));
}

/** The contents entry of `uri` in a read's answer (its first one when none names it). */
function entryOf(result: ReadResourceResult, uri: string): Obj | undefined {
  const all = (result.contents ?? []) as unknown as Obj[];
  return all.find((c) => c['uri'] === uri) ?? all[0];
}

/** The URI of the part at `offset` of `length` bytes, built from a part URI the server gave. */
function partUri(template: string, offset: number, length: number): string | undefined {
  try {
    const url = new URL(template);
    url.searchParams.set('offset', String(offset));
    url.searchParams.set('length', String(length));
    return url.href;
  } catch {
    return undefined;
  }
}

/** What a server that reads in parts says when a resource is too large to read whole. */
function partsOffered(error: unknown): PartMeta | undefined {
  const data = (error as { data?: Obj } | undefined)?.data;
  const first = data?.['firstPart'];
  const size = data?.['size'];
  if (typeof first !== 'string' || typeof size !== 'number') return undefined;
  return { offset: 0, length: 0, size, next: first };
}

function isTextual(entry: Obj): boolean {
  // By the type's structure: "xml" or "json" anywhere in it would take OOXML (docx, xlsx) for text.
  return typeof entry['text'] === 'string' || isTextMimeType(String(entry['mimeType'] ?? ''));
}

/** Reads `[offset, offset+length)` through the server's own ranged reads, part after part. */
async function readParts(
  source: ReadToolSource,
  first: PartMeta,
  offset: number,
  length: number,
): Promise<{ bytes: Uint8Array; text: boolean } | string> {
  const end = Math.min(first.size, offset + length);
  const chunks: Uint8Array[] = [];
  let template = first.next;
  let text = false;
  let at = offset;
  // Each round brings at least one byte or stops: the walk ends.
  while (at < end) {
    const uri = template === undefined ? undefined : partUri(template, at, end - at);
    if (uri === undefined) return 'the server offered parts without a usable next URI';
    const got = entryOf(await source.read(uri), uri);
    if (!got) break;
    text ||= isTextual(got);
    const part = partOf(got);
    const bytes = bytesOf(got);
    const start = part ? Math.max(0, at - part.offset) : 0;
    const piece = bytes.subarray(start, start + (end - at));
    if (piece.length === 0) break;
    chunks.push(piece);
    at += piece.length;
    template = part?.next ?? template;
  }
  const out = new Uint8Array(at - offset);
  let pos = 0;
  for (const c of chunks) {
    out.set(c, pos);
    pos += c.length;
  }
  return { bytes: out, text };
}

/** A failed read as a tool error the model can read (the URI and the server's reason). */
async function asToolError(
  name: string,
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why = error instanceof Error ? error.message : String(error);
    return failed(`${name} failed: ${why}${typeof code === 'number' ? ` (${code})` : ''}`);
  }
}

/** `read_resource`: exact text, a blob's base64, or the base64 of a byte range. */
export function readResourceTool(source: ReadToolSource, args: Obj): Promise<CallToolResult> {
  return asToolError('read_resource', () => readResource(source, args));
}

async function readResource(source: ReadToolSource, args: Obj): Promise<CallToolResult> {
  const uri = String(args['uri']);
  const maxBytes = source.maxBytes ?? DEFAULT_READ_TOOL_BYTES;
  const ranged = args['offset'] !== undefined || args['length'] !== undefined;
  const offset = typeof args['offset'] === 'number' ? args['offset'] : 0;
  let entry: Obj | undefined;
  let part: PartMeta | undefined;
  try {
    entry = entryOf(await source.read(uri), uri);
    if (!entry) return failed(`${uri}: the server returned no contents`);
    part = partOf(entry);
  } catch (error) {
    part = partsOffered(error);
    if (!part) throw error;
  }
  const size = part?.size ?? bytesOf(entry as Obj).length;
  if (!ranged && part === undefined && entry) {
    const text = typeof entry['text'] === 'string' ? entry['text'] : String(entry['blob'] ?? '');
    if (size > maxBytes)
      return failed(
        `${uri} is ${size} bytes, over the ${maxBytes} one read returns: read it in ranges with offset and length`,
      );
    return { content: [{ type: 'text', text }] };
  }
  if (offset > size) return failed(`${uri}: offset ${offset} is past its end (${size} bytes)`);
  const asked = typeof args['length'] === 'number' ? args['length'] : size - offset;
  const length = Math.min(asked, size - offset);
  if (length > maxBytes)
    return failed(
      ranged
        ? `${uri}: ${length} bytes asked, over the ${maxBytes} one read returns; ask for a smaller length`
        : `${uri} is ${size} bytes, over the ${maxBytes} one read returns: read it in ranges with offset and length`,
    );
  let bytes: Uint8Array;
  let text = entry ? isTextual(entry) : false;
  if (part !== undefined) {
    const got = await readParts(source, part, offset, length);
    if (typeof got === 'string') return failed(`${uri}: ${got}`);
    bytes = got.bytes;
    text ||= got.text;
  } else bytes = bytesOf(entry as Obj).subarray(offset, offset + length);
  // A text resource the server gives in parts, asked whole: its exact text.
  if (!ranged && text)
    return { content: [{ type: 'text', text: new TextDecoder().decode(bytes) }] };
  return {
    content: [{ type: 'text', text: encodeBase64(bytes) }],
    _meta: { 'dev.mcpkit/range': { offset, length: bytes.length, size } },
  };
}

/** `list_resources`: one page of the server's list, filtered by `query`. */
export function listResourcesTool(source: ReadToolSource, args: Obj): Promise<CallToolResult> {
  return asToolError('list_resources', () => listResources(source, args));
}

async function listResources(source: ReadToolSource, args: Obj): Promise<CallToolResult> {
  const cursor = typeof args['cursor'] === 'string' ? args['cursor'] : undefined;
  const query = typeof args['query'] === 'string' ? args['query'].toLowerCase() : '';
  const page = await source.list(cursor);
  const resources = page.resources
    .filter(
      (r) =>
        query === '' ||
        r.uri.toLowerCase().includes(query) ||
        String(r.name ?? '')
          .toLowerCase()
          .includes(query) ||
        String(r.title ?? '')
          .toLowerCase()
          .includes(query),
    )
    .map((r) => {
      const out: Obj = { uri: r.uri, name: r.name };
      if (r.title !== undefined) out['title'] = r.title;
      if (r.mimeType !== undefined) out['mimeType'] = r.mimeType;
      if (r.size !== undefined) out['size'] = r.size;
      if (r.description !== undefined) out['description'] = r.description;
      return out;
    });
  const structured: Obj = { resources };
  if (page.nextCursor !== undefined) structured['nextCursor'] = page.nextCursor;
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
  };
}
