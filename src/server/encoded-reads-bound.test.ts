import { describe, expect, it } from 'vitest';
import { preEncodedBytesOf } from '../protocol/pre-encoded.js';
import { stillAlive } from '../testing/gc.js';
import { modern } from '../testing/messages.js';
import { connectInMemory } from '../transports/memory.js';
import { createServer } from './server.js';
import type { ServerOptions } from './options.js';
import { versionedRead } from './versioned-read.js';

/** Nine documents of one size (`mem://d/1` … `mem://d/9`), each read as its own version. */
function setup(options: Partial<ServerOptions> = {}) {
  const versions = new Map<string, { text: string }>();
  const server = createServer({ name: 's', version: '1', ...options });
  server.resource('mem://d/{n}', { name: 'd', mimeType: 'text/plain' }, (uri, { n }) => {
    let version = versions.get(n);
    if (!version) versions.set(n, (version = { text: `document ${n} `.repeat(20) }));
    return versionedRead(
      { contents: [{ uri, mimeType: 'text/plain', text: version.text }] },
      version,
    );
  });
  const conn = connectInMemory(server);
  /** The encoded bytes of the answer to a read of document `n` (undefined: not encoded). */
  const bytesOf = async (n: number) =>
    preEncodedBytesOf(
      (await conn.send(modern('resources/read', { uri: `mem://d/${n}` })))?.['result' as never],
    );
  return { bytesOf, versions };
}

/** The size of one encoded answer of {@link setup}. */
async function answerBytes(): Promise<number> {
  const { bytesOf } = setup();
  await bytesOf(1); // a first answer is not kept
  const bytes = await bytesOf(1);
  if (!bytes) throw new Error('not encoded');
  return bytes.byteLength;
}

describe('maxEncodedReadBytes', () => {
  it('keeps answers up to the bound, then drops the least recently used first', async () => {
    const size = await answerBytes();
    const { bytesOf } = setup({ maxEncodedReadBytes: 8 * size });
    const first: Uint8Array[] = [];
    for (let n = 1; n <= 8; n++) {
      expect(await bytesOf(n)).toBeUndefined(); // a first answer is written, not kept
      first.push((await bytesOf(n)) as Uint8Array);
    }
    // All eight fit exactly: each is served again from its one encoding.
    for (let n = 1; n <= 8; n++) expect(await bytesOf(n)).toBe(first[n - 1]);
    // Document 1 was used last of all but 2..8 after it: reading it again makes 2 the oldest.
    expect(await bytesOf(1)).toBe(first[0]);
    await bytesOf(9);
    const ninth = await bytesOf(9);
    expect(await bytesOf(9)).toBe(ninth);
    expect(await bytesOf(1)).toBe(first[0]);
    const second = await bytesOf(2);
    expect(second).not.toBe(first[1]); // dropped, encoded anew (and kept again)
    expect(second).toEqual(first[1]);
    expect(await bytesOf(2)).toBe(second);
  });

  it('an answer over half the bound is encoded for its request only', async () => {
    const size = await answerBytes();
    const fits = setup({ maxEncodedReadBytes: 2 * size });
    await fits.bytesOf(1);
    expect(await fits.bytesOf(1)).toBe(await fits.bytesOf(1));
    const over = setup({ maxEncodedReadBytes: 2 * size - 1 });
    await over.bytesOf(1);
    const once = await over.bytesOf(1);
    expect(once?.byteLength).toBe(size);
    expect(await over.bytesOf(1)).not.toBe(once);
  });

  it('0 keeps none; anything but a whole number of bytes fails createServer, naming it', async () => {
    const { bytesOf } = setup({ maxEncodedReadBytes: 0 });
    for (let i = 0; i < 3; i++) expect(await bytesOf(1)).toBeUndefined();
    for (const bad of [-1, 1.5, Number.NaN, Infinity])
      expect(() => createServer({ name: 's', version: '1', maxEncodedReadBytes: bad })).toThrow(
        /^maxEncodedReadBytes must be a whole number of bytes/,
      );
  });

  it('never keeps a version alive: once its handler lets it go, so does the server', async () => {
    const { bytesOf, versions } = setup();
    await bytesOf(1);
    const version = new WeakRef(versions.get('1') as object);
    versions.clear();
    expect(await stillAlive([version])).toEqual([]);
  });

  it('two servers in one process share nothing: each answer carries its own server', async () => {
    const version = { text: 'shared' };
    const answer = async (name: string) => {
      const server = createServer({ name, version: '1' });
      server.resource('mem://doc', { name: 'doc' }, (uri) =>
        versionedRead({ contents: [{ uri, text: version.text }] }, version),
      );
      const conn = connectInMemory(server);
      await conn.send(modern('resources/read', { uri: 'mem://doc' }));
      return JSON.stringify(await conn.send(modern('resources/read', { uri: 'mem://doc' })));
    };
    expect(await answer('one')).toContain('"name":"one"');
    expect(await answer('two')).toContain('"name":"two"');
  });
});
