import { randomBytes } from 'node:crypto';
import { mkdtemp, realpath, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMcpKitError } from '../../errors/mcpkit-error.js';
import { base64Length } from '../../protocol/base64.js';
import { spyFs } from '../../testing/spy-fs.js';
import { ByteLruCache } from './content-cache.js';
import { ContentStore } from './file-reader.js';
import type { ProviderFs } from './fs-types.js';
import { nodeFs } from './fs-types.js';
import type { FileContents } from './read-file.js';
import type { Containment } from './resolve.js';
import { STREAM_CHUNK_BYTES, readOrStream, type WholeReadOutcome } from './streamed-file.js';

const ZIP = randomBytes(STREAM_CHUNK_BYTES * 5 + 2);
const TEXT = 'a line of text\n'.repeat(80_000);
let root: string;
let within: Containment;
const uncached = () => new ByteLruCache<FileContents>(0);

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-streamed-file-')));
  within = { root, visibility: { hidden: false, ignore: new Set() } };
  await writeFile(join(root, 'a.zip'), ZIP);
  await writeFile(join(root, 'notes.txt'), TEXT);
  await writeFile(join(root, 'small.zip'), randomBytes(STREAM_CHUNK_BYTES));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function bytesOf(outcome: WholeReadOutcome): Promise<Buffer> {
  if (outcome.kind !== 'streamed') throw new Error(`not streamed: ${outcome.kind}`);
  const chunks: Uint8Array[] = [];
  for await (const chunk of outcome.contents.body.chunks()) chunks.push(Buffer.from(chunk));
  const text = Buffer.concat(chunks).toString();
  return Buffer.from(JSON.parse(text) as string, 'base64');
}

describe('readOrStream', () => {
  it('streams an uncached blob: nothing read until iterated, then chunk by chunk', async () => {
    const fs = spyFs();
    const outcome = await readOrStream(fs, within, new ContentStore(uncached()), 'a.zip', Infinity);
    expect(outcome.kind).toBe('streamed');
    if (outcome.kind !== 'streamed') return;
    expect(outcome.contents).toMatchObject({ mimeType: 'application/zip', size: ZIP.length });
    expect(outcome.contents.body.wireBytes).toBe(base64Length(ZIP.length) + 2);
    expect(fs.reads).toHaveLength(0);
    expect(fs.opened()).toBe(fs.closed());
    expect((await bytesOf(outcome)).equals(ZIP)).toBe(true);
    expect(fs.reads).toHaveLength(6);
    expect(Math.max(...fs.reads.map((r) => r.bufferBytes))).toBe(STREAM_CHUNK_BYTES);
    expect(fs.opened()).toBe(fs.closed());
  });

  it.each<[string, string, () => ByteLruCache<FileContents>]>([
    ['a text', 'notes.txt', uncached],
    ['a file that fits in one chunk', 'small.zip', uncached],
    ['a blob the cache keeps', 'a.zip', () => new ByteLruCache<FileContents>(64 * 1024 * 1024)],
  ])('reads %s whole, as readContents does', async (_what, name, cache) => {
    const outcome = await readOrStream(spyFs(), within, new ContentStore(cache()), name, Infinity);
    expect(outcome.kind).toBe('ok');
  });

  it('refuses a blob over the limit from its size, unread', async () => {
    const fs = spyFs();
    const limit = base64Length(ZIP.length) + 1;
    const outcome = await readOrStream(fs, within, new ContentStore(uncached()), 'a.zip', limit);
    expect(outcome).toMatchObject({ kind: 'too-large', wireBytes: limit + 1 });
    expect(fs.reads).toHaveLength(0);
    expect(
      (await readOrStream(fs, within, new ContentStore(uncached()), 'a.zip', limit + 1)).kind,
    ).toBe('streamed');
  });

  it('forgets a remembered resolution that the open contradicts (gone, or another version)', async () => {
    const real = join(root, 'gone.zip');
    await writeFile(real, ZIP);
    const stats = await stat(real);
    const store = new ContentStore(uncached());
    let stale = 0;
    const resolved = { kind: 'file', real, stats, stale: () => void stale++ } as const;
    const read = () => readOrStream(nodeFs, within, store, 'gone.zip', Infinity, {}, resolved);
    expect((await read()).kind).toBe('streamed');
    expect(stale).toBe(0);
    await writeFile(real, randomBytes(ZIP.length));
    await utimes(real, stats.atime, new Date(stats.mtimeMs - 60_000));
    expect((await read()).kind).toBe('streamed');
    expect(stale).toBe(1);
    await rm(real);
    expect((await read()).kind).toBe('missing');
    expect(stale).toBe(2);
  });

  it('lets a file being written settle first, as a whole read does', async () => {
    const { mtimeMs } = await stat(join(root, 'a.zip'));
    const waits: number[] = [];
    const fs: ProviderFs = {
      ...nodeFs,
      settleMs: 100,
      now: () => mtimeMs + 10,
      sleep: async (ms) => {
        waits.push(ms);
      },
    };
    const outcome = await readOrStream(fs, within, new ContentStore(uncached()), 'a.zip', Infinity);
    expect(waits.length).toBeGreaterThan(0);
    expect((await bytesOf(outcome)).equals(ZIP)).toBe(true);
  });

  it('throws STREAM_FAILED for another version on disk, and closes the handle', async () => {
    const name = 'replaced.zip';
    await writeFile(join(root, name), ZIP);
    const fs = spyFs();
    const outcome = await readOrStream(fs, within, new ContentStore(uncached()), name, Infinity);
    // Same size, another file: renamed over it after the answer was prepared.
    await writeFile(join(root, 'other.zip'), randomBytes(ZIP.length));
    await rename(join(root, 'other.zip'), join(root, name));
    const error = await bytesOf(outcome).catch((e: unknown) => e);
    expect(isMcpKitError(error, 'STREAM_FAILED')).toBe(true);
    expect((error as Error).message).toContain('replaced.zip changed while it was sent');
    expect((error as Error).message).not.toContain(root);
    expect(fs.opened()).toBe(fs.closed());
  });

  it('closes the handle when the consumer stops early', async () => {
    const fs = spyFs();
    const outcome = await readOrStream(fs, within, new ContentStore(uncached()), 'a.zip', Infinity);
    if (outcome.kind !== 'streamed') throw new Error('not streamed');
    for await (const chunk of outcome.contents.body.chunks()) {
      expect(chunk.length).toBeGreaterThan(0);
      break;
    }
    expect(fs.reads).toHaveLength(1);
    expect(fs.opened()).toBe(fs.closed());
  });
});
