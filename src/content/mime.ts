/** MIME types: by file name, by content sniffing, and the precedence that resolves one. */
import { fileTypeFromBuffer } from 'file-type/core';
import { lookup } from 'mime-types';

/** The MIME type assumed for text without a declared one. */
export const DEFAULT_TEXT_MIME = 'text/plain';
/** The MIME type of bytes nothing else could identify. */
export const DEFAULT_BINARY_MIME = 'application/octet-stream';

/** Bytes looked at by the text heuristic. */
const TEXT_SAMPLE = 8192;
/** Bytes handed to the magic-number detector (enough for container formats' first entries). */
export const SNIFF_SAMPLE = 64 * 1024;

// mime-db maps these source-code extensions to other formats (.ts is MPEG-TS video, .rs an
// XML service list) or to nothing; a resource toolkit meets them as code far more often.
const OVERRIDES: Record<string, string> = {
  ts: 'text/x-typescript',
  mts: 'text/x-typescript',
  cts: 'text/x-typescript',
  tsx: 'text/x-typescript',
  py: 'text/x-python',
  rs: 'text/x-rust',
  go: 'text/x-go',
  rb: 'text/x-ruby',
  jsonl: 'application/x-ndjson',
  ndjson: 'application/x-ndjson',
};

const URI_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]+:/;

/**
 * The MIME type registered for a file name's extension (case-insensitive), or undefined.
 * Accepts bare names, paths (`/` or `\`) and URIs (query and fragment are ignored). An extension
 * registered as `application/octet-stream` (e.g. `.bin`) gives undefined: it names no format.
 *
 * @example
 * mimeFromName('file:///docs/Report.PDF?v=2'); // 'application/pdf'
 */
export function mimeFromName(nameOrPath: string): string | undefined {
  let name = nameOrPath;
  if (URI_SCHEME.test(name)) {
    const cut = name.search(/[?#]/);
    if (cut !== -1) name = name.slice(0, cut);
  }
  name = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return undefined; // no extension, or a dotfile
  const ext = name.slice(dot + 1);
  const lower = ext.toLowerCase();
  const found = Object.hasOwn(OVERRIDES, lower) ? OVERRIDES[lower] : lookup(lower);
  // `.bin`, `.img`, `.so`… are registered as application/octet-stream, which says nothing about
  // the bytes: treat them as unknown so that callers sniff the content.
  return found === false || found === DEFAULT_BINARY_MIME ? undefined : found;
}

/**
 * Whether the first 8 KiB look like UTF-8 text: valid UTF-8 (a sequence cut at the end of the
 * sample is fine), no NUL and no C0 controls other than tab, LF, VT, FF, CR and ESC.
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, TEXT_SAMPLE);
  if (sample.length === 0) return false;
  for (let i = 0; i < sample.length; i++) {
    const c = sample[i]!;
    if (c < 0x20 && !(c >= 9 && c <= 13) && c !== 0x1b) return false;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Detects a MIME type from content: magic numbers first (file-type), then a UTF-8 text heuristic
 * (`text/plain`). Returns undefined for empty or unrecognised bytes. Only a prefix is examined.
 */
export async function sniffMime(bytes: Uint8Array): Promise<string | undefined> {
  if (bytes.length === 0) return undefined;
  const found = await fileTypeFromBuffer(bytes.subarray(0, SNIFF_SAMPLE)).catch(() => undefined);
  if (found !== undefined) return found.mime;
  return looksLikeText(bytes) ? DEFAULT_TEXT_MIME : undefined;
}

/** Where `resolveMimeType` found the type. */
export type MimeSource = 'declared' | 'extension' | 'sniffed' | 'default';

/** Inputs of `resolveMimeType`; each is optional. */
export interface ResolveMimeTypeInput {
  /** A type the resource already declares (wins when non-empty). */
  declared?: string | undefined;
  /** A file name, path or URI whose extension is looked up. */
  name?: string | undefined;
  /** The content (or its first bytes) to sniff. */
  bytes?: Uint8Array | undefined;
}

/**
 * Resolves the MIME type to emit: declared > file extension > sniffed content > the default
 * `application/octet-stream`, and says which one won.
 *
 * @example
 * await resolveMimeType({ name: 'scan.bin', bytes }); // { mimeType: 'image/png', source: 'sniffed' }
 */
export async function resolveMimeType(
  input: ResolveMimeTypeInput,
): Promise<{ mimeType: string; source: MimeSource }> {
  const declared = input.declared?.trim();
  if (declared) return { mimeType: declared, source: 'declared' };
  const byName = input.name === undefined ? undefined : mimeFromName(input.name);
  if (byName !== undefined) return { mimeType: byName, source: 'extension' };
  const sniffed = input.bytes === undefined ? undefined : await sniffMime(input.bytes);
  if (sniffed !== undefined) return { mimeType: sniffed, source: 'sniffed' };
  return { mimeType: DEFAULT_BINARY_MIME, source: 'default' };
}

const TEXT_APPLICATION = new Set([
  'json',
  'xml',
  'javascript',
  'ecmascript',
  'x-javascript',
  'typescript',
  'x-typescript',
  'yaml',
  'x-yaml',
  'toml',
  'x-toml',
  'x-sh',
  'x-shellscript',
  'sql',
  'graphql',
  'x-ndjson',
  'jsonl',
  'x-www-form-urlencoded',
  'x-httpd-php',
  'x-tex',
  'x-latex',
  'rtf',
  'csv',
]);

/**
 * Whether content of this MIME type is text: `text/*`, the `+json`, `+xml` and `+yaml` suffixes,
 * and textual `application/` types (json, xml, javascript, yaml, toml, x-sh, sql, graphql, ...).
 * Parameters (`; charset=utf-8`) and case are ignored.
 */
export function isTextMimeType(mime: string): boolean {
  const semi = mime.indexOf(';');
  const essence = (semi === -1 ? mime : mime.slice(0, semi)).trim().toLowerCase();
  const slash = essence.indexOf('/');
  if (slash <= 0) return false;
  const type = essence.slice(0, slash);
  const sub = essence.slice(slash + 1);
  if (type === 'text') return sub.length > 0;
  if (sub.endsWith('+json') || sub.endsWith('+xml') || sub.endsWith('+yaml')) return true;
  return type === 'application' && TEXT_APPLICATION.has(sub);
}
