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

const PIXEL = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

function expectInvalidContent(build: () => unknown, message: string): void {
  let caught: unknown;
  try {
    build();
  } catch (error) {
    caught = error;
  }
  expect(isMcpKitError(caught, 'INVALID_CONTENT')).toBe(true);
  expect((caught as Error).message).toContain(message);
}

describe('builder errors name the field', () => {
  it.each<[string, () => unknown, string]>([
    [
      'text not a string',
      () => text(42 as unknown as string),
      'text.text must be a string, got 42',
    ],
    [
      'bad priority',
      () => text('x', { annotations: { priority: 1.5 } }),
      'text.annotations.priority must be a number from 0 to 1, got 1.5',
    ],
    [
      'bad audience',
      () => image(PIXEL, 'image/png', { annotations: { audience: ['bot' as 'user'] } }),
      'image.annotations.audience[0] must be "user" or "assistant"',
    ],
    [
      'unknown option',
      () => text('x', { annotation: {} } as never),
      'text.annotation is not a content option',
    ],
    ['bad _meta', () => text('x', { _meta: [] as never }), 'text._meta must be an object'],
    [
      'image mime missing',
      () => image(PIXEL, undefined as unknown as string),
      'image.mimeType is required',
    ],
    [
      'image mime wrong type',
      () => image(PIXEL, 'application/pdf'),
      'image.mimeType must be an image/* type, got "application/pdf"',
    ],
    [
      'image mime malformed',
      () => image(PIXEL, 'png'),
      'image.mimeType must be a MIME type like "text/plain"',
    ],
    [
      'audio mime wrong type',
      () => audio(PIXEL, 'image/png'),
      'audio.mimeType must be an audio/* type',
    ],
    [
      'image data not base64',
      () => image('iVBO Rw==', 'image/png'),
      'image.data is not canonical base64 at offset 4',
    ],
    [
      'blob not canonical',
      () => blobContents('file:///b', 'AB==', 'x/y'),
      'blobContents.blob is not canonical base64 at offset 1',
    ],
    [
      'blob needs mime',
      () => blobContents('file:///b', PIXEL, undefined as unknown as string),
      'blobContents.mimeType is required',
    ],
    [
      'blob bad uri',
      () => blobContents('no scheme', PIXEL, 'image/png'),
      'blobContents.uri is not a valid URI',
    ],
    [
      'text contents bad mime',
      () => textContents('file:///a', 'x', 'text'),
      'textContents.mimeType must be a MIME type',
    ],
    [
      'link bad uri',
      () => resourceLink({ uri: 'file:///a b', name: 'x' }),
      'resourceLink.uri is not a valid URI',
    ],
    [
      'link empty name',
      () => resourceLink({ uri: 'file:///a', name: '' }),
      'resourceLink.name must not be empty',
    ],
    [
      'link negative size',
      () => resourceLink({ uri: 'file:///a', name: 'a', size: -1 }),
      'resourceLink.size must be a non-negative integer',
    ],
    [
      'link fractional size',
      () => resourceLink({ uri: 'file:///a', name: 'a', size: 1.5 }),
      'resourceLink.size must be a non-negative integer',
    ],
    [
      'link unknown field',
      () => resourceLink({ uri: 'file:///a', name: 'a', mimetype: 'x/y' } as never),
      'resourceLink.mimetype is not a field',
    ],
    [
      'link icon scheme',
      () => resourceLink({ uri: 'file:///a', name: 'a', icons: [{ src: 'javascript:alert(1)' }] }),
      'resourceLink.icons[0].src must be an https:, http: or data: URI',
    ],
    [
      'link icon sizes',
      () =>
        resourceLink({
          uri: 'file:///a',
          name: 'a',
          icons: [{ src: 'https://x/i', sizes: ['big'] }],
        }),
      'resourceLink.icons[0].sizes',
    ],
    [
      'link bad date',
      () => resourceLink({ uri: 'file:///a', name: 'a', annotations: { lastModified: 'soon' } }),
      'resourceLink.annotations.lastModified must be an ISO 8601',
    ],
    [
      'annotations inside contents',
      () =>
        embeddedResource({ uri: 'file:///a', text: 'x', annotations: { priority: 1 } } as never),
      'embeddedResource.resource.annotations is misplaced',
    ],
    [
      'contents with both',
      () => embeddedResource({ uri: 'file:///a', text: 'x', blob: 'AAAA' } as never),
      'embeddedResource.resource has both "text" and "blob"',
    ],
    [
      'embedded blob without mime',
      () => embeddedResource({ uri: 'file:///a', blob: 'AAAA' }),
      'embeddedResource.resource.mimeType is missing',
    ],
  ])('%s', (_name, build, message) => {
    expectInvalidContent(build, message);
  });
});
