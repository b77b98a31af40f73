import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { preEncodedBytesOf, preEncodedOf, preEncodedPartsOf } from '../protocol/pre-encoded.js';
import { initializeRequest, legacy, modern } from '../testing/messages.js';
import { encodeMessage } from '../content/encode-message.js';
import { connectInMemory } from '../transports/memory.js';
import { asBlobString, base64Body } from '../content/streamed-body.js';
import { versionedRead } from './versioned-read.js';
import { createServer } from './server.js';

/** A resource whose handler names the version it served; `bump()` makes a new one. */
function setup(size = 1024) {
  let version = { text: 'a'.repeat(size) };
  let reads = 0;
  const server = createServer({ name: 's', version: '1' });
  server.resource('mem://doc', { name: 'doc', mimeType: 'text/plain' }, (uri) => {
    reads++;
    return versionedRead(
      { contents: [{ uri, mimeType: 'text/plain', text: version.text }] },
      version,
    );
  });
  server.resource('mem://plain', { name: 'plain', mimeType: 'text/plain' }, () => 'plain');
  return {
    conn: connectInMemory(server),
    bump: (text: string) => (version = { text }),
    reads: () => reads,
  };
}

/** The parts of an encoded message joined, as the writer sends them. */
const joined = (parts: readonly unknown[]): string =>
  parts.map((p) => (typeof p === 'string' ? p : Buffer.from(p as Uint8Array).toString())).join('');

const read = (uri: string, id?: number | string) => {
  const m = modern('resources/read', { uri });
  return id === undefined ? m : { ...m, id };
};

describe('answers of a versioned read', () => {
  it('are encoded once per version from its second answer on, written with the id spliced in, byte for byte as JSON.stringify', async () => {
    const { conn } = setup();
    const first = await conn.send(read('mem://doc', 7));
    const second = await conn.send(read('mem://doc', 'x"y'));
    const third = await conn.send(read('mem://doc', 3));
    // A version's first answer is encoded by the transport into its write: nothing is kept.
    expect(preEncodedBytesOf(first?.['result' as never])).toBeUndefined();
    const pre = preEncodedBytesOf(second?.['result' as never]);
    expect(pre).toBeInstanceOf(Uint8Array);
    // The very same encoding (its UTF-8 bytes) serves the third request: encoded once.
    expect(preEncodedBytesOf(third?.['result' as never])).toBe(pre);
    for (const message of [first, second, third]) {
      if (!message) throw new Error('no answer');
      const encoded = encodeMessage(message);
      if (message !== first) expect(encoded.parts).toContain(pre); // written as they are
      expect(joined(encoded.parts)).toBe(JSON.stringify(message));
    }
    for (const message of [second, third])
      expect(encodeMessage(message as never).bytes).toBe(
        Buffer.byteLength(JSON.stringify(message)),
      );
    expect(JSON.parse(JSON.stringify(second))).toMatchObject({
      id: 'x"y',
      result: { contents: [{ text: 'a'.repeat(1024) }], resultType: 'complete', ttlMs: 0 },
    });
  });

  it('a new version is encoded anew; the handler runs for every request', async () => {
    const { conn, bump, reads } = setup();
    await conn.send(read('mem://doc'));
    const before = await conn.send(read('mem://doc'));
    bump('changed');
    const after = await conn.send(read('mem://doc'));
    expect(JSON.stringify(after)).toContain('"text":"changed"');
    expect(preEncodedOf(after?.['result' as never])).toBeUndefined();
    const again = await conn.send(read('mem://doc'));
    expect(preEncodedOf(again?.['result' as never])).toContain('"text":"changed"');
    expect(preEncodedOf(before?.['result' as never])).toContain('"text":"aaaa');
    expect(reads()).toBe(4);
  });

  it('an answer given as a function is built only while no encoded answer of its version is kept', async () => {
    const server = createServer({ name: 's', version: '1' });
    const version = {};
    let builds = 0;
    let handled = 0;
    server.resource('mem://lazy', { name: 'lazy', mimeType: 'text/plain' }, (uri) => {
      handled++;
      return versionedRead(() => {
        builds++;
        return { contents: [{ uri, mimeType: 'text/plain', text: 'built' }] };
      }, version);
    });
    const conn = connectInMemory(server);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await conn.send(read('mem://lazy', i)));
    // The first answer is built and written; the second built and kept; then none is built.
    expect([handled, builds]).toEqual([4, 2]);
    for (const [i, answer] of answers.entries())
      expect(answer).toMatchObject({ id: i, result: { contents: [{ text: 'built' }] } });
    expect(preEncodedBytesOf(answers[3]?.['result' as never])).toBe(
      preEncodedBytesOf(answers[2]?.['result' as never]),
    );
  });

  it('an answer builder that returns a promise fails the read with -32603 naming versionedRead', async () => {
    const errors: unknown[] = [];
    const server = createServer({ name: 's', version: '1', onError: (e) => errors.push(e) });
    server.resource('mem://async', { name: 'async' }, (uri) =>
      versionedRead(
        (async () => ({ contents: [{ uri, text: 'late' }] })) as unknown as () => {
          contents: { uri: string; text: string }[];
        },
        {},
      ),
    );
    const answer = await connectInMemory(server).send(read('mem://async', 1));
    expect(answer).toMatchObject({ id: 1, error: { code: -32603 } });
    expect(JSON.stringify([answer, errors.map(String)])).toContain('versionedRead');
  });

  it('a versioned answer holding a streamed blob is never kept: each request gets its bytes', async () => {
    const server = createServer({ name: 's', version: '1' });
    const version = {};
    const bytes = Uint8Array.from([1, 2, 3, 4, 5]);
    let builds = 0;
    server.resource('mem://streamed', { name: 'streamed' }, (uri) =>
      versionedRead(() => {
        builds++;
        const blob = base64Body({
          size: bytes.length,
          chunks: async function* () {
            yield bytes;
          },
        });
        return {
          contents: [{ uri, mimeType: 'application/octet-stream', blob: asBlobString(blob) }],
        };
      }, version),
    );
    const conn = connectInMemory(server);
    for (let i = 0; i < 3; i++) {
      const answer = await conn.send(read('mem://streamed', i));
      expect(answer).toMatchObject({
        id: i,
        result: { contents: [{ blob: Buffer.from(bytes).toString('base64') }] },
      });
      expect(preEncodedBytesOf(answer?.['result' as never])).toBeUndefined();
    }
    // Built once per request: the first, then each one found it could not be kept.
    expect(builds).toBe(3);
  });

  it('keeps the eras apart, and leaves unversioned and large answers alone', async () => {
    const { conn } = setup();
    await conn.send(initializeRequest());
    const old = await conn.send(legacy('resources/read', { uri: 'mem://doc' }));
    expect(JSON.stringify(old)).not.toContain('resultType');
    expect(joined(encodeMessage(old as never).parts)).toBe(JSON.stringify(old));
    const modernOne = await conn.send(read('mem://doc'));
    expect(JSON.stringify(modernOne)).toContain('"resultType":"complete"');
    expect(preEncodedOf((await conn.send(read('mem://plain')))?.['result' as never])).toBe(
      undefined,
    );
    const large = setup(100_000);
    const big = await large.conn.send(read('mem://doc'));
    expect(preEncodedOf(big?.['result' as never])).toBeUndefined();
  });

  it('a large answer is encoded once in parts, its blob as UTF-8 once; byte for byte as JSON.stringify', async () => {
    const blob = randomBytes(200 * 1024).toString('base64');
    const version = {};
    const server = createServer({ name: 's', version: '1' });
    server.resource('mem://big', { name: 'big', mimeType: 'image/png' }, (uri) =>
      versionedRead({ contents: [{ uri, mimeType: 'image/png', blob }] }, version),
    );
    const conn = connectInMemory(server);
    await conn.send(read('mem://big', 0));
    const first = await conn.send(read('mem://big', 1));
    const second = await conn.send(read('mem://big', 'two'));
    const parts = preEncodedPartsOf(second?.['result' as never]);
    expect(parts).toBeDefined();
    expect(preEncodedPartsOf(first?.['result' as never])).toBe(parts);
    const blobBytes = parts?.parts.find((p) => p instanceof Uint8Array);
    expect(Buffer.from(blobBytes as Uint8Array).toString()).toBe(blob);
    for (const message of [first, second]) {
      if (!message) throw new Error('no answer');
      const encoded = encodeMessage(message);
      // Its own part, the same bytes for every answer: never copied or converted again.
      expect(encoded.parts).toContain(blobBytes);
      const joined = encoded.parts
        .map((p) => (typeof p === 'string' ? p : Buffer.from(p as Uint8Array).toString()))
        .join('');
      expect(joined).toBe(JSON.stringify(message));
      expect(encoded.bytes).toBe(Buffer.byteLength(joined));
    }
  });
});
