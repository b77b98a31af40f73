import { describe, expect, it } from 'vitest';
import type { ReadResourceResult } from '../protocol/types.js';
import { PART_META_KEY } from './policy.js';
import { readResourceTool, type ReadToolSource } from './readable-links.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
// A zip's first bytes, not UTF-8: decoded as text they would turn into U+FFFD.
const BYTES = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0xff, 0xfe, 0x80, 0x81]);
const B64 = Buffer.from(BYTES).toString('base64');

/** A part's meta as a server writes it: the whole resource, and where its parts are read. */
const part = (uri: string, size: number) => ({
  offset: 0,
  length: size,
  size,
  next: `${uri.replace(/\?.*$/, '')}?offset=0&length=${size}`,
});

/** A server that gives `file:///r.docx` in one part (as it does a resource too large to read whole). */
function source(mimeType: string): ReadToolSource {
  return {
    read: async (uri) =>
      ({
        contents: [
          {
            uri,
            mimeType,
            blob: B64,
            _meta: { [PART_META_KEY]: part(uri, BYTES.length) },
          },
        ],
      }) as unknown as ReadResourceResult,
    list: async () => ({ resources: [] }),
  };
}

describe('read_resource over a resource read in parts', () => {
  it('gives a binary type whose name holds "xml" as base64, never as decoded text', async () => {
    const result = await readResourceTool(source(DOCX), { uri: 'file:///r.docx' });
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: 'text', text: B64 }]);
  });

  it('gives a text type as its exact text', async () => {
    const text = 'plain words';
    const src: ReadToolSource = {
      ...source('text/plain'),
      read: async (uri) =>
        ({
          contents: [
            {
              uri,
              mimeType: 'application/json',
              text,
              _meta: { [PART_META_KEY]: part(uri, 11) },
            },
          ],
        }) as unknown as ReadResourceResult,
    };
    const result = await readResourceTool(src, { uri: 'file:///r.json' });
    expect(result.content).toEqual([{ type: 'text', text }]);
  });
});
