import { describe, expect, it } from 'vitest';
import {
  base64UrlToBytes,
  bytesToBase64Url,
  bytesToHex,
  decodeJsonBase64Url,
  encodeJsonBase64Url,
  utf8,
} from './encoding.js';

describe('base64url', () => {
  it.each([
    ['empty', new Uint8Array(0), ''],
    ['one byte', new Uint8Array([0xff]), '_w'],
    ['the URL-safe characters', new Uint8Array([0xfb, 0xff, 0xbf]), '-_-_'],
    ['two bytes, unpadded', new Uint8Array([0, 1]), 'AAE'],
  ])('encodes %s without padding', (_what, bytes, text) => {
    expect(bytesToBase64Url(bytes)).toBe(text);
    expect(base64UrlToBytes(text)).toEqual(bytes);
  });

  it('round-trips every byte value across more than one 0x8000 chunk', () => {
    const bytes = new Uint8Array(0x8000 * 2 + 7);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 8)) & 0xff;
    const text = bytesToBase64Url(bytes);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(text).toBe(Buffer.from(bytes).toString('base64url'));
    const back = base64UrlToBytes(text) ?? new Uint8Array(0);
    expect(Buffer.compare(back, bytes)).toBe(0); // toEqual on 64 KiB is slow
  });

  it.each([
    ['standard +', 'ab+c'],
    ['standard /', 'ab/c'],
    ['padding', 'AAE='],
    ['a space', 'AA E'],
    ['a line break', 'AAE\n'],
    ['a non-ASCII letter', 'AAé'],
    ['an impossible length', 'A'],
    ['another impossible length', 'AAAAA'],
  ])('refuses %s', (_what, text) => {
    expect(base64UrlToBytes(text)).toBeUndefined();
  });
});

describe('JSON in base64url', () => {
  it.each([
    ['an object', { o: 2, k: 'tool', nested: [1, null, true] }],
    ['non-ASCII text', { k: 'héllo ✓ 𝄞' }],
    ['a number', 42],
    ['null', null],
  ])('round-trips %s', (_what, value) => {
    const text = encodeJsonBase64Url(value);
    expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
    expect(decodeJsonBase64Url(text)).toEqual(value);
  });

  it.each([
    ['not base64url', '***'],
    ['not JSON', bytesToBase64Url(utf8('{not json'))],
    ['empty', ''],
    ['invalid UTF-8', bytesToBase64Url(new Uint8Array([0x22, 0xff, 0x22]))],
  ])('gives undefined for %s', (_what, text) => {
    expect(decodeJsonBase64Url(text)).toBeUndefined();
  });
});

describe('utf8 and bytesToHex', () => {
  it('encodes UTF-8 and writes lowercase, zero-padded hex', () => {
    expect([...utf8('é')]).toEqual([0xc3, 0xa9]);
    expect(bytesToHex(new Uint8Array([0, 1, 0xab, 0xff]))).toBe('0001abff');
    expect(bytesToHex(new Uint8Array(0))).toBe('');
  });
});
