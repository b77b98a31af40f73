import { describe, expect, it } from 'vitest';
import { mimeCompatible, mimeContradiction } from './audit-mime.js';

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
