import { describe, expect, it } from 'vitest';
import { hasTextBom, mimeCompatible, mimeContradiction } from './audit-mime.js';

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);

describe('mimeCompatible', () => {
  it.each([
    ['image/png', 'image/png', true],
    ['IMAGE/PNG; x=y', 'image/png', true],
    ['image/jpg', 'image/jpeg', true],
    ['application/octet-stream', 'image/png', true],
    ['video/mp4', 'audio/mp4', true],
    ['application/ogg', 'audio/ogg', true],
    [
      'application/zip',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      true,
    ],
    [
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/zip',
      true,
    ],
    ['image/svg+xml', 'application/xml', true],
    ['image/jpeg', 'image/png', false],
    ['text/html', 'image/png', false],
    ['application/pdf', 'image/gif', false],
  ])('%s vs sniffed %s: %s', (declared, sniffed, expected) => {
    expect(mimeCompatible(declared, sniffed)).toBe(expected);
  });
});

describe('mimeContradiction', () => {
  it('names what the bytes are', async () => {
    expect(await mimeContradiction('image/jpeg', PNG)).toBe(
      'declared image/jpeg, but the bytes are image/png',
    );
    expect(await mimeContradiction('image/png', PNG)).toBeUndefined();
    expect(await mimeContradiction('image/png', new TextEncoder().encode('just text'))).toBe(
      'declared image/png, but the bytes are text',
    );
    expect(
      await mimeContradiction('application/json', new TextEncoder().encode('{}')),
    ).toBeUndefined();
    expect(
      await mimeContradiction('image/svg+xml', new TextEncoder().encode('<svg/>')),
    ).toBeUndefined();
    expect(await mimeContradiction('image/png', new Uint8Array())).toBeUndefined();
    expect(
      await mimeContradiction('application/x-thing', Uint8Array.from([0, 1, 2, 0xff])),
    ).toBeUndefined();
  });
});

/** An MPEG-1 Layer III frame (128 kbit/s, 44.1 kHz): 417 bytes, its header first. */
function mpegFrame(): Uint8Array {
  const frame = new Uint8Array(417);
  frame.set([0xff, 0xfb, 0x90, 0x00]);
  return frame;
}

describe('mimeContradiction: text, and the weak MPEG frame sync', () => {
  const u16le = Uint8Array.from([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]);

  it('trusts a text type over a sniff when the bytes look like text', async () => {
    // file-type calls FF FE… audio/mpeg (its frame sync); it is "hi" in UTF-16LE.
    expect(await mimeContradiction('text/plain', u16le)).toBeUndefined();
    expect(await mimeContradiction('text/markdown; charset=utf-16', u16le)).toBeUndefined();
    const u32le = Uint8Array.from([0xff, 0xfe, 0x00, 0x00, 0x68, 0x00, 0x00, 0x00]);
    expect(await mimeContradiction('text/plain', u32le)).toBeUndefined();
    const u8bom = Uint8Array.from([0xef, 0xbb, 0xbf, 0x68, 0x69]);
    expect(await mimeContradiction('application/json', u8bom)).toBeUndefined();
    // Bytes that are not text are still judged: a PNG declared as text.
    expect(await mimeContradiction('text/plain', PNG)).toBe(
      'declared text/plain, but the bytes are image/png',
    );
  });

  it('takes audio/mpeg only with an ID3 tag or a second frame where the first ends', async () => {
    // One frame header and nothing after it: the sync bits alone.
    const lone = new Uint8Array(600).fill(1);
    lone.set([0xff, 0xfb, 0x90, 0x00]);
    expect(await mimeContradiction('image/png', lone)).toBeUndefined();
    expect(await mimeContradiction('image/png', u16le)).toBeUndefined();
    const two = new Uint8Array([...mpegFrame(), ...mpegFrame()]);
    expect(await mimeContradiction('image/png', two)).toBe(
      'declared image/png, but the bytes are audio/mpeg',
    );
    const id3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0, ...mpegFrame()]);
    expect(await mimeContradiction('image/png', id3)).toBe(
      'declared image/png, but the bytes are audio/mpeg',
    );
    expect(await mimeContradiction('audio/mpeg', two)).toBeUndefined();
  });

  it('knows the byte order marks of UTF-8, UTF-16 and UTF-32', () => {
    for (const bom of [
      [0xef, 0xbb, 0xbf],
      [0xfe, 0xff],
      [0xff, 0xfe],
      [0, 0, 0xfe, 0xff],
    ]) {
      expect(hasTextBom(Uint8Array.from([...bom, 0x41])), String(bom)).toBe(true);
    }
    expect(hasTextBom(Uint8Array.from([0xef, 0xbb]))).toBe(false);
    expect(hasTextBom(PNG)).toBe(false);
  });
});
