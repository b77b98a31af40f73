/** Shared field checks for the content builders and parsers (internal: not exported by index.ts). */
import { McpKitError } from '../errors/mcpkit-error.js';
import { findBase64Problem } from '../protocol/base64.js';
import { uriProblem } from '../protocol/uri-syntax.js';

/** The error code of every content-shape violation. */
export const INVALID_CONTENT = 'INVALID_CONTENT';

/** Throws INVALID_CONTENT with a message that starts with the field path. */
export function fail(path: string, message: string): never {
  throw new McpKitError(INVALID_CONTENT, `${path} ${message}`);
}

/** A short, bounded rendering of a value for error messages. */
export function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' || typeof value === 'boolean' || value === null)
    return String(value);
  if (typeof value === 'string') {
    return value.length > 60 ? `${JSON.stringify(value.slice(0, 60))}…` : JSON.stringify(value);
  }
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid Date' : 'a Date';
  return typeof value === 'object' ? 'an object' : typeof value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Why `value` is not a usable string field, or undefined. */
export function stringProblem(value: unknown, nonEmpty = false): string | undefined {
  if (typeof value !== 'string') return `must be a string, got ${describe(value)}`;
  if (nonEmpty && value.length === 0) return 'must not be empty';
  return undefined;
}

export function uriFieldProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a URI string, got ${describe(value)}`;
  const why = uriProblem(value);
  return why === undefined ? undefined : `is not a valid URI (${why}): ${describe(value)}`;
}

export function base64FieldProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a base64 string, got ${describe(value)}`;
  const p = findBase64Problem(value);
  return p === undefined
    ? undefined
    : `is not canonical base64 at offset ${p.offset} (${p.reason})`;
}

export function metaProblem(value: unknown): string | undefined {
  return isPlainObject(value) ? undefined : `must be an object, got ${describe(value)}`;
}

export function sizeProblem(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? undefined
    : `must be a non-negative integer (raw bytes), got ${describe(value)}`;
}

const TCHAR = new Uint8Array(128);
{
  const chars = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  for (let i = 0; i < chars.length; i++) TCHAR[chars.charCodeAt(i)] = 1;
}

function isToken(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 128 || TCHAR[c] === 0) return false;
  }
  return true;
}

/**
 * Why `value` is not a media type (`type/subtype`, RFC 9110 tokens, optional `; parameters`),
 * or undefined. With `topLevel`, the type must also be `${topLevel}/*`.
 */
export function mimeTypeProblem(value: unknown, topLevel?: string): string | undefined {
  if (typeof value !== 'string') return `must be a MIME type string, got ${describe(value)}`;
  const semi = value.indexOf(';');
  const essence = (semi === -1 ? value : value.slice(0, semi)).trim();
  const slash = essence.indexOf('/');
  if (slash === -1 || !isToken(essence.slice(0, slash)) || !isToken(essence.slice(slash + 1))) {
    return `must be a MIME type like "text/plain", got ${describe(value)}`;
  }
  if (topLevel !== undefined && essence.slice(0, slash).toLowerCase() !== topLevel) {
    return `must be an ${topLevel}/* type, got ${describe(value)}`;
  }
  return undefined;
}

const ICON_SCHEMES = ['https:', 'http:', 'data:'];
const ICON_FIELDS = new Set(['src', 'mimeType', 'sizes', 'theme']);
const SIZE = /^(?:any|[1-9]\d{0,5}x[1-9]\d{0,5})$/;

/**
 * Problems of one icon as `[path, message]` pairs (empty when it is valid). Only `https:`, `http:`
 * and `data:` sources pass (the spec tells consumers to reject `javascript:`, `file:` and the like).
 * With `strictKeys`, fields outside the spec's Icon are problems too.
 */
export function iconProblems(icon: unknown, at: string, strictKeys: boolean): [string, string][] {
  if (!isPlainObject(icon)) return [[at, `must be an object, got ${describe(icon)}`]];
  const out: [string, string][] = [];
  const src = uriFieldProblem(icon.src);
  if (src !== undefined) out.push([`${at}.src`, src]);
  else if (!ICON_SCHEMES.some((s) => (icon.src as string).toLowerCase().startsWith(s))) {
    out.push([`${at}.src`, `must be an https:, http: or data: URI, got ${describe(icon.src)}`]);
  }
  if (icon.mimeType !== undefined) {
    const m = mimeTypeProblem(icon.mimeType);
    if (m !== undefined) out.push([`${at}.mimeType`, m]);
  }
  if (icon.sizes !== undefined) {
    const ok =
      Array.isArray(icon.sizes) && icon.sizes.every((s) => typeof s === 'string' && SIZE.test(s));
    if (!ok) out.push([`${at}.sizes`, 'must be an array of "WxH" or "any" strings']);
  }
  if (icon.theme !== undefined && icon.theme !== 'light' && icon.theme !== 'dark') {
    out.push([`${at}.theme`, `must be "light" or "dark", got ${describe(icon.theme)}`]);
  }
  if (strictKeys) {
    for (const key of Object.keys(icon)) {
      if (!ICON_FIELDS.has(key)) out.push([`${at}.${key}`, 'is not a field of an icon']);
    }
  }
  return out;
}
