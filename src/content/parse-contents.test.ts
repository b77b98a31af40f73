import { describe, expect, it } from 'vitest';
import { isMcpKitError } from '../errors/mcpkit-error.js';
import { blobContents } from './builders.js';
import { parseResourceContents, parseResourceContentsLenient } from './parse-contents.js';

const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
  0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
]);
const PNG_B64 = PNG.toString('base64');
const u = 'file:///a';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (isMcpKitError(error, 'INVALID_CONTENT')) return error.message;
    throw error;
  }
  throw new Error('expected INVALID_CONTENT');
}

describe('parseResourceContents', () => {
  it('strict: accepts builder output and rejects annotations', () => {
    const c = blobContents(u, PNG, 'image/png');
    expect(parseResourceContents(c)).toEqual(c);
    expect(
      messageOf(() => parseResourceContents({ uri: u, text: 'x', annotations: {} }, 'contents[0]')),
    ).toBe('contents[0].annotations is not a field of resource contents');
  });

  it('lenient: sniffs a missing blob mimeType, drops stray annotations, keeps extras', async () => {
    const out = await parseResourceContentsLenient({
      blob: PNG_B64,
      uri: u,
      annotations: {},
      name: 'n',
    });
    expect(out).toEqual({
      contents: { uri: u, mimeType: 'image/png', blob: PNG_B64, name: 'n' },
      warnings: [
        'contents.mimeType is missing; set to "image/png" (sniffed from the bytes)',
        'contents.annotations is not a field of resource contents; dropped',
      ],
    });
  });

  it('lenient: a text contents without mimeType stays as it is', async () => {
    expect(await parseResourceContentsLenient({ uri: u, text: 'x' })).toEqual({
      contents: { uri: u, text: 'x' },
      warnings: [],
    });
  });

  it('lenient: sniffs only a prefix of a large blob', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]).toString('base64');
    const out = await parseResourceContentsLenient({ uri: u, blob: big });
    expect((out.contents as { mimeType: string }).mimeType).toBe('image/png');
  });
});
