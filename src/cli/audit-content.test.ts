import { describe, expect, it } from 'vitest';
import {
  checkBlocks,
  checkReadContents,
  sizeContradicts,
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
    expect(items.map((i) => i.text)).toEqual([true, false, false, false, false, false, true]);
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

describe('checkBlocks: image and audio against the block budget', () => {
  it('reports an image or audio block whose data is over the budget on the wire', async () => {
    const ctx = context(100);
    const data = Buffer.concat([PNG, Buffer.alloc(100)]).toString('base64');
    const blocks = [
      { type: 'image', mimeType: 'image/png', data },
      { type: 'audio', mimeType: 'audio/wav', data: Buffer.alloc(90).toString('base64') },
      { type: 'image', mimeType: 'image/png', data: PNG.toString('base64') },
    ].map((block, i) => ({ block, path: `/messages/${i}/content` }));
    await checkBlocks(blocks, { method: 'prompts/get', name: 'p' }, ctx, []);
    expect(codes(ctx)).toEqual([
      'embed-over-budget /messages/0/content',
      'embed-over-budget /messages/1/content',
    ]);
    expect(ctx.log.findings[0]?.message).toMatch(
      /^an embedded image block of \d+ bytes on the wire, over the block budget of 100/,
    );
    expect(ctx.log.findings[1]?.message).toMatch(/^an embedded audio block/);
  });
});

describe('sizeContradicts', () => {
  it('forgives a text item 3 bytes short: a UTF-8 byte order mark the server dropped', () => {
    expect(sizeContradicts(8, { uri: 'x:/t', bytes: 5, text: true })).toBe(false);
    expect(sizeContradicts(5, { uri: 'x:/t', bytes: 5, text: true })).toBe(false);
    expect(sizeContradicts(8, { uri: 'x:/b', bytes: 5, text: false })).toBe(true);
    expect(sizeContradicts(9, { uri: 'x:/t', bytes: 5, text: true })).toBe(true);
    expect(sizeContradicts(2, { uri: 'x:/t', bytes: 5, text: true })).toBe(true);
  });
});
