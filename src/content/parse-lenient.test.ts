import { describe, expect, it } from 'vitest';
import { isMcpKitError } from '../errors/mcpkit-error.js';
import { parseContentBlockLenient } from './parse.js';
import { parseResourceContentsLenient } from './parse-contents.js';

const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
  0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
]);
const PNG_B64 = PNG.toString('base64');
const TEXT_B64 = Buffer.from('plain words\n').toString('base64');
const ZERO_B64 = Buffer.from([0, 1, 2, 0, 255]).toString('base64');
const u = 'file:///a';

async function lenientMessageOf(value: unknown, path?: string): Promise<string> {
  try {
    await parseContentBlockLenient(value, path);
  } catch (error) {
    if (isMcpKitError(error, 'INVALID_CONTENT')) return error.message;
    throw error;
  }
  throw new Error('expected INVALID_CONTENT');
}

describe('parseContentBlockLenient', () => {
  it.each<[string, unknown, unknown, string[]]>([
    ['valid text, no warnings', { type: 'text', text: 'x' }, { type: 'text', text: 'x' }, []],
    [
      'unknown fields kept',
      { type: 'text', text: 'x', extra: { a: 1 } },
      { type: 'text', text: 'x', extra: { a: 1 } },
      [],
    ],
    [
      'image without mimeType: sniffed PNG',
      { type: 'image', data: PNG_B64 },
      { type: 'image', data: PNG_B64, mimeType: 'image/png' },
      ['content.mimeType is missing; set to "image/png" (sniffed from the bytes)'],
    ],
    [
      'blob without mimeType: sniffed text',
      { type: 'resource', resource: { uri: u, blob: TEXT_B64 } },
      { type: 'resource', resource: { uri: u, mimeType: 'text/plain', blob: TEXT_B64 } },
      ['content.resource.mimeType is missing; set to "text/plain" (sniffed from the bytes)'],
    ],
    [
      'blob without mimeType: unknown bytes',
      { type: 'resource', resource: { uri: u, blob: ZERO_B64 } },
      {
        type: 'resource',
        resource: { uri: u, mimeType: 'application/octet-stream', blob: ZERO_B64 },
      },
      [
        'content.resource.mimeType is missing; set to "application/octet-stream" (the bytes were not recognised)',
      ],
    ],
    [
      'malformed mimeType is replaced',
      { type: 'audio', data: ZERO_B64, mimeType: '' },
      { type: 'audio', data: ZERO_B64, mimeType: 'application/octet-stream' },
      [
        'content.mimeType must be a MIME type like "text/plain", got ""; set to "application/octet-stream" (the bytes were not recognised)',
      ],
    ],
    [
      'wrong media type is kept',
      { type: 'image', data: PNG_B64, mimeType: 'application/pdf' },
      { type: 'image', data: PNG_B64, mimeType: 'application/pdf' },
      ['content.mimeType must be an image/* type, got "application/pdf"; kept'],
    ],
    [
      'annotations nested in resource move up',
      { type: 'resource', resource: { uri: u, text: 'x', annotations: { audience: ['user'] } } },
      { type: 'resource', resource: { uri: u, text: 'x' }, annotations: { audience: ['user'] } },
      [
        'content.resource.annotations is misplaced: annotations belong at the top level of an embedded resource (content.annotations); moved to content.annotations',
      ],
    ],
    [
      'nested annotations dropped when both exist',
      {
        type: 'resource',
        resource: { uri: u, text: 'x', annotations: { priority: 0 } },
        annotations: { priority: 1 },
      },
      { type: 'resource', resource: { uri: u, text: 'x' }, annotations: { priority: 1 } },
      [
        'content.resource.annotations is misplaced: annotations belong at the top level of an embedded resource (content.annotations); dropped (content.annotations is kept)',
      ],
    ],
    [
      'bad annotation fields dropped, unknown kept',
      { type: 'text', text: 'x', annotations: { priority: 7, audience: ['user'], color: 'red' } },
      { type: 'text', text: 'x', annotations: { audience: ['user'], color: 'red' } },
      ['content.annotations.priority must be a number from 0 to 1, got 7; dropped'],
    ],
    [
      'line-wrapped base64 repaired',
      {
        type: 'resource',
        resource: {
          uri: u,
          mimeType: 'image/png',
          blob: `${PNG_B64.slice(0, 10)}\n${PNG_B64.slice(10)}`,
        },
      },
      { type: 'resource', resource: { uri: u, mimeType: 'image/png', blob: PNG_B64 } },
      [
        'content.resource.blob is not canonical base64 at offset 10 (character "\\n" is not in the base64 alphabet); repaired (removed whitespace)',
      ],
    ],
    [
      'link without name gets the uri',
      { type: 'resource_link', uri: u, size: -4 },
      { type: 'resource_link', uri: u, name: u },
      [
        'content.name must be a string, got undefined; set to the URI',
        'content.size must be a non-negative integer (raw bytes), got -4; dropped',
      ],
    ],
    [
      'unsafe icons dropped',
      {
        type: 'resource_link',
        uri: u,
        name: 'a',
        icons: [{ src: 'javascript:x' }, { src: 'https://x/i.png', extra: 1 }],
      },
      { type: 'resource_link', uri: u, name: 'a', icons: [{ src: 'https://x/i.png', extra: 1 }] },
      [
        'content.icons[0].src must be an https:, http: or data: URI, got "javascript:x"; dropped content.icons[0]',
      ],
    ],
    [
      'both text and blob keeps text',
      { type: 'resource', resource: { uri: u, text: 'x', blob: 'AAAA' } },
      { type: 'resource', resource: { uri: u, text: 'x' } },
      ['content.resource has both "text" and "blob"; kept "text"'],
    ],
    [
      'bad _meta dropped',
      { type: 'text', text: 'x', _meta: 1 },
      { type: 'text', text: 'x' },
      ['content._meta must be an object, got 1; dropped'],
    ],
  ])('%s', async (_name, value, block, warnings) => {
    const out = await parseContentBlockLenient(value);
    expect(out).toEqual({ block, warnings });
    expect(JSON.stringify(out.block)).toBe(JSON.stringify(block));
  });

  it.each<[string, unknown, string]>([
    ['unknown type', { type: 'video' }, 'content.type must be one of'],
    ['missing text', { type: 'text' }, 'content.text must be a string'],
    [
      'missing uri',
      { type: 'resource', resource: { text: 'x' } },
      'content.resource.uri must be a URI string',
    ],
    [
      'missing text and blob',
      { type: 'resource', resource: { uri: u } },
      'content.resource needs a "text" or a "blob" field',
    ],
    [
      'non-base64 blob',
      { type: 'resource', resource: { uri: u, blob: 'not base64!' } },
      'content.resource.blob is not canonical base64 at offset 3',
    ],
    [
      'missing image data',
      { type: 'image', mimeType: 'image/png' },
      'content.data must be a base64 string',
    ],
    [
      'link with a bad uri',
      { type: 'resource_link', uri: 'a b', name: 'x' },
      'content.uri is not a valid URI',
    ],
  ])('still rejects %s', async (_name, value, message) => {
    expect(await lenientMessageOf(value)).toContain(message);
  });
});

describe('a "__proto__" key from the wire', () => {
  // JSON.parse makes "__proto__" an own key; copied by assignment it became the copy's prototype,
  // so unchecked icons/annotations/blob were inherited past every check.
  const hostile = (fields: string) =>
    JSON.parse(
      `{${fields},"__proto__":{"icons":[{"src":"javascript:alert(1)"}],"annotations":{"priority":99},"blob":"AAAA"}}`,
    ) as unknown;

  it('is dropped from a block with a warning, never becoming its prototype', async () => {
    const { block, warnings } = await parseContentBlockLenient(
      hostile('"type":"resource_link","uri":"https://a.example/x","name":"x"'),
    );
    expect(Object.getPrototypeOf(block)).toBe(Object.prototype);
    expect((block as { icons?: unknown }).icons).toBeUndefined();
    expect(block.annotations).toBeUndefined();
    expect(warnings).toEqual([
      'content.__proto__ is not a field of a resource_link block; dropped',
    ]);
  });

  it('is dropped from resource contents too', async () => {
    const { contents, warnings } = await parseResourceContentsLenient(
      hostile('"uri":"file:///a","text":"x"'),
    );
    expect(Object.getPrototypeOf(contents)).toBe(Object.prototype);
    expect((contents as { blob?: unknown }).blob).toBeUndefined();
    expect(warnings).toEqual(['contents.__proto__ is not a field of resource contents; dropped']);
  });
});

describe('a "__proto__" key inside annotations', () => {
  it('is dropped with a warning, its fields never inherited', async () => {
    const { block, warnings } = await parseContentBlockLenient(
      JSON.parse(
        '{"type":"text","text":"x","annotations":{"audience":["user"],"__proto__":{"priority":99}}}',
      ) as unknown,
    );
    expect(block.annotations).toEqual({ audience: ['user'] });
    expect(block.annotations?.priority).toBeUndefined();
    expect(warnings).toEqual([
      'content.annotations.__proto__ is not a field of annotations; dropped',
    ]);
  });
});
