import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isMcpKitError } from '../errors/mcpkit-error.js';
import {
  asBlobString,
  base64Body,
  collectBlob,
  isStreamedBody,
  streamedBody,
  type StreamedBody,
} from './streamed-body.js';

async function bytesOf(body: StreamedBody): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body.chunks()) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** `data` in chunks of `sizes` (cycled), each read into the same buffer, as a file source does. */
function source(data: Buffer, sizes: number[]) {
  return async function* (): AsyncGenerator<Uint8Array> {
    const reused = Buffer.alloc(Math.max(...sizes));
    for (let at = 0, i = 0; at < data.length; i++) {
      const n = Math.min(sizes[i % sizes.length] ?? 1, data.length - at);
      data.copy(reused, 0, at, at + n);
      yield reused.subarray(0, n);
      at += n;
    }
  };
}

describe('base64Body', () => {
  it.each([
    [0, [1]],
    [1, [1]],
    [2, [1]],
    [3, [3]],
    [10, [1, 2]],
    [1000, [7, 3, 1]],
    [65_537, [3 * 1024]],
    [300_001, [100_000]],
  ])('%i raw bytes in chunks of %j: exactly JSON.stringify of the base64', async (size, sizes) => {
    const data = randomBytes(size);
    const body = base64Body({ size, chunks: source(data, sizes) });
    const expected = JSON.stringify(data.toString('base64'));
    expect(body.wireBytes).toBe(expected.length);
    expect((await bytesOf(body)).toString()).toBe(expected);
    // Each call reads anew.
    expect(await collectBlob(body)).toBe(data.toString('base64'));
  });

  it.each([
    ['more', 10, 11],
    ['fewer', 10, 9],
    ['some for an empty blob', 0, 1],
  ])('throws STREAM_FAILED when the source gives %s bytes', async (_what, size, given) => {
    const body = base64Body({ size, chunks: source(randomBytes(given), [4]) });
    const error = await bytesOf(body).catch((e: unknown) => e);
    expect(isMcpKitError(error, 'STREAM_FAILED')).toBe(true);
  });

  it('passes a failure of its source on, and stops the source when the consumer stops', async () => {
    let closed = 0;
    const failing = base64Body({
      size: 9,
      chunks: async function* () {
        yield new Uint8Array(3);
        throw new Error('disk gone');
      },
    });
    await expect(bytesOf(failing)).rejects.toThrow('disk gone');
    const endless = base64Body({
      size: 3 * 1000,
      chunks: async function* () {
        try {
          for (;;) yield new Uint8Array(3);
        } finally {
          closed++;
        }
      },
    });
    for await (const chunk of endless.chunks()) {
      expect(Buffer.from(chunk)[0]).toBe(0x22);
      break;
    }
    expect(closed).toBe(1);
  });

  it('refuses a size that is no byte count', () => {
    expect(() => base64Body({ size: -1, chunks: source(Buffer.alloc(0), [1]) })).toThrow(
      RangeError,
    );
    expect(() => base64Body({ size: 1.5, chunks: source(Buffer.alloc(0), [1]) })).toThrow(
      RangeError,
    );
  });
});

describe('streamedBody', () => {
  const quoted = new TextEncoder().encode('"aGk="');

  it('yields its source checked against wireBytes', async () => {
    const body = streamedBody({
      wireBytes: quoted.length,
      chunks: async function* () {
        yield quoted.subarray(0, 2);
        yield new Uint8Array(0);
        yield quoted.subarray(2);
      },
    });
    expect((await bytesOf(body)).toString()).toBe('"aGk="');
    const short = streamedBody({
      wireBytes: quoted.length + 1,
      chunks: async function* () {
        yield quoted;
      },
    });
    const error = await bytesOf(short).catch((e: unknown) => e);
    expect(isMcpKitError(error, 'STREAM_FAILED')).toBe(true);
    expect(() => streamedBody({ wireBytes: 1, chunks: async function* () {} })).toThrow(RangeError);
  });

  it('is told apart, and never silently serialized as {}', () => {
    const body = base64Body({ size: 0, chunks: async function* () {} });
    expect(isStreamedBody(body)).toBe(true);
    for (const other of [null, 'x', {}, { wireBytes: 2, chunks: () => [] }, new Uint8Array(2)])
      expect(isStreamedBody(other)).toBe(false);
    let error: unknown;
    try {
      JSON.stringify({ blob: asBlobString(body) });
    } catch (e) {
      error = e;
    }
    expect(isMcpKitError(error, 'STREAM_UNSUPPORTED')).toBe(true);
  });

  it('collectBlob refuses bytes that are not a JSON string', async () => {
    const body = streamedBody({
      wireBytes: 3,
      chunks: async function* () {
        yield new TextEncoder().encode('abc');
      },
    });
    await expect(collectBlob(body)).rejects.toThrow('not a JSON string');
  });

  it('collectBlob keeps each body its own: a character split across chunks is not mixed with another', async () => {
    // Bytes of a JSON string holding one two-byte character, split between its bytes.
    const split = (json: string) => {
      const bytes = new TextEncoder().encode(json);
      const cut = bytes.length - 2;
      return streamedBody({
        wireBytes: bytes.length,
        chunks: async function* () {
          yield bytes.subarray(0, cut);
          await new Promise((resolve) => setTimeout(resolve, 5));
          yield bytes.subarray(cut);
        },
      });
    };
    const [a, b] = await Promise.all([collectBlob(split('"aé"')), collectBlob(split('"bü"'))]);
    expect([a, b]).toEqual(['aé', 'bü']);
  });
});
