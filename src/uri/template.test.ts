import { describe, expect, it } from 'vitest';
import { isTemplate, parseTemplate, TemplateSyntaxError, type TemplateValues } from './template.js';

/** The variable set of RFC 6570 §3.2 (a superset of §1.2's). */
const RFC: TemplateValues = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: {},
  undef: undefined,
};

const SECTION_1_2: [string, string][] = [
  // Level 1
  ['{var}', 'value'],
  ['{hello}', 'Hello%20World%21'],
  // Level 2
  ['{+var}', 'value'],
  ['{+hello}', 'Hello%20World!'],
  ['{+path}/here', '/foo/bar/here'],
  ['here?ref={+path}', 'here?ref=/foo/bar'],
  ['X{#var}', 'X#value'],
  ['X{#hello}', 'X#Hello%20World!'],
  // Level 3
  ['map?{x,y}', 'map?1024,768'],
  ['{x,hello,y}', '1024,Hello%20World%21,768'],
  ['{+x,hello,y}', '1024,Hello%20World!,768'],
  ['{+path,x}/here', '/foo/bar,1024/here'],
  ['{#x,hello,y}', '#1024,Hello%20World!,768'],
  ['{#path,x}/here', '#/foo/bar,1024/here'],
  ['X{.var}', 'X.value'],
  ['X{.x,y}', 'X.1024.768'],
  ['{/var}', '/value'],
  ['{/var,x}/here', '/value/1024/here'],
  ['{;x,y}', ';x=1024;y=768'],
  ['{;x,y,empty}', ';x=1024;y=768;empty'],
  ['{?x,y}', '?x=1024&y=768'],
  ['{?x,y,empty}', '?x=1024&y=768&empty='],
  ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
  ['{&x,y,empty}', '&x=1024&y=768&empty='],
  // Level 4
  ['{var:3}', 'val'],
  ['{var:30}', 'value'],
  ['{list}', 'red,green,blue'],
  ['{list*}', 'red,green,blue'],
  ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
  ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  ['{+path:6}/here', '/foo/b/here'],
  ['{+list}', 'red,green,blue'],
  ['{+list*}', 'red,green,blue'],
  ['{+keys}', 'semi,;,dot,.,comma,,'],
  ['{+keys*}', 'semi=;,dot=.,comma=,'],
  ['{#path:6}/here', '#/foo/b/here'],
  ['{#list}', '#red,green,blue'],
  ['{#list*}', '#red,green,blue'],
  ['{#keys}', '#semi,;,dot,.,comma,,'],
  ['{#keys*}', '#semi=;,dot=.,comma=,'],
  ['X{.var:3}', 'X.val'],
  ['X{.list}', 'X.red,green,blue'],
  ['X{.list*}', 'X.red.green.blue'],
  ['X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
  ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
  ['{/var:1,var}', '/v/value'],
  ['{/list}', '/red,green,blue'],
  ['{/list*}', '/red/green/blue'],
  ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  ['{/keys}', '/semi,%3B,dot,.,comma,%2C'],
  ['{/keys*}', '/semi=%3B/dot=./comma=%2C'],
  ['{;hello:5}', ';hello=Hello'],
  ['{;list}', ';list=red,green,blue'],
  ['{;list*}', ';list=red;list=green;list=blue'],
  ['{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
  ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  ['{?var:3}', '?var=val'],
  ['{?list}', '?list=red,green,blue'],
  ['{?list*}', '?list=red&list=green&list=blue'],
  ['{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
  ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  ['{&var:3}', '&var=val'],
  ['{&list}', '&list=red,green,blue'],
  ['{&list*}', '&list=red&list=green&list=blue'],
  ['{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
  ['{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
];

/** RFC 6570 §3.2.1–§3.2.9, minus the rows §1.2 already covers. */
const SECTION_3: [string, string][] = [
  ['{count}', 'one,two,three'],
  ['{count*}', 'one,two,three'],
  ['{/count}', '/one,two,three'],
  ['{/count*}', '/one/two/three'],
  ['{;count}', ';count=one,two,three'],
  ['{;count*}', ';count=one;count=two;count=three'],
  ['{?count}', '?count=one,two,three'],
  ['{?count*}', '?count=one&count=two&count=three'],
  ['{&count*}', '&count=one&count=two&count=three'],
  ['{half}', '50%25'],
  ['O{empty}X', 'OX'],
  ['O{undef}X', 'OX'],
  ['{x,y}', '1024,768'],
  ['?{x,empty}', '?1024,'],
  ['?{x,undef}', '?1024'],
  ['?{undef,y}', '?768'],
  ['{+half}', '50%25'],
  ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
  ['{+base}index', 'http://example.com/home/index'],
  ['O{+empty}X', 'OX'],
  ['O{+undef}X', 'OX'],
  ['up{+path}{var}/here', 'up/foo/barvalue/here'],
  ['{#var}', '#value'],
  ['{#hello}', '#Hello%20World!'],
  ['{#half}', '#50%25'],
  ['foo{#empty}', 'foo#'],
  ['foo{#undef}', 'foo'],
  ['{.who}', '.fred'],
  ['{.who,who}', '.fred.fred'],
  ['{.half,who}', '.50%25.fred'],
  ['www{.dom*}', 'www.example.com'],
  ['X{.empty}', 'X.'],
  ['X{.undef}', 'X'],
  ['X{.empty_keys}', 'X'],
  ['X{.empty_keys*}', 'X'],
  ['{/who}', '/fred'],
  ['{/who,who}', '/fred/fred'],
  ['{/half,who}', '/50%25/fred'],
  ['{/who,dub}', '/fred/me%2Ftoo'],
  ['{/var,empty}', '/value/'],
  ['{/var,undef}', '/value'],
  ['{;who}', ';who=fred'],
  ['{;half}', ';half=50%25'],
  ['{;empty}', ';empty'],
  ['{;v,empty,who}', ';v=6;empty;who=fred'],
  ['{;v,bar,who}', ';v=6;who=fred'],
  ['{;x,y,undef}', ';x=1024;y=768'],
  ['{?who}', '?who=fred'],
  ['{?half}', '?half=50%25'],
  ['{?x,y,undef}', '?x=1024&y=768'],
  ['{&who}', '&who=fred'],
  ['{&half}', '&half=50%25'],
];

describe('expand: RFC 6570 examples', () => {
  it.each(SECTION_1_2)('§1.2 %s -> %s', (template, expected) => {
    expect(parseTemplate(template).expand(RFC)).toBe(expected);
  });
  it.each(SECTION_3)('§3.2 %s -> %s', (template, expected) => {
    expect(parseTemplate(template).expand(RFC)).toBe(expected);
  });
});

describe('expand: beyond the RFC tables', () => {
  it.each<[string, TemplateValues, string]>([
    ['{x}', { x: 42 }, '42'],
    ['{?flag}', { flag: false }, '?flag=false'],
    ['{name}', { name: 'café ☕' }, 'caf%C3%A9%20%E2%98%95'],
    ['{name:1}', { name: '😀ab' }, '%F0%9F%98%80'], // prefixes count code points, not UTF-16 units
    ['{name}', { name: 'a\uD800b' }, 'a%EF%BF%BDb'], // a lone surrogate becomes U+FFFD
    ['{+p}', { p: '100%' }, '100%25'],
    ['{+p}', { p: '%41%zz' }, '%41%25zz'],
    ['a b{x}', { x: '1' }, 'a%20b1'], // literal characters a URI cannot hold are encoded
    ['{constructor}{toString}', {}, ''], // inherited properties are not values
    ['{a}', { a: null as unknown as string }, ''],
  ])('%s with %j -> %s', (template, values, expected) => {
    expect(parseTemplate(template).expand(values)).toBe(expected);
  });
});

describe('parseTemplate', () => {
  it('lists variables in order without duplicates', () => {
    const t = parseTemplate('{/who,dub}{?who,x*}{#y:3}');
    expect(t.variables).toEqual(['who', 'dub', 'x', 'y']);
    expect(t.template).toBe('{/who,dub}{?who,x*}{#y:3}');
    expect(t.parts[0]).toMatchObject({ type: 'expression', operator: '/', offset: 0 });
  });

  it.each(['', 'plain/uri', '{a.b}', '{a%20b}', '{var:9999}', '{_x,Y9*}', '{.a.b.c:12}'])(
    'accepts %j',
    (template) => {
      expect(() => parseTemplate(template)).not.toThrow();
    },
  );

  it.each<[string, number, RegExp]>([
    ['{var', 0, /unclosed/],
    ['a{b', 1, /unclosed/],
    ['{a{b}', 0, /unclosed/],
    ['a}b', 1, /unmatched/],
    ['{=var}', 1, /reserved operator/],
    ['{!var}', 1, /reserved operator/],
    ['{|var}', 1, /reserved operator/],
    ['{,var}', 1, /reserved operator/],
    ['{}', 1, /variable name/],
    ['{+}', 2, /variable name/],
    ['{a,}', 3, /variable name/],
    ['{.}', 2, /variable name/],
    ['{a.,b}', 3, /variable name/],
    ['{%zz}', 1, /variable name/],
    ['{a b}', 2, /unexpected character/],
    ['{a-b}', 2, /unexpected character/],
    ['{a..b}', 2, /unexpected character/],
    ['{a.}', 2, /unexpected character/],
    ['{var:}', 5, /prefix/],
    ['{var:0}', 5, /prefix/],
    ['{var:01}', 5, /prefix/],
    ['{var:10000}', 5, /prefix/],
    ['{var:x}', 5, /prefix/],
    ['{var:3*}', 6, /unexpected character/],
    ['{var**}', 5, /unexpected character/],
  ])('rejects %j at offset %i', (template, offset, reason) => {
    let error: unknown;
    try {
      parseTemplate(template);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TemplateSyntaxError);
    expect(error).toBeInstanceOf(Error);
    expect((error as TemplateSyntaxError).offset).toBe(offset);
    expect((error as TemplateSyntaxError).message).toMatch(reason);
  });
});

describe('isTemplate', () => {
  it.each<[string, boolean]>([
    ['file:///{+path}', true],
    ['{a}', true],
    ['file:///plain.txt', false],
    ['', false],
    ['broken{', false],
    ['a}', false],
  ])('%j -> %s', (s, expected) => {
    expect(isTemplate(s)).toBe(expected);
  });
});
