import { describe, expect, it } from 'vitest';
import { isMcpKitError } from '../errors/mcpkit-error.js';
import {
  audio,
  blobContents,
  embeddedResource,
  image,
  resourceLink,
  text,
  textContents,
} from './builders.js';
import { parseContentBlock, parseContentBlocks } from './parse.js';

const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
  0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
]);
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

describe('parseContentBlock (strict)', () => {
  it.each<[string, unknown]>([
    ['text', text('hi', { annotations: { priority: 1 } })],
    ['image', image(PNG, 'image/png')],
    ['audio', audio(new Uint8Array([1]), 'audio/ogg', { _meta: { a: 1 } })],
    [
      'link',
      resourceLink({
        uri: 'https://x.test/a?b=c',
        name: 'a',
        size: 0,
        icons: [{ src: 'data:image/png;base64,AAAA' }],
      }),
    ],
    [
      'embedded text',
      embeddedResource(textContents(u, 'x'), { annotations: { audience: ['user'] } }),
    ],
    ['embedded blob', embeddedResource(blobContents(u, PNG, 'image/png'))],
  ])('accepts what the builders make: %s', (_name, block) => {
    expect(parseContentBlock(block)).toEqual(block);
  });

  it.each<[string, unknown, string]>([
    ['not an object', 'hi', 'content[2] must be a content block object, got "hi"'],
    [
      'unknown type',
      { type: 'video' },
      'content[2].type must be one of text, image, audio, resource, resource_link; got "video"',
    ],
    ['text missing', { type: 'text' }, 'content[2].text must be a string, got undefined'],
    [
      'unknown field',
      { type: 'text', text: 'x', extra: 1 },
      'content[2].extra is not a field of a text block',
    ],
    [
      'near-miss field',
      { type: 'image', data: 'AAAA', mimeType: 'image/png', mimetype: 'x' },
      'content[2].mimetype is not a field of an image block (did you mean mimeType?)',
    ],
    [
      'bad annotations',
      { type: 'text', text: 'x', annotations: { priority: 2 } },
      'content[2].annotations.priority must be a number from 0 to 1, got 2',
    ],
    [
      'annotations Date-free',
      { type: 'text', text: 'x', annotations: { lastModified: 5 } },
      'content[2].annotations.lastModified must be an ISO 8601',
    ],
    [
      'bad _meta',
      { type: 'text', text: 'x', _meta: 'm' },
      'content[2]._meta must be an object, got "m"',
    ],
    [
      'image data',
      { type: 'image', data: 'AAA', mimeType: 'image/png' },
      'content[2].data is not canonical base64 at offset 3',
    ],
    ['image mime missing', { type: 'image', data: 'AAAA' }, 'content[2].mimeType is missing'],
    [
      'image mime wrong',
      { type: 'image', data: 'AAAA', mimeType: 'audio/wav' },
      'content[2].mimeType must be an image/* type, got "audio/wav"',
    ],
    [
      'audio mime wrong',
      { type: 'audio', data: 'AAAA', mimeType: 'video/mp4' },
      'content[2].mimeType must be an audio/* type',
    ],
    [
      'link uri',
      { type: 'resource_link', uri: '/rel', name: 'x' },
      'content[2].uri is not a valid URI',
    ],
    [
      'link name',
      { type: 'resource_link', uri: u },
      'content[2].name must be a string, got undefined',
    ],
    [
      'link size',
      { type: 'resource_link', uri: u, name: 'a', size: '3' },
      'content[2].size must be a non-negative integer',
    ],
    [
      'link title',
      { type: 'resource_link', uri: u, name: 'a', title: 3 },
      'content[2].title must be a string',
    ],
    [
      'link mime',
      { type: 'resource_link', uri: u, name: 'a', mimeType: 'pdf' },
      'content[2].mimeType must be a MIME type',
    ],
    [
      'link icon',
      { type: 'resource_link', uri: u, name: 'a', icons: [{ src: 'file:///i.png' }] },
      'content[2].icons[0].src must be an https:, http: or data: URI',
    ],
    [
      'link icon theme',
      { type: 'resource_link', uri: u, name: 'a', icons: [{ src: 'https://x/i', theme: 'blue' }] },
      'content[2].icons[0].theme must be "light" or "dark"',
    ],
    [
      'resource missing',
      { type: 'resource' },
      'content[2].resource must be an object, got undefined',
    ],
    [
      'resource uri',
      { type: 'resource', resource: { text: 'x' } },
      'content[2].resource.uri must be a URI string, got undefined',
    ],
    [
      'resource neither',
      { type: 'resource', resource: { uri: u } },
      'content[2].resource needs a "text" or a "blob" field',
    ],
    [
      'resource both',
      { type: 'resource', resource: { uri: u, text: 'x', blob: 'AAAA' } },
      'content[2].resource has both "text" and "blob"',
    ],
    [
      'resource text type',
      { type: 'resource', resource: { uri: u, text: 5 } },
      'content[2].resource.text must be a string, got 5',
    ],
    [
      'resource blob base64',
      {
        type: 'resource',
        resource: { uri: u, mimeType: 'image/png', blob: 'iVBORw0KGgoAAAANSUhEU*' },
      },
      'content[2].resource.blob is not canonical base64 at offset 21',
    ],
    [
      'resource blob mime',
      { type: 'resource', resource: { uri: u, blob: 'AAAA' } },
      'content[2].resource.mimeType is missing',
    ],
    [
      'annotations inside resource',
      { type: 'resource', resource: { uri: u, text: 'x', annotations: { priority: 1 } } },
      'content[2].resource.annotations is misplaced: annotations belong at the top level of an embedded resource (content[2].annotations)',
    ],
    [
      'resource unknown field',
      { type: 'resource', resource: { uri: u, text: 'x', name: 'n' } },
      'content[2].resource.name is not a field of resource contents',
    ],
  ])('%s', (_name, value, message) => {
    const actual = messageOf(() => parseContentBlock(value, 'content[2]'));
    expect(actual).toContain(message);
    expect(actual.startsWith('content[2]')).toBe(true);
  });

  it('parseContentBlocks names the index', () => {
    expect(messageOf(() => parseContentBlocks([text('a'), { type: 'text', text: 1 }]))).toContain(
      'content[1].text',
    );
    expect(messageOf(() => parseContentBlocks({}))).toContain('content must be an array');
    expect(parseContentBlocks([text('a')])).toEqual([text('a')]);
  });
});
