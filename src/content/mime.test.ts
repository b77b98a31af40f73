import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BINARY_MIME,
  DEFAULT_TEXT_MIME,
  isTextMimeType,
  looksLikeText,
  mimeFromName,
  resolveMimeType,
  sniffMime,
  type ResolveMimeTypeInput,
} from './mime.js';

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));
// Minimal files built from their magic numbers.
const PNG = new Uint8Array([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a, // signature
  0,
  0,
  0,
  13,
  ...ascii('IHDR'),
  0,
  0,
  0,
  1,
  0,
  0,
  0,
  1,
  8,
  6,
  0,
  0,
  0,
  0x1f,
  0x15,
  0xc4,
  0x89,
]);
const PDF = new Uint8Array(ascii('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n'));
const JPEG = new Uint8Array([
  0xff,
  0xd8,
  0xff,
  0xe0,
  0,
  0x10,
  ...ascii('JFIF'),
  0,
  1,
  1,
  0,
  0,
  1,
  0,
  1,
  0,
  0,
]);
const TEXT = new TextEncoder().encode('Hello, wörld! 👋\n\tindented\r\n');
const BINARY = new Uint8Array([0x00, 0x13, 0x37, 0xfe, 0xed, 0x00, 0x01]);

describe('mimeFromName', () => {
  it.each<[string, string | undefined]>([
    ['report.pdf', 'application/pdf'],
    ['REPORT.PDF', 'application/pdf'],
    ['photo.JpEg', 'image/jpeg'],
    ['/var/data/notes.md', 'text/markdown'],
    ['C:\\data\\table.CSV', 'text/csv'],
    ['file:///docs/a.json?rev=2#top', 'application/json'],
    ['https://x.test/pic.png#frag', 'image/png'],
    ['archive.tar.gz', 'application/gzip'],
    ['index.ts', 'text/x-typescript'],
    ['main.py', 'text/x-python'],
    ['lib.rs', 'text/x-rust'],
    ['events.jsonl', 'application/x-ndjson'],
    ['Makefile', undefined],
    ['.bashrc', undefined],
    ['trailing.', undefined],
    ['blob.unknownext', undefined],
    ['', undefined],
    ['x.constructor', undefined],
    ['x.__proto__', undefined],
    ['x.toString', undefined],
  ])('%j -> %s', (name, expected) => {
    expect(mimeFromName(name)).toBe(expected);
  });

  it('answers the same for an extension asked again (remembered as spelled)', () => {
    for (let i = 0; i < 3; i++) {
      expect(mimeFromName(`a${i}.PDF`)).toBe('application/pdf');
      expect(mimeFromName(`a${i}.pdf`)).toBe('application/pdf');
      expect(mimeFromName(`a${i}.nope`)).toBeUndefined();
    }
  });
});

describe('sniffMime', () => {
  it.each<[string, Uint8Array, string | undefined]>([
    ['PNG', PNG, 'image/png'],
    ['PDF', PDF, 'application/pdf'],
    ['JPEG', JPEG, 'image/jpeg'],
    ['UTF-8 text', TEXT, DEFAULT_TEXT_MIME],
    ['binary with NULs', BINARY, undefined],
    ['invalid UTF-8', new Uint8Array([0x61, 0xc3, 0x28, 0x62]), undefined],
    ['empty', new Uint8Array(0), undefined],
  ])('%s', async (_name, bytes, expected) => {
    expect(await sniffMime(bytes)).toBe(expected);
  });

  it('accepts text whose 8 KiB sample cuts a multi-byte character', async () => {
    const text = new TextEncoder().encode('a'.repeat(8191) + 'é and more');
    expect(looksLikeText(text)).toBe(true);
    expect(await sniffMime(text)).toBe(DEFAULT_TEXT_MIME);
  });

  it('only looks at the first 8 KiB for the text heuristic', () => {
    const bytes = new Uint8Array(9000).fill(0x61);
    bytes[8500] = 0;
    expect(looksLikeText(bytes)).toBe(true);
    bytes[100] = 0;
    expect(looksLikeText(bytes)).toBe(false);
  });
});

describe('names registered as application/octet-stream', () => {
  it('count as unknown, so that the bytes are sniffed', async () => {
    expect(mimeFromName('doc.bin')).toBeUndefined();
    expect(mimeFromName('disk.img')).toBeUndefined();
    expect(await resolveMimeType({ name: 'doc.bin', bytes: PDF })).toEqual({
      mimeType: 'application/pdf',
      source: 'sniffed',
    });
    expect(await resolveMimeType({ name: 'noise.bin', bytes: new Uint8Array([0, 1, 2]) })).toEqual({
      mimeType: DEFAULT_BINARY_MIME,
      source: 'default',
    });
  });
});

describe('resolveMimeType precedence', () => {
  it.each<[string, ResolveMimeTypeInput, string, string]>([
    [
      'declared beats all',
      { declared: 'text/csv', name: 'a.png', bytes: PDF },
      'text/csv',
      'declared',
    ],
    ['blank declared is ignored', { declared: '  ', name: 'a.png' }, 'image/png', 'extension'],
    ['extension beats sniffing', { name: 'a.png', bytes: PDF }, 'image/png', 'extension'],
    ['sniffed PNG', { name: 'scan.unknownext', bytes: PNG }, 'image/png', 'sniffed'],
    ['sniffed PDF', { bytes: PDF }, 'application/pdf', 'sniffed'],
    ['sniffed JPEG', { name: 'IMG_0001', bytes: JPEG }, 'image/jpeg', 'sniffed'],
    ['magic beats the text heuristic', { bytes: PDF }, 'application/pdf', 'sniffed'],
    ['text heuristic', { name: 'README', bytes: TEXT }, 'text/plain', 'sniffed'],
    ['unknown bytes', { name: 'x.unknownext', bytes: BINARY }, DEFAULT_BINARY_MIME, 'default'],
    ['nothing at all', {}, DEFAULT_BINARY_MIME, 'default'],
  ])('%s', async (_name, input, mimeType, source) => {
    expect(await resolveMimeType(input)).toEqual({ mimeType, source });
  });
});

describe('isTextMimeType', () => {
  it.each<[string, boolean]>([
    ['text/plain', true],
    ['text/markdown; charset=utf-8', true],
    ['TEXT/HTML', true],
    ['application/json', true],
    ['application/ld+json', true],
    ['application/vnd.api+json', true],
    ['application/xml', true],
    ['image/svg+xml', true],
    ['application/javascript', true],
    ['application/yaml', true],
    ['application/toml', true],
    ['application/x-sh', true],
    ['application/x-ndjson', true],
    ['application/sql', true],
    ['application/octet-stream', false],
    ['application/pdf', false],
    ['image/png', false],
    ['audio/mpeg', false],
    ['text', false],
    ['', false],
  ])('%s -> %s', (mime, expected) => {
    expect(isTextMimeType(mime)).toBe(expected);
  });
});
