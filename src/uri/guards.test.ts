import { describe, expect, it } from 'vitest';
import { checkVariable, decodeComponent, matchSafely, type VariableKind } from './guards.js';
import { parseTemplate } from './template.js';

/** Raw (still encoded) values as they would sit in a URI; every one must be refused. */
const REFUSED: [string, VariableKind][] = [
  ['..', 'simple'],
  ['..', 'reserved'],
  ['../etc/passwd', 'reserved'],
  ['a/../../b', 'reserved'],
  ['a/..', 'path'],
  ['%2e%2e', 'path'],
  ['%2e%2e/', 'reserved'],
  ['%2E%2E%2F', 'reserved'],
  ['%2e%2E/%2E%2e/secret', 'reserved'],
  ['..%2f', 'reserved'],
  ['docs/%2e%2e/%2e%2e/etc', 'reserved'],
  ['x/%2e%2e%2fy', 'reserved'],
  ['.%2e', 'simple'],
  ['%2e.', 'simple'],
  ['%252e%252e', 'reserved'], // double encoding
  ['%252e%252e%252f', 'simple'],
  ['%25252e', 'reserved'], // triple encoding still leaves %25
  ['%255c', 'reserved'],
  ['..\\', 'reserved'],
  ['..%5c..%5cwindows', 'reserved'],
  ['%2e%2e%5c', 'reserved'],
  ['%5c', 'simple'],
  ['a%5Cb', 'simple'],
  ['%5cserver%5cshare', 'reserved'],
  ['/etc/passwd', 'reserved'],
  ['%2fetc%2fpasswd', 'reserved'],
  ['//server/share', 'path'],
  ['C:\\x', 'reserved'],
  ['c:/windows/win.ini', 'reserved'],
  ['D:', 'simple'],
  ['%00', 'simple'],
  ['a%00.txt', 'simple'],
  ['..%00/', 'reserved'],
  ['%2500', 'simple'],
  ['a%0Ab', 'simple'], // newline
  ['a%0Db', 'reserved'],
  ['%7F', 'simple'],
  ['%C2%85', 'simple'], // NEL, a C1 control
  ['a%2Fb', 'simple'], // an encoded separator through {var}
  ['a/b', 'simple'],
  ['%C0%AE%C0%AE/', 'reserved'], // overlong UTF-8 dots
  ['%E0%80%AE', 'reserved'],
  ['%', 'simple'], // malformed
  ['%zz', 'reserved'],
  ['...', 'reserved'], // Windows trims trailing dots
  ['..%20', 'reserved'], // and trailing spaces
  ['a/..;/b', 'reserved'], // servlet path parameters
];

const ACCEPTED: [string, VariableKind][] = [
  ['docs/guide.md', 'reserved'],
  ['docs/guide.md', 'path'],
  ['a..b.txt', 'simple'],
  ['..a', 'simple'],
  ['a..', 'simple'],
  ['.hidden', 'simple'],
  ['dir/.hidden/x', 'reserved'],
  ['./a', 'reserved'],
  ['r%C3%A9sum%C3%A9.pdf', 'simple'],
  ['%E6%97%A5%E6%9C%AC/%E6%96%87%E6%9B%B8.md', 'reserved'],
  ['my%20file.txt', 'simple'],
  ['v1.2.3', 'simple'],
  ['file:name', 'simple'],
  ['50%25%20off', 'simple'], // one literal '%' is not double encoding
  ['', 'simple'],
  ['%F0%9F%98%80', 'simple'],
];

describe('checkVariable', () => {
  it('has a corpus of at least 30 refused forms', () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(30);
  });

  it.each(REFUSED)('refuses %j as %s', (raw, kind) => {
    expect(checkVariable('v', raw, kind, { decode: true })).toEqual(expect.any(String));
  });

  it.each(ACCEPTED)('accepts %j as %s', (raw, kind) => {
    expect(checkVariable('v', raw, kind, { decode: true })).toBeUndefined();
  });

  it('checks decoded values by default', () => {
    expect(checkVariable('p', '%2e%2e', 'reserved')).toMatch(/double encoding/);
    expect(checkVariable('p', '../x', 'reserved')).toMatch(/"\.\." segment/);
    expect(checkVariable('name', 'a/b', 'simple')).toMatch(/"name" contains "\/"/);
    expect(checkVariable('p', 'a/b', 'reserved')).toBeUndefined();
    expect(checkVariable('p', 'a\u0000b', 'simple')).toMatch(/NUL/);
  });
});

describe('decodeComponent', () => {
  it.each<[string, string | undefined]>([
    ['plain', 'plain'],
    ['caf%C3%A9', 'café'],
    ['a+b', 'a+b'],
    ['%2e%2E', '..'],
    ['%', undefined],
    ['%4', undefined],
    ['%zz', undefined],
    ['%C3', undefined],
    ['%C0%AE', undefined],
    ['%ED%A0%80', undefined], // an encoded surrogate
  ])('%j -> %j', (input, expected) => {
    expect(decodeComponent(input)).toBe(expected);
  });
});

describe('matchSafely', () => {
  const file = parseTemplate('file:///{+path}');
  const repo = parseTemplate('repo://{owner}/{name}{?ref}');
  const docs = parseTemplate('docs:{/segments*}');

  it('returns decoded variables when every check passes', () => {
    expect(matchSafely(file, 'file:///docs/a%20b.md')).toEqual({
      ok: true,
      variables: { path: 'docs/a b.md' },
    });
    expect(matchSafely(docs, 'docs:/a/%C3%BC')).toEqual({
      ok: true,
      variables: { segments: ['a', 'ü'] },
    });
    expect(matchSafely(repo, 'repo://me/tools?ref=v1.2')).toEqual({
      ok: true,
      variables: { owner: 'me', name: 'tools', ref: 'v1.2' },
    });
  });

  it('returns undefined when the URI does not match at all', () => {
    expect(matchSafely(repo, 'repo://a/b/c')).toBeUndefined();
    expect(matchSafely(file, 'http://x/y')).toBeUndefined();
  });

  it.each<[string, string, string]>([
    ['file:///{+path}', 'file:///%2e%2e/etc/passwd', 'path'],
    ['file:///{+path}', 'file:///a/%2E%2E%2F%2E%2E%2Fb', 'path'],
    ['file:///{+path}', 'file:///%2Fetc/passwd', 'path'],
    ['file:///{+path}', 'file:///C:/Windows', 'path'],
    ['file:///{+path}', 'file:///a%00.txt', 'path'],
    ['file:///{+path}', 'file:///%252e%252e/x', 'path'],
    ['file:///{+path}', 'file:///..%5cx', 'path'],
    ['repo://{owner}/{name}{?ref}', 'repo://a%2Fb/c', 'owner'],
    ['repo://{owner}/{name}{?ref}', 'repo://a/..', 'name'],
    ['repo://{owner}/{name}{?ref}', 'repo://a/b?ref=..%2F..', 'ref'],
    ['docs:{/segments*}', 'docs:/a/%2e%2e/b', 'segments'],
    ['docs:{/segments*}', 'docs:/%C0%AE%C0%AE/b', 'segments'],
    // ['', 'etc', 'passwd'] joined is '/etc/passwd', which '%2Fetc' as one item is refused as.
    ['docs:{/segments*}', 'docs://etc/passwd', 'segments'],
    ['page{#frag}', 'page#../x', 'frag'],
    ['{x}/{+x}', 'a%2Fb/a%2Fb', 'x'], // a variable used as {x} anywhere is checked as simple
  ])('%s refuses %j in %s', (template, uri, variable) => {
    const result = matchSafely(parseTemplate(template), uri);
    expect(result).toMatchObject({ ok: false, variable });
    expect(result?.ok === false && result.problem).toContain(`"${variable}"`);
  });
});

describe('query values and one-component values (review regressions)', () => {
  const t = parseTemplate('data://{id}/items{?type,q}');
  it.each([
    ['data://u%3A42/items', { id: 'u:42' }],
    ['data://a/items?type=text%2Fplain', { id: 'a', type: 'text/plain' }],
    ['data://a/items?q=line1%0Aline2', { id: 'a', q: 'line1\nline2' }],
    ['data://a/items?q=a..b', { id: 'a', q: 'a..b' }],
  ])('accepts %s', (uri, variables) => {
    expect(matchSafely(t, uri)).toEqual({ ok: true, variables });
  });

  it.each([
    ['data://C%3A/items', 'drive letter'],
    ['data://a/items?q=..%2Fetc', '".." segment'],
    ['data://a/items?q=..%5Cx', '".." segment'],
    ['data://a/items?q=a%00b', 'NUL'],
  ])('refuses %s', (uri, problem) => {
    const m = matchSafely(t, uri);
    expect(m?.ok).toBe(false);
    expect(m && !m.ok ? m.problem : '').toContain(problem);
  });
});

describe('matchSafely: a variable named __proto__', () => {
  it.each([
    ['note://{__proto__}', 'note://abc', 'abc'],
    ['note://x{/__proto__*}', 'note://x/a/b', ['a', 'b']],
  ])('%s keeps it a plain key, as match does', (template, uri, value) => {
    const m = matchSafely(parseTemplate(template), uri);
    expect(m?.ok).toBe(true);
    const variables = m && m.ok ? m.variables : {};
    expect(Object.getPrototypeOf(variables)).toBe(Object.prototype);
    expect(Object.keys(variables)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(variables, '__proto__')?.value).toEqual(value);
  });
});
