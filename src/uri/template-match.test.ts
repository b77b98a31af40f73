import { describe, expect, it } from 'vitest';
import { parseTemplate } from './template.js';

type Values = Record<string, string | string[]>;

/** Expanding these values and matching the result must give the same values back. */
const ROUND_TRIPS: [string, Values][] = [
  ['{var}', { var: 'value' }],
  ['{hello}', { hello: 'Hello World!' }],
  ['{x,y}', { x: '1024', y: '768' }],
  ['{x,hello,y}', { x: '1024', hello: 'Hello World!', y: '768' }],
  ['file:///{+path}', { path: 'docs/guide/intro.md' }],
  ['{+path}/here', { path: '/foo/bar' }],
  ['here?ref={+path}', { path: '/foo/bar' }],
  ['{+base}index', { base: 'http://example.com/home/' }],
  ['{+path}/meta/{id}', { path: 'a/b/meta/c', id: '7' }],
  ['{#path,x}/here', { path: '/foo/bar', x: '1024' }],
  ['page{#section}', { section: 'intro/part 2?' }],
  ['docs://{/segments*}', { segments: ['a', 'b c', 'ü'] }],
  ['{/who,dub}', { who: 'fred', dub: 'me/too' }],
  ['{/var:1,var}', { var: 'value' }],
  ['{/list*,path:4}', { list: ['red', 'green', 'blue'], path: '/foo' }],
  ['X{.var}', { var: 'value' }],
  ['www{.dom*}', { dom: ['example', 'com'] }],
  ['files/{name}{.ext}', { name: 'report.final', ext: 'pdf' }],
  ['{;x,y,empty}', { x: '1024', y: '768', empty: '' }],
  ['{;list*}', { list: ['red', 'green', 'blue'] }],
  ['search{?q,limit}', { q: 'a&b=c d', limit: '10' }],
  ['search{?q,limit}', { limit: '10' }],
  ['search{?q,limit}', {}],
  ['{?list*}', { list: ['red', 'green', 'blue'] }],
  ['{?x,y,empty}', { x: '1024', y: '768', empty: '' }],
  ['?fixed=yes{&x,y}', { y: '768' }],
  ['items{?page}{&size,sort}', { sort: 'name', page: '2' }],
  ['mcp://{server}/tools/{tool}{?version}{#frag}', { server: 's1', tool: 'grep', frag: 'top' }],
  ['{name}', { name: 'café ☕ 😀' }],
  ['{+path}', { path: '日本/文書.md' }],
  ['{/segments*}{?q}', { segments: ['ελληνικά', 'x'], q: 'ü' }],
  ['O{empty}X', { empty: '' }],
];

describe('match: round trips', () => {
  it.each(ROUND_TRIPS)('%s with %j', (template, values) => {
    const t = parseTemplate(template);
    const uri = t.expand(values);
    expect(t.match(uri)).toStrictEqual(values);
  });
});

describe('match: rules', () => {
  it('accepts query parameters in any order and leaves absent ones out', () => {
    const t = parseTemplate('search{?q,limit,page}');
    expect(t.match('search?limit=5&q=x')).toStrictEqual({ limit: '5', q: 'x' });
    expect(t.match('search?page=2&limit=5&q=x')).toStrictEqual({ page: '2', limit: '5', q: 'x' });
    expect(t.match('search?q')).toStrictEqual({ q: '' });
    expect(t.match('search?')).toStrictEqual({});
    expect(t.match('search')).toStrictEqual({});
  });

  it.each([
    ['search{?q,limit}', 'search?q=1&other=2'], // unknown parameter
    ['search{?q,limit}', 'search?q=1&q=2'], // repeated single-valued parameter
    ['search{?q}', 'search?q=a=b'], // raw '=' inside a value
    ['search{?q}', 'search?q=a/b'], // reserved character expansion would have encoded
    ['search{?q}', 'search&q=1'],
    ['{var}', 'a/b'],
    ['{var}', 'a?b'],
    ['{var}', 'a#b'],
    ['{var}', 'a!b'],
    ['{var}', 'a=b'],
    ['{var}', 'a b'],
    ['{var}', 'é'], // raw non-ASCII is not a URI
    ['{var}', 'a%zzb'], // malformed percent-encoding
    ['{var}', '%C3%28'], // invalid UTF-8
    ['{var}', '%C0%AE'], // overlong UTF-8 for '.'
    ['repo://{owner}/{repo}', 'repo://a/b/c'],
    ['repo://{owner}/{repo}', 'other://a/b'],
    ['file:///{+path}', 'file:///a?b'], // {+path} stops at the query
    ['file:///{+path}', 'file:///a#b'],
    ['{/var}', '/a/b'], // one segment only
    ['{var:3}', 'valu'], // longer than the prefix
    ['{x}/{x}', 'a/b'], // the same variable must match the same value
    ['{/var:1,var}', '/x/value'],
    ['a{b}c', 'abd'],
    ['{a}', 'x'.repeat(10) + '\u0000'],
  ])('%s does not match %j', (template, uri) => {
    expect(parseTemplate(template).match(uri)).toBeUndefined();
  });

  it('lets {+path} span "/" but not {var}', () => {
    expect(parseTemplate('file:///{+path}').match('file:///a/b/c.txt')).toStrictEqual({
      path: 'a/b/c.txt',
    });
    expect(parseTemplate('file:///{name}').match('file:///a/b')).toBeUndefined();
  });

  it('decodes an encoded separator inside {var} (guards decide whether it is acceptable)', () => {
    expect(parseTemplate('repo://{owner}').match('repo://a%2Fb')).toStrictEqual({ owner: 'a/b' });
  });

  it('splits {/segments*} into segments and keeps empty ones', () => {
    const t = parseTemplate('docs:{/segments*}');
    expect(t.match('docs:/a/b/c')).toStrictEqual({ segments: ['a', 'b', 'c'] });
    expect(t.match('docs:/a//b')).toStrictEqual({ segments: ['a', '', 'b'] });
    expect(t.match('docs:')).toStrictEqual({});
  });

  it('matches the fragment, including "/" and "?" inside it', () => {
    const t = parseTemplate('page{?v}{#frag}');
    expect(t.match('page?v=1#a/b?c')).toStrictEqual({ v: '1', frag: 'a/b?c' });
    expect(t.match('page#x')).toStrictEqual({ frag: 'x' });
    expect(t.match('page')).toStrictEqual({});
  });

  it('resolves ambiguous splits greedily to the left', () => {
    expect(parseTemplate('{name}{.ext}').match('archive.tar.gz')).toStrictEqual({
      name: 'archive.tar',
      ext: 'gz',
    });
    expect(parseTemplate('{name}{.ext}').match('.bashrc')).toStrictEqual({ name: '.bashrc' });
    expect(parseTemplate('{+a}/{b}').match('x/y/z')).toStrictEqual({ a: 'x/y', b: 'z' });
  });

  it('returns raw values with { decode: false }', () => {
    const t = parseTemplate('{+path}{?q*}');
    expect(t.match('a%20b/%2e%2e?q=%C3%A9&q=x', { decode: false })).toStrictEqual({
      path: 'a%20b/%2e%2e',
      q: ['%C3%A9', 'x'],
    });
  });

  it('keeps a variable named __proto__ as a plain key', () => {
    const result = parseTemplate('{/__proto__*}').match('/a/b');
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result ?? {})).toEqual(['__proto__']);
  });
});

describe('match: robustness', () => {
  const templates = [
    '{a}{b}{c}.{d}',
    '{+a}/{+b}/{+c}.json',
    '{/a*}{?b,c}{#d}',
    'x{.a,b}{;c,d*}',
    '{a:3}{+a}/{a}',
    'file:///{+path}',
    '{a}2e{b}',
  ].map(parseTemplate);

  it('never throws on arbitrary input', () => {
    const alphabet = 'a/.?#&=;,%2eF:{}\\ é\u0000\uD800';
    let seed = 42;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 3000; n++) {
      let s = '';
      for (let k = Math.floor(random() * 24); k > 0; k--) {
        s += alphabet[Math.floor(random() * alphabet.length)];
      }
      for (const t of templates) t.match(s); // a throw fails the test
    }
    expect(templates[0]?.match(undefined as unknown as string)).toBeUndefined();
  });

  it('stays fast on long adversarial input', () => {
    const inputs = [
      'a'.repeat(200_000) + '!',
      'a/'.repeat(100_000) + '?',
      'a.'.repeat(100_000),
      '%2e'.repeat(70_000),
    ];
    const start = performance.now();
    for (const t of templates) for (const s of inputs) t.match(s);
    expect(performance.now() - start).toBeLessThan(2000);
  });
});
