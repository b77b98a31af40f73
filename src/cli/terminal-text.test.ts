import { describe, expect, it } from 'vitest';
import { shownText, terminalJson } from './terminal-text.js';

describe('shownText', () => {
  it.each([
    ['plain text, é ü 中文 🎉', 'plain text, é ü 中文 🎉'],
    ['back\\slash "quotes"', 'back\\slash "quotes"'],
    ['\x1b[2J\x1b]0;title\x07', '\\x1b[2J\\x1b]0;title\\x07'],
    ['a\nb\tc\rd', 'a\\nb\\tc\\rd'],
    ['\x00\x7f', '\\x00\\x7f'],
    ['\u009b31m', '\\x9b31m'],
    ['\u0085', '\\x85'],
    ['abc\u202edef\u202a\u202c', 'abc\\u202edef\\u202a\\u202c'],
    ['\u2066x\u2069', '\\u2066x\\u2069'],
    ['\u200e\u200f\u061c', '\\u200e\\u200f\\u061c'],
    ['line\u2028sep\u2029', 'line\\u2028sep\\u2029'],
    ['lone \ud800 high', 'lone \\ud800 high'],
    ['lone \udc00 low', 'lone \\udc00 low'],
  ])('%j', (input, expected) => {
    expect(shownText(input)).toBe(expected);
  });

  it('keeps line feeds and tabs when multiline, never a carriage return or an escape', () => {
    expect(shownText('a\nb\tc\r\x1b[1m', { multiline: true })).toBe('a\nb\tc\\r\\x1b[1m');
  });

  it('is the same string when nothing needs escaping', () => {
    const value = 'x'.repeat(1000);
    expect(shownText(value)).toBe(value);
  });
});

describe('shownText: invisible format characters', () => {
  it.each([
    ['file:///a\u200b.md', 'file:///a\\u200b.md'],
    ['a\u200db', 'a\\u200db'],
    ['a\u2060b', 'a\\u2060b'],
    ['\ufeffhead', '\\ufeffhead'],
    ['soft\u00adhyphen', 'soft\\xadhyphen'],
    ['tag\u{e0041}\u{e007f}', 'tag\\u{e0041}\\u{e007f}'],
    ['emoji 😀 stays', 'emoji 😀 stays'],
    ['lone \ud800 high', 'lone \\ud800 high'],
    ['lone \udc00 low', 'lone \\udc00 low'],
  ])('%j is shown as %j', (raw, shown) => {
    expect(shownText(raw)).toBe(shown);
  });
});

describe('terminalJson', () => {
  it('escapes C1 and format characters and stays the same JSON', () => {
    const value = { name: 'a\u009b31m\u202e\u200b\u{e0041}b', plain: 'é 😀', ctl: '\u001b' };
    const out = terminalJson(value);
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202e]/u);
    expect(out).toContain('a\\u009b31m\\u202e\\u200b\\udb40\\udc41b');
    expect(out).toContain('é 😀');
    expect(JSON.parse(out)).toEqual(value);
  });
});
