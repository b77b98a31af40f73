/**
 * Checks on matched template variables before they reach a filesystem, a database key or
 * another URI: traversal, absolute escapes, control characters and encoding tricks.
 */

import { decodeComponent, isTripletAt } from './percent.js';
import type { Operator } from './template-syntax.js';
import type { MatchedValues, UriTemplate } from './template.js';

export { decodeComponent };

/**
 * How a value is used: `simple` is one opaque component (`{var}`, `{.var}`, `{;var}`, `{?var}`),
 * so it may not hold `/` at all; `reserved` (`{+var}`, `{#var}`) and `path` (`{/var}`) are
 * relative paths whose `/` separators are fine but which may not start at a root.
 */
/**
 * How strictly a variable is checked: `simple` ({var}, {.var}, {;var}: one component), `path`
 * ({/var}), `reserved` ({+var}, {#var}), `query` ({?var}, {&var}: free text, only NUL refused).
 */
export type VariableKind = 'simple' | 'reserved' | 'path' | 'query';

export interface CheckVariableOptions {
  /** Percent-decode `value` first (default false: the value is already decoded). */
  readonly decode?: boolean;
}

/** Bytes that still matter after one decode: a second decode would turn them into `.` `/` `\` `%` or a control. */
function isDangerousTripletByte(byte: number): boolean {
  return (
    byte === 0x2e || byte === 0x2f || byte === 0x5c || byte === 0x25 || byte < 0x20 || byte === 0x7f
  );
}

/**
 * Windows drops trailing dots and spaces, so `.. ` and `...` can act as `..`; servlet-style
 * stacks drop `;params`, so `..;x` can too.
 */
function isDotDotSegment(segment: string): boolean {
  if (!segment.startsWith('..')) return false;
  for (let i = 2; i < segment.length; i++) {
    if (segment[i] === ';') return true;
    if (segment[i] !== '.' && segment[i] !== ' ') return false;
  }
  return true;
}

function isDriveLetterStart(value: string): boolean {
  const c = value.charCodeAt(0) | 0x20;
  return c >= 97 && c <= 122 && value[1] === ':';
}

/**
 * Returns why a decoded variable value is unsafe, or undefined when it is safe.
 *
 * Refused: a `..` segment, NUL and other control characters, any backslash, a leading `/` or a
 * drive letter (`C:`), a value still percent-encoded after decoding (`%252e` → `%2e`), and for
 * `simple` variables any `/` (an encoded separator `%2F` smuggled through `{var}`).
 *
 * @example
 * checkVariable('path', 'docs/guide.md', 'reserved'); // undefined
 * checkVariable('path', '../etc/passwd', 'reserved'); // 'variable "path" contains a ".." segment'
 * checkVariable('id', 'a%2Fb', 'simple', { decode: true }); // 'variable "id" contains "/" …'
 */
export function checkVariable(
  name: string,
  value: string,
  kind: VariableKind,
  options?: CheckVariableOptions,
): string | undefined {
  let v = value;
  if (options?.decode === true) {
    const decoded = decodeComponent(value);
    if (decoded === undefined)
      return `${labelOf(name)} has malformed percent-encoding or invalid UTF-8`;
    v = decoded;
  }
  const problem = problemOf(v, kind);
  return problem === undefined ? undefined : `${labelOf(name)} ${problem}`;
}

const labelOf = (name: string): string => `variable ${JSON.stringify(name)}`;

/** Why the decoded value `v` of a `kind` variable is unsafe (after its label), or undefined. */
function problemOf(v: string, kind: VariableKind): string | undefined {
  if (kind === 'query') {
    // Query values are free text ("text/plain", several lines), but never a ".." path walk.
    if (v.includes('\0')) return 'contains a NUL character';
    return v.split(/[\\/]/).some(isDotDotSegment) ? 'contains a ".." segment' : undefined;
  }
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 0) return 'contains a NUL character';
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return 'contains a control character';
    if (c === 0x5c) return 'contains a backslash';
    if (
      c === 0x25 &&
      isTripletAt(v, i) &&
      isDangerousTripletByte(parseInt(v.slice(i + 1, i + 3), 16))
    ) {
      return 'is still percent-encoded after decoding (double encoding)';
    }
  }
  if (kind === 'simple' && v.includes('/')) {
    return 'contains "/" but names a single component (an encoded %2F?)';
  }
  if (v.startsWith('/')) return 'is an absolute path';
  // A one-component value may hold "u:42"; only a bare "C:" is a drive there.
  if (kind === 'simple' ? /^[A-Za-z]:$/.test(v) : isDriveLetterStart(v)) {
    return 'starts with a drive letter';
  }
  if (v.split('/').some(isDotDotSegment)) return 'contains a ".." segment';
  return undefined;
}

/** The result of `matchSafely` for a URI that matched the template. */
export type SafeMatch =
  | { readonly ok: true; readonly variables: MatchedValues }
  | { readonly ok: false; readonly problem: string; readonly variable?: string };

const KIND_OF: Readonly<Record<Operator, VariableKind>> = {
  '': 'simple',
  '.': 'simple',
  ';': 'simple',
  '?': 'query',
  '&': 'query',
  '/': 'path',
  '+': 'reserved',
  '#': 'reserved',
};

const STRICTNESS: Readonly<Record<VariableKind, number>> = {
  simple: 3,
  path: 2,
  reserved: 1,
  query: 0,
};

/** A variable's kind; one used both as `{x}` and `{+x}` gets the stricter `simple`. */
function variableKind(template: UriTemplate, name: string): VariableKind {
  let kind: VariableKind | undefined;
  for (const part of template.parts) {
    if (part.type !== 'expression') continue;
    const own = KIND_OF[part.operator];
    for (const v of part.variables)
      if (v.name === name && (kind === undefined || STRICTNESS[own] > STRICTNESS[kind])) kind = own;
  }
  return kind ?? 'simple';
}

/**
 * Matches `uri`, decodes every variable and checks it by its operator's kind. Returns undefined
 * when the URI does not match at all, so callers can tell "not mine" from "refused".
 *
 * @example
 * const t = parseTemplate('file:///{+path}');
 * matchSafely(t, 'file:///docs/a.md'); // { ok: true, variables: { path: 'docs/a.md' } }
 * matchSafely(t, 'file:///%2e%2e/etc/passwd'); // { ok: false, problem: '…".." segment', variable: 'path' }
 */
export function matchSafely(template: UriTemplate, uri: string): SafeMatch | undefined {
  const raw = template.match(uri, { decode: false });
  if (raw === undefined) return undefined;
  const variables: [string, string | string[]][] = [];
  for (const name of Object.keys(raw)) {
    const value = raw[name] as string | string[];
    const kind = variableKind(template, name);
    if (typeof value === 'string') {
      const decoded = safelyDecoded(name, value, kind);
      if (typeof decoded !== 'string') return decoded;
      variables.push([name, decoded]);
      continue;
    }
    // `{/segs*}` over `//etc`: ['', 'etc'] joins to the root path one `%2Fetc` item is refused as.
    if (kind === 'path' && value.length > 1 && value[0] === '')
      return {
        ok: false,
        problem: `${labelOf(name)} is an absolute path (its first segment is empty)`,
        variable: name,
      };
    const list: string[] = [];
    for (const item of value) {
      const decoded = safelyDecoded(name, item, kind);
      if (typeof decoded !== 'string') return decoded;
      list.push(decoded);
    }
    variables.push([name, list]);
  }
  // fromEntries defines own properties: assigned, a `__proto__` variable would vanish.
  return { ok: true, variables: Object.fromEntries(variables) };
}

/** A matched value decoded once and checked ({@link checkVariable}), or why it is refused. */
function safelyDecoded(name: string, item: string, kind: VariableKind): string | SafeMatch {
  const decoded = decodeComponent(item);
  if (decoded === undefined)
    return {
      ok: false,
      problem: `${labelOf(name)} has malformed percent-encoding or invalid UTF-8`,
      variable: name,
    };
  const problem = problemOf(decoded, kind);
  return problem === undefined
    ? decoded
    : { ok: false, problem: `${labelOf(name)} ${problem}`, variable: name };
}
