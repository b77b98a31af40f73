import { describe, expect, it } from 'vitest';
import {
  asBlobString,
  base64Body,
  isStreamedBody,
  type StreamedBody,
} from '../content/streamed-body.js';
import { isMcpKitError } from '../errors/mcpkit-error.js';
import {
  encodeMessage,
  LARGE_PART_BYTES,
  partBytes,
  type MessagePart,
} from '../content/encode-message.js';
import { encodeForSend, encodeWithinCap } from './oversize.js';

const big = Buffer.alloc(LARGE_PART_BYTES * 2, 7).toString('base64');

describe('encodeMessage', () => {
  it('gives one part for ordinary messages', () => {
    const m = {
      jsonrpc: '2.0' as const,
      id: 1,
      result: { contents: [{ uri: 'x:y', text: 'hé "q"' }] },
    };
    expect(encodeMessage(m).parts).toEqual([JSON.stringify(m)]);
  });

  it('passes large base64 blobs through as their own parts, equal to JSON.stringify when joined', () => {
    const m = {
      jsonrpc: '2.0' as const,
      id: 'é',
      result: {
        contents: [
          { uri: 'x:a', mimeType: 'application/octet-stream', blob: big },
          { uri: 'x:b', text: 'small' },
        ],
        content: [{ type: 'image', data: big, mimeType: 'image/png' }],
      },
    };
    const encoded = encodeMessage(m);
    expect(encoded.parts.filter((p) => p === big)).toHaveLength(2);
    expect(encoded.parts.join('')).toBe(JSON.stringify(m));
    expect(encoded.bytes).toBe(Buffer.byteLength(JSON.stringify(m)));
  });

  it.each([
    ['a quote', '"},"injected":{"x":"'],
    ['a backslash', '\\u0041'],
    ['a control character', '\u0001\n'],
    ['a lone surrogate half', '\ud800'],
  ])('never passes through a large string that JSON escapes: %s', (_what, tail) => {
    const evil = `${'A'.repeat(LARGE_PART_BYTES)}${tail}`;
    const m = {
      jsonrpc: '2.0' as const,
      id: 1,
      result: { contents: [{ uri: 'x:a', blob: evil }] },
    };
    const encoded = encodeMessage(m);
    expect(encoded.parts).not.toContain(evil);
    expect(encoded.parts.join('')).toBe(JSON.stringify(m));
    expect(JSON.parse(encoded.parts.join(''))).toEqual(m);
  });
});

describe('encodeWithinCap', () => {
  it('turns an oversize response into a clear error and drops an oversize notification', () => {
    const m = { jsonrpc: '2.0' as const, id: 7, result: { contents: [{ uri: 'x:a', blob: big }] } };
    const encoded = encodeWithinCap(m, 1000, () => {});
    const error = JSON.parse(encoded?.parts.join('') ?? '') as {
      id: number;
      error: { code: number; message: string; data: unknown };
    };
    expect(error).toMatchObject({ id: 7, error: { code: -32603, data: { limit: 1000 } } });
    expect(error.error.message).toContain('maxResponseBytes');
    const reports: string[] = [];
    expect(
      encodeWithinCap(
        { jsonrpc: '2.0', method: 'notifications/message', params: { data: big } },
        1000,
        (t) => reports.push(t),
      ),
    ).toBeUndefined();
    expect(reports[0]).toContain('dropped');
  });

  it('keeps a message of exactly the cap', () => {
    const m = { jsonrpc: '2.0' as const, id: 1, result: { text: 'x'.repeat(100_000) } };
    const size = Buffer.byteLength(JSON.stringify(m));
    expect(encodeWithinCap(m, size, () => {})?.parts.join('')).toBe(JSON.stringify(m));
    expect(JSON.parse(encodeWithinCap(m, size - 1, () => {})?.parts.join('') ?? '')).toMatchObject({
      error: { code: -32603 },
    });
  });
});

describe('encodeForSend', () => {
  it('answers an over-cap response with id null too, with -32603 naming the cap', () => {
    const over = {
      jsonrpc: '2.0' as const,
      id: null,
      error: { code: -32600, message: 'x'.repeat(500) },
    };
    const reports: string[] = [];
    const encoded = encodeForSend(over, 200, (t) => reports.push(t));
    expect(encoded).toBeDefined();
    const answer = JSON.parse((encoded?.parts ?? []).join('')) as {
      id: unknown;
      error: { code: number; data: unknown };
    };
    expect(answer).toMatchObject({
      id: null,
      error: { code: -32603, data: { limit: 200, reason: 'too-large' } },
    });
  });

  it('answers a response JSON cannot encode with -32603, and drops such a notification', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const reports: string[] = [];
    const response = { jsonrpc: '2.0' as const, id: 4, result: cyclic };
    const encoded = encodeForSend(response, 1 << 20, (t) => reports.push(t));
    expect(JSON.parse((encoded?.parts ?? []).join(''))).toMatchObject({
      id: 4,
      error: { code: -32603 },
    });
    const note = { jsonrpc: '2.0' as const, method: 'notifications/message', params: cyclic };
    expect(encodeForSend(note, 1 << 20, (t) => reports.push(t))).toBeUndefined();
    expect(reports.length).toBe(2);
  });
});

describe('encodeMessage with large blobs', () => {
  const joined = (parts: readonly MessagePart[]): string =>
    Buffer.concat(
      parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : (p as Uint8Array))),
    ).toString();

  it('writes a large blob as its own string part; a large text stays in the JSON', () => {
    const blob = Buffer.alloc(LARGE_PART_BYTES, 5).toString('base64');
    const text = `${'é'.repeat(LARGE_PART_BYTES)} "q" \\ \n 😀`;
    const m = {
      jsonrpc: '2.0' as const,
      id: 'é',
      result: {
        contents: [
          { uri: 'x:a', blob },
          { uri: 'x:b', text },
        ],
      },
    };
    const encoded = encodeMessage(m);
    expect(encoded.parts.every((p) => typeof p === 'string')).toBe(true);
    expect(encoded.parts).toContain(blob);
    expect(encoded.parts).not.toContain(text);
    expect(joined(encoded.parts)).toBe(JSON.stringify(m));
    expect(encoded.bytes).toBe(Buffer.byteLength(JSON.stringify(m)));
  });

  it('counts a large blob exactly against the cap', () => {
    const blob = Buffer.alloc(LARGE_PART_BYTES, 4).toString('base64');
    const m = { jsonrpc: '2.0' as const, id: 1, result: { contents: [{ uri: 'x:a', blob }] } };
    const size = Buffer.byteLength(JSON.stringify(m));
    const fits = encodeWithinCap(m, size, () => {});
    expect(fits?.parts).toContain(blob);
    expect(joined(fits?.parts ?? [])).toBe(JSON.stringify(m));
    const over = encodeWithinCap(m, size - 1, () => {});
    expect(JSON.parse(joined(over?.parts ?? []))).toMatchObject({
      error: { code: -32603, data: { bytes: size, limit: size - 1 } },
    });
  });
});

describe('encodeMessage with a streamed blob', () => {
  const data = Buffer.alloc(1000, 9);
  const body = () =>
    base64Body({
      size: data.length,
      chunks: async function* () {
        yield data;
      },
    });
  const message = (blob: StreamedBody, small = 'é') => ({
    jsonrpc: '2.0' as const,
    id: 3,
    result: {
      contents: [
        { uri: 'x:a', text: small },
        { uri: 'x:b', mimeType: 'application/octet-stream', blob: asBlobString(blob) },
      ],
    },
  });
  /** What JSON.stringify would give if the body were its base64 string. */
  const expected = (small = 'é') =>
    JSON.stringify({
      ...message(body(), small),
      result: {
        contents: [
          { uri: 'x:a', text: small },
          { uri: 'x:b', mimeType: 'application/octet-stream', blob: data.toString('base64') },
        ],
      },
    });
  async function joinedAsync(parts: readonly MessagePart[]): Promise<string> {
    const out: Buffer[] = [];
    for (const part of parts) {
      if (typeof part === 'string') out.push(Buffer.from(part));
      else if (part instanceof Uint8Array) out.push(Buffer.from(part));
      else for await (const chunk of part.chunks()) out.push(Buffer.from(chunk));
    }
    return Buffer.concat(out).toString();
  }

  it('is its own part, counted with its exact wireBytes', async () => {
    const streamed = body();
    const encoded = encodeMessage(message(streamed), { streams: true });
    expect(encoded.parts).toContain(streamed);
    expect(encoded.parts.filter((p) => isStreamedBody(p))).toHaveLength(1);
    const text = expected();
    expect(encoded.bytes).toBe(Buffer.byteLength(text));
    expect(encoded.parts.reduce((sum, p) => sum + partBytes(p), 0)).toBe(encoded.bytes);
    expect(await joinedAsync(encoded.parts)).toBe(text);
  });

  it('keeps the cap check exact: one byte under its size is an error', () => {
    const size = Buffer.byteLength(expected());
    const fits = encodeWithinCap(message(body()), size, () => {}, { streams: true });
    expect(fits?.parts.some((p) => isStreamedBody(p))).toBe(true);
    const over = encodeWithinCap(message(body()), size - 1, () => {}, { streams: true });
    expect(JSON.parse((over?.parts ?? []).join(''))).toMatchObject({
      error: { code: -32603, data: { bytes: size, limit: size - 1 } },
    });
  });

  it('without streams: throws, and a transport answers -32603, never [object Object]', () => {
    let error: unknown;
    try {
      encodeMessage(message(body()));
    } catch (e) {
      error = e;
    }
    expect(isMcpKitError(error, 'STREAM_UNSUPPORTED')).toBe(true);
    const reports: string[] = [];
    const encoded = encodeForSend(message(body()), 1 << 20, (t) => reports.push(t));
    const text = (encoded?.parts ?? []).join('');
    expect(text).not.toContain('[object Object]');
    expect(JSON.parse(text)).toMatchObject({ id: 3, error: { code: -32603 } });
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain('cannot stream');
  });
});
