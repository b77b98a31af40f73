import { describe, expect, it } from 'vitest';
import {
  audio,
  blobContents,
  embeddedResource,
  image,
  resourceLink,
  text,
  textContents,
} from './builders.js';

const PIXEL = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
const PIXEL_B64 = 'iVBORw==';
const when = new Date(Date.UTC(2025, 0, 12, 15, 0, 58));

/** toEqual plus the exact key order (JSON text is what goes on the wire). */
function expectExactly(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe('builders produce the spec shapes exactly', () => {
  it.each<[string, () => unknown, unknown]>([
    ['text', () => text('hi'), { type: 'text', text: 'hi' }],
    [
      'text with options',
      () => text('hi', { annotations: { priority: 0.5, audience: ['user'] }, _meta: { k: 1 } }),
      {
        type: 'text',
        text: 'hi',
        annotations: { audience: ['user'], priority: 0.5 },
        _meta: { k: 1 },
      },
    ],
    [
      'text with empty annotations',
      () => text('hi', { annotations: {} }),
      { type: 'text', text: 'hi' },
    ],
    [
      'image from bytes',
      () => image(PIXEL, 'image/png'),
      { type: 'image', data: PIXEL_B64, mimeType: 'image/png' },
    ],
    [
      'image from base64 with a date',
      () => image(PIXEL_B64, 'image/png', { annotations: { lastModified: when } }),
      {
        type: 'image',
        data: PIXEL_B64,
        mimeType: 'image/png',
        annotations: { lastModified: '2025-01-12T15:00:58.000Z' },
      },
    ],
    [
      'audio',
      () => audio(new Uint8Array([1, 2, 3]), 'audio/wav'),
      { type: 'audio', data: 'AQID', mimeType: 'audio/wav' },
    ],
    [
      'embedded text resource with top-level annotations',
      () =>
        embeddedResource(textContents('file:///a.md', '# A', 'text/markdown'), {
          annotations: { audience: ['assistant'], priority: 1 },
        }),
      {
        type: 'resource',
        resource: { uri: 'file:///a.md', mimeType: 'text/markdown', text: '# A' },
        annotations: { audience: ['assistant'], priority: 1 },
      },
    ],
    [
      'embedded blob resource',
      () =>
        embeddedResource(blobContents('file:///p.png', PIXEL, 'image/png'), { _meta: { m: true } }),
      {
        type: 'resource',
        resource: { uri: 'file:///p.png', mimeType: 'image/png', blob: PIXEL_B64 },
        _meta: { m: true },
      },
    ],
    [
      'embedded resource reorders hand-written contents',
      () => embeddedResource({ text: 'x', mimeType: 'text/plain', uri: 'memo://1' }),
      { type: 'resource', resource: { uri: 'memo://1', mimeType: 'text/plain', text: 'x' } },
    ],
    [
      'minimal resource link',
      () => resourceLink({ uri: 'file:///r.pdf', name: 'r.pdf' }),
      { type: 'resource_link', uri: 'file:///r.pdf', name: 'r.pdf' },
    ],
    [
      'full resource link',
      () =>
        resourceLink({
          _meta: { z: 1 },
          annotations: { priority: 0.2 },
          icons: [
            { src: 'https://x.test/i.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' },
          ],
          size: 1024,
          mimeType: 'application/pdf',
          description: 'Q3',
          title: 'Report',
          name: 'report',
          uri: 'file:///r.pdf',
        }),
      {
        type: 'resource_link',
        uri: 'file:///r.pdf',
        name: 'report',
        title: 'Report',
        description: 'Q3',
        mimeType: 'application/pdf',
        size: 1024,
        icons: [
          { src: 'https://x.test/i.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' },
        ],
        annotations: { priority: 0.2 },
        _meta: { z: 1 },
      },
    ],
    [
      'link with undefined optionals',
      () => resourceLink({ uri: 'file:///r', name: 'r', title: undefined, size: undefined }),
      { type: 'resource_link', uri: 'file:///r', name: 'r' },
    ],
    [
      'textContents default mime',
      () => textContents('file:///a.txt', 'x'),
      { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'x' },
    ],
    [
      'textContents with _meta',
      () => textContents('file:///a.csv', 'a,b', 'text/csv', { k: 'v' }),
      { uri: 'file:///a.csv', mimeType: 'text/csv', text: 'a,b', _meta: { k: 'v' } },
    ],
    [
      'blobContents from base64',
      () => blobContents('file:///b', 'AAAA', 'application/octet-stream'),
      { uri: 'file:///b', mimeType: 'application/octet-stream', blob: 'AAAA' },
    ],
  ])('%s', (_name, build, expected) => {
    expectExactly(build(), expected);
  });

  it('never emits undefined-valued keys', () => {
    const blocks = [
      text('x', { annotations: undefined, _meta: undefined }),
      resourceLink({
        uri: 'a:b',
        name: 'n',
        mimeType: undefined,
        icons: undefined,
        annotations: undefined,
      }),
    ];
    for (const block of blocks) expect(Object.values(block)).not.toContain(undefined);
  });
});
