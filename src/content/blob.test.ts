import { describe, expect, it } from 'vitest';
import { isMcpKitError } from '../errors/mcpkit-error.js';
import {
  blobWireSize,
  decodeBase64,
  decodeBase64Pure,
  encodeBase64,
  encodeBase64Pure,
  encodeBase64Stream,
  repairBase64,
} from './blob.js';

function bytes(n: number, seed = 7): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

async function* chunked(data: Uint8Array, sizes: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (let i = 0; at < data.length; i++) {
    const size = sizes[i % sizes.length]!;
    yield data.subarray(at, at + size);
    at += size;
  }
}

describe('encodeBase64 / decodeBase64', () => {
  it('round-trips sizes 0..100 against Buffer (fast path and pure fallback)', () => {
    for (let n = 0; n <= 100; n++) {
      const raw = bytes(n, n + 1);
      const expected = Buffer.from(raw).toString('base64');
      expect(encodeBase64(raw)).toBe(expected);
      expect(encodeBase64Pure(raw)).toBe(expected);
      expect(decodeBase64(expected)).toEqual(raw);
      expect(decodeBase64Pure(expected)).toEqual(raw);
    }
  });

  it('decodes small blobs into bytes of their own, never a slice of a shared pool', () => {
    for (const n of [1, 100, 4000, 5000]) {
      const decoded = decodeBase64(Buffer.from(bytes(n)).toString('base64'));
      expect(decoded.byteLength).toBe(n);
      expect(decoded.buffer.byteLength).toBe(n);
    }
  });

  it('encodes a subarray view, not its whole buffer', () => {
    const raw = bytes(10);
    expect(encodeBase64(raw.subarray(3, 7))).toBe(
      Buffer.from(raw.subarray(3, 7)).toString('base64'),
    );
  });

  it.each([1024 * 1024, 3 * 1024 * 1024 + 1])('round-trips %i bytes against Buffer', (n) => {
    const raw = bytes(n);
    const expected = Buffer.from(raw).toString('base64');
    expect(encodeBase64Pure(raw)).toBe(expected);
    expect(Buffer.compare(decodeBase64Pure(expected), raw)).toBe(0);
    expect(Buffer.compare(decodeBase64(expected), raw)).toBe(0);
  });

  it('encodes and decodes 64 MiB with the pure fallback without a stack overflow', () => {
    const raw = new Uint8Array(64 * 1024 * 1024);
    raw[0] = 1;
    raw[raw.length - 1] = 255;
    const b64 = encodeBase64Pure(raw);
    expect(b64.length).toBe(blobWireSize(raw.length));
    expect(b64.slice(-4)).toBe(
      Buffer.from(raw.subarray(-(raw.length % 3 || 3))).toString('base64'),
    );
    const back = decodeBase64Pure(b64);
    expect(back.length).toBe(raw.length);
    expect(back[0]).toBe(1);
    expect(back[back.length - 1]).toBe(255);
    expect(decodeBase64(b64).length).toBe(raw.length);
  });

  it.each([
    ['AB==', 1],
    ['AA=A', 2],
    ['AAA', 3],
    ['aGVsbG8', 7],
    ['aGVs bG8=', 4],
  ])('decodeBase64(%j) throws INVALID_BASE64 at offset %i', (value, offset) => {
    let caught: unknown;
    try {
      decodeBase64(value);
    } catch (error) {
      caught = error;
    }
    expect(isMcpKitError(caught, 'INVALID_BASE64')).toBe(true);
    expect((caught as Error).message).toContain(`offset ${offset}`);
  });
});

describe('encodeBase64Stream', () => {
  const data = bytes(1000, 3);
  const oneShot = Buffer.from(data).toString('base64');

  it.each([
    [[1]],
    [[2]],
    [[3]],
    [[4, 1, 7]],
    [[5, 2]],
    [[1, 1, 1, 2]],
    [[999, 1]],
    [[1000]],
    [[4096]],
  ])('chunk sizes %j give the one-shot encoding', async (sizes) => {
    const out = await encodeBase64Stream(chunked(data, sizes));
    expect(out).toEqual({ base64: oneShot, bytes: 1000 });
  });

  it('handles empty chunks and an empty stream', async () => {
    async function* empties(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array(0);
      yield data.subarray(0, 2);
      yield new Uint8Array(0);
      yield data.subarray(2, 5);
    }
    expect(await encodeBase64Stream(empties())).toEqual({
      base64: Buffer.from(data.subarray(0, 5)).toString('base64'),
      bytes: 5,
    });
    expect(await encodeBase64Stream(chunked(new Uint8Array(0), [1]))).toEqual({
      base64: '',
      bytes: 0,
    });
  });

  it('throws BLOB_TOO_LARGE naming the limit', async () => {
    await expect(encodeBase64Stream(chunked(data, [64]), { maxBytes: 100 })).rejects.toSatisfy(
      (error: unknown) =>
        isMcpKitError(error, 'BLOB_TOO_LARGE') &&
        /maxBytes \(100 bytes\)/.test((error as Error).message),
    );
    expect((await encodeBase64Stream(chunked(data, [64]), { maxBytes: 1000 })).bytes).toBe(1000);
  });
});

describe('blobWireSize', () => {
  it.each([
    [0, 0],
    [1, 4],
    [2, 4],
    [3, 4],
    [4, 8],
    [7_500_000, 10_000_000],
  ])('%i raw bytes -> %i', (raw, wire) => {
    expect(blobWireSize(raw)).toBe(wire);
    if (raw < 100) expect(Buffer.from(bytes(raw)).toString('base64').length).toBe(wire);
  });

  it('rejects negative and fractional sizes', () => {
    expect(() => blobWireSize(-1)).toThrow(RangeError);
    expect(() => blobWireSize(1.5)).toThrow(RangeError);
  });
});

describe('repairBase64', () => {
  it.each<[string, string, string[]]>([
    ['aGVs\nbG8=\n', 'aGVsbG8=', ['removed whitespace']],
    ['aGVsbG8', 'aGVsbG8=', ['fixed the padding']],
    ['aGVsbA', 'aGVsbA==', ['fixed the padding']],
    ['AA===', 'AA==', ['fixed the padding']],
    ['-_8=', '+/8=', ['converted the URL-safe alphabet']],
    ['AB==', 'AA==', ['cleared non-zero pad bits']],
  ])('%j -> %j', (input, output, fixes) => {
    expect(repairBase64(input)).toEqual({ base64: output, fixes });
  });

  it.each(['A', 'AA*A', 'é===', 'AA=A'])('gives up on %j', (input) => {
    expect(repairBase64(input)).toBeUndefined();
  });
});
