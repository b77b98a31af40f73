import { describe, expect, it } from 'vitest';
import {
  checkBlocks,
  checkReadContents,
  type ContentContext,
  type LinkMet,
} from './audit-content.js';
import { FindingLog } from './audit-findings.js';

const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);

function context(blockBudgetBytes = 1024): ContentContext {
  return { era: 'modern', transport: 'stdio', log: new FindingLog(), blockBudgetBytes };
}

const codes = (ctx: ContentContext) => ctx.log.findings.map((f) => `${f.code} ${f.path ?? ''}`);

describe('checkReadContents', () => {
  it('measures decoded bytes and judges each blob', async () => {
    const ctx = context();
    const items = await checkReadContents(
      {
        contents: [
          { uri: 'x:/t', text: 'héllo' },
          { uri: 'x:/ok', mimeType: 'image/png', blob: PNG.toString('base64') },
          { uri: 'x:/bad', mimeType: 'image/png', blob: 'no!' },
          { uri: 'x:/nc', mimeType: 'image/png', blob: PNG.toString('base64').replace(/=+$/, '') },
          { uri: 'x:/nomime', blob: 'AAAA' },
          { uri: 'x:/lie', mimeType: 'image/gif', blob: PNG.toString('base64') },
          { uri: 'not a uri', text: '' },
        ],
      },
      { method: 'resources/read' },
      ctx,
    );
    expect(items.map((i) => i.bytes)).toEqual([6, 16, 2, 16, 3, 16, 0]);
    expect(codes(ctx)).toEqual([
      'blob-invalid-base64 /contents/2/blob',
      'blob-noncanonical-base64 /contents/3/blob',
      'blob-missing-mime /contents/4/mimeType',
      'mime-mismatch /contents/5/mimeType',
      'uri-invalid /contents/6/uri',
    ]);
  });
});

describe('checkBlocks', () => {
  it('checks image data, embedded resources against the block budget, and collects links', async () => {
    const ctx = context(100);
    const links: LinkMet[] = [];
    const blocks = [
      { type: 'text', text: 'hi' },
      { type: 'image', mimeType: 'image/png', data: 'a!b' },
      {
        type: 'resource',
        resource: { uri: 'x:/big', mimeType: 'text/plain', text: 'x'.repeat(200) },
      },
      { type: 'resource', resource: { uri: 'x:/small', mimeType: 'text/plain', text: 'x' } },
      { type: 'resource_link', uri: 'x:/l', name: 'l', mimeType: 'text/plain', size: 3 },
      { type: 'resource_link', uri: 'bad\u0000uri', name: 'bad' },
    ].map((block, i) => ({ block, path: `/content/${i}` }));
    await checkBlocks(blocks, { method: 'tools/call', name: 't' }, ctx, links);
    expect(codes(ctx)).toEqual([
      'blob-invalid-base64 /content/1/data',
      'embed-over-budget /content/2',
      'uri-invalid /content/5/uri',
    ]);
    expect(links).toEqual([
      {
        uri: 'x:/l',
        name: 'l',
        mimeType: 'text/plain',
        size: 3,
        place: { method: 'tools/call', name: 't' },
        path: '/content/4',
      },
    ]);
  });
});
