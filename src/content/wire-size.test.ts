import { describe, expect, it } from 'vitest';
import type { ContentBlock, ResourceContents } from '../protocol/types.js';
import {
  contentWireSize,
  jsonStringWireSize,
  jsonUtf8WireSize,
  resourceContentsWireSize,
  textSizes,
  utf8Length,
} from './wire-size.js';

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

const STRINGS: [string, string][] = [
  ['empty', ''],
  ['ascii', 'hello world'],
  ['quotes and backslashes', 'say "hi" \\ bye'],
  ['short escapes', '\b\f\n\r\t'],
  ['other controls', '\u0000\u0001\u001f\u000b'],
  ['DEL and C1', '\u007f\u0080\u009f'],
  ['latin and greek', 'café Ωμέγα'],
  ['CJK', '漢字かな'],
  ['emoji', '👍🏽 family: 👨‍👩‍👧'],
  ['line separators', '\u2028\u2029'],
  ['lone high surrogate', 'a\ud800b'],
  ['lone low surrogate', 'a\udc00b'],
  ['reversed pair', '\udc00\ud800'],
  ['high at the end', 'x\ud83d'],
  ['BOM and private use', '\ufeff\ue000\uffff'],
  ['mixed', 'line1\n"q"\t😀\u0007é\\'],
];

describe('jsonStringWireSize', () => {
  it.each(STRINGS)('%s', (_name, text) => {
    expect(jsonStringWireSize(text)).toBe(bytesOf(text));
  });

  it('matches on every code unit 0..0xFFFF', () => {
    let all = '';
    for (let c = 0; c <= 0xffff; c++) all += String.fromCharCode(c);
    expect(jsonStringWireSize(all)).toBe(bytesOf(all));
  });
});

describe('jsonUtf8WireSize', () => {
  // UTF-8 holds no lone surrogate: those cases have no bytes to size.
  const wellFormed = STRINGS.filter(
    ([, text]) => new TextDecoder().decode(new TextEncoder().encode(text)) === text,
  );
  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
  /** `bytes` copied at byte offset `at` of a larger buffer: every alignment of the word scan. */
  const at = (bytes: Uint8Array, offset: number): Uint8Array => {
    const buffer = new Uint8Array(bytes.length + 8);
    buffer.set(bytes, offset);
    return buffer.subarray(offset, offset + bytes.length);
  };

  it.each(wellFormed)('%s, at every alignment', (_name, text) => {
    for (let offset = 0; offset < 4; offset++)
      expect(jsonUtf8WireSize(at(encode(text), offset))).toBe(bytesOf(text));
  });

  it('matches on every ASCII byte, alone and in words of other bytes', () => {
    for (let b = 0; b < 0x80; b++) {
      const one = String.fromCharCode(b);
      for (const text of [one, `abc${one}`, `${one}xyz1234`, `ab${one}${one}cd${one}é`])
        for (let offset = 0; offset < 4; offset++)
          expect(jsonUtf8WireSize(at(encode(text), offset))).toBe(bytesOf(text));
    }
  });

  it('matches on random UTF-8 of every length up to 64', () => {
    const pool = [
      'a',
      ' ',
      '"',
      '\\',
      '\n',
      '\t',
      '\u0000',
      '\u001f',
      '\u007f',
      'é',
      'Ω',
      '漢',
      '😀',
      '\u2028',
    ];
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let length = 0; length <= 64; length++) {
      let text = '';
      for (let i = 0; i < length; i++) text += pool[Math.floor(next() * pool.length)];
      expect(jsonUtf8WireSize(at(encode(text), length % 4))).toBe(bytesOf(text));
    }
  });
});

describe('utf8Length', () => {
  it.each(STRINGS)('%s', (_name, text) => {
    expect(utf8Length(text)).toBe(Buffer.byteLength(text));
  });
});

const meta = { 'dev.mcpkit/x': 'ü"', nested: [1, null, { a: '😀' }] };
const BLOCKS: [string, ContentBlock][] = [
  ...STRINGS.map(([name, text]): [string, ContentBlock] => [
    `text: ${name}`,
    { type: 'text', text },
  ]),
  [
    'text with annotations and _meta',
    {
      type: 'text',
      text: 'é\n"',
      annotations: { audience: ['user'], priority: 0.25 },
      _meta: meta,
    },
  ],
  ['image', { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
  ['audio with meta', { type: 'audio', data: 'AAAA', mimeType: 'audio/wav', _meta: meta }],
  [
    'resource link',
    {
      type: 'resource_link',
      uri: 'file:///r%C3%A9sum%C3%A9.pdf',
      name: 'résumé "cv"',
      size: 12,
      title: '履歴書',
    },
  ],
  [
    'embedded text',
    {
      type: 'resource',
      resource: {
        uri: 'file:///a.md',
        mimeType: 'text/markdown',
        text: '# Título\n\t"x" 👍\u0001',
      },
      annotations: { lastModified: '2025-01-12T15:00:58Z' },
    },
  ],
  [
    'embedded blob',
    {
      type: 'resource',
      resource: {
        uri: 'file:///a.bin',
        mimeType: 'application/octet-stream',
        blob: 'AAECAw==',
        _meta: meta,
      },
      _meta: meta,
    },
  ],
];

describe('contentWireSize', () => {
  it.each(BLOCKS)('%s', (_name, block) => {
    expect(contentWireSize(block)).toBe(bytesOf(block));
  });

  it('counts a big text without building a second copy of it', () => {
    const block: ContentBlock = { type: 'text', text: 'é"\n😀'.repeat(200_000) };
    expect(contentWireSize(block)).toBe(bytesOf(block));
  });
});

describe('resourceContentsWireSize', () => {
  it.each<[string, ResourceContents]>([
    ['text', { uri: 'file:///a.txt', text: 'ü\n' }],
    [
      'text with mime and meta',
      { uri: 'file:///a.txt', mimeType: 'text/plain', text: '"', _meta: meta },
    ],
    ['blob', { uri: 'file:///a.bin', mimeType: 'image/png', blob: 'AAAA' }],
  ])('%s', (_name, contents) => {
    expect(resourceContentsWireSize(contents)).toBe(bytesOf(contents));
  });
});

describe('textSizes', () => {
  it.each([
    ['ascii', 'plain text'],
    ['escapes', 'a"b\\c\n\t\b\f\r'],
    ['controls', '\u0000\u0001\u001f'],
    ['two and three bytes', 'é€ü'],
    ['a surrogate pair', '😀x'],
    ['lone surrogates', '\ud800a\udc00\ud83d'],
    ['empty', ''],
  ])('%s: the UTF-8 length and the JSON string size of one scan', (_name, text) => {
    expect(textSizes(text)).toEqual({
      utf8: Buffer.byteLength(text, 'utf8'),
      json: Buffer.byteLength(JSON.stringify(text), 'utf8'),
    });
  });
});
