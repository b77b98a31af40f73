/**
 * `readWorkers`: a folder served through the read pool answers every read exactly as one served
 * on libuv's pool (readWorkers 0), and an injected `fs` is always the one that reads.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectInMemory } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import {
  createFilesystemProvider,
  type FilesystemProvider,
  type FilesystemProviderOptions,
} from './filesystem-provider.js';
import { nodeFs, type ProviderFs } from './fs-types.js';
import { ReadPool } from './read-pool.js';

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const MARKER = 'MCPKIT-READ-WORKERS-OUTSIDE-81d2';
/** Small enough that `large.txt` is over what one cache entry may keep (half of it). */
const CACHE_BYTES = 8192;

let base: string;
let root: string;
const providers: FilesystemProvider[] = [];

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-read-workers-')));
  root = join(base, 'root');
  await mkdir(join(root, 'notes'), { recursive: true });
  await writeFile(join(root, 'notes', 'a.md'), '# A\n\nRetry with backoff.\n');
  await writeFile(join(root, 'img.png'), PNG);
  await writeFile(join(root, 'data.json'), '{"a":1}');
  await writeFile(join(root, 'large.txt'), 'line of text\n'.repeat(1000));
  await writeFile(join(root, '.env'), 'SECRET=1');
  await writeFile(join(base, 'secret.txt'), MARKER);
  await symlink(join(base, 'secret.txt'), join(root, 'link-out.txt'));
  await symlink(join(root, 'notes', 'a.md'), join(root, 'alias.md'));
});

afterEach(() => {
  vi.restoreAllMocks();
  for (const provider of providers.splice(0)) provider.close();
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

function serve(options: Partial<FilesystemProviderOptions> = {}) {
  const server = createServer({ name: 'fs', version: '1' });
  const provider = createFilesystemProvider({ root, cacheBytes: CACHE_BYTES, ...options });
  providers.push(provider);
  provider.register(server);
  const conn = connectInMemory(server);
  /** The answer to a read, without the envelope. */
  const read = async (uri: string): Promise<unknown> => {
    const res = (await conn.send(modern('resources/read', { uri }))) as {
      result?: unknown;
      error?: unknown;
    };
    return { result: res.result, error: res.error };
  };
  return { provider, read };
}

const URIS = [
  'file:///notes/a.md',
  'file:///img.png',
  'file:///data.json',
  'file:///large.txt',
  'file:///alias.md',
  'file:///missing.md',
  'file:///notes',
  'file:///../secret.txt',
  'file:///notes/..%2F..%2Fsecret.txt',
  'file:///notes/../../secret.txt',
  'file:///link-out.txt',
  'file:///.env',
];

describe('readWorkers', () => {
  it('answers every read through the pool as reads on libuv’s pool answer them', async () => {
    const run = vi.spyOn(ReadPool.prototype, 'run');
    const onLibuv = serve({ readWorkers: 0 });
    for (const uri of URIS) await onLibuv.read(uri);
    expect(run).not.toHaveBeenCalled();
    const pooled = serve();
    for (const uri of URIS) {
      const expected = await onLibuv.read(uri);
      expect(await pooled.read(uri), uri).toEqual(expected);
      // Twice: the second answer comes from what the first one cached or resolved.
      expect(await pooled.read(uri), uri).toEqual(expected);
      expect(JSON.stringify(expected)).not.toContain(MARKER);
    }
    expect(run).toHaveBeenCalled();
    // The reads that reached the file system went through the pool.
    const asked = new Set(run.mock.calls.map(([job]) => job.relative));
    for (const relative of ['notes/a.md', 'img.png', 'large.txt', 'missing.md', 'link-out.txt'])
      expect(asked, relative).toContain(relative);
  });

  it('serves the text, the binary and the large file whole through the pool', async () => {
    const { read } = serve();
    const contents = (answer: unknown) =>
      (answer as { result: { contents: Array<Record<string, unknown>> } }).result.contents[0];
    expect(contents(await read('file:///notes/a.md'))).toMatchObject({
      mimeType: 'text/markdown',
      text: '# A\n\nRetry with backoff.\n',
    });
    expect(contents(await read('file:///img.png'))).toMatchObject({
      mimeType: 'image/png',
      blob: PNG.toString('base64'),
    });
    expect(contents(await read('file:///large.txt'))).toMatchObject({
      text: 'line of text\n'.repeat(1000),
    });
    for (const uri of ['file:///missing.md', 'file:///link-out.txt', 'file:///.env'])
      expect((await read(uri)) as { error?: { code: number } }, uri).toMatchObject({
        error: { code: -32602 },
      });
  });

  it('serves a file changed between two reads anew, with and without the pool', async () => {
    const file = join(root, 'changing.txt');
    await writeFile(file, 'first version');
    const run = vi.spyOn(ReadPool.prototype, 'run');
    const onLibuv = serve({ readWorkers: 0 });
    const pooled = serve();
    const first = await onLibuv.read('file:///changing.txt');
    expect(await pooled.read('file:///changing.txt')).toEqual(first);
    expect(JSON.stringify(first)).toContain('first version');
    await writeFile(file, 'the second, longer version');
    const second = await onLibuv.read('file:///changing.txt');
    expect(JSON.stringify(second)).toContain('the second, longer version');
    expect(await pooled.read('file:///changing.txt')).toEqual(second);
    const jobs = run.mock.calls.filter(([job]) => job.relative === 'changing.txt');
    expect(jobs).toHaveLength(2);
  });

  it('caches a file from its second read on: one read once leaves the cache empty', async () => {
    const run = vi.spyOn(ReadPool.prototype, 'run');
    const { provider, read } = serve();
    const text = { text: '# A\n\nRetry with backoff.\n' };
    const contents = async () =>
      (await read('file:///notes/a.md')) as { result: { contents: unknown[] } };
    expect((await contents()).result.contents[0]).toMatchObject(text);
    expect(provider.cacheStats().entries).toBe(0);
    expect((await contents()).result.contents[0]).toMatchObject(text);
    expect(provider.cacheStats().entries).toBe(1);
    expect((await contents()).result.contents[0]).toMatchObject(text);
    expect(provider.cacheStats().entries).toBe(1); // the third read is no job: see below
    expect(run.mock.calls.filter(([job]) => job.relative === 'notes/a.md')).toHaveLength(2);
  });

  it('concurrent reads of a path read once share one job, which caches it', async () => {
    const run = vi.spyOn(ReadPool.prototype, 'run');
    const { provider, read } = serve();
    await read('file:///data.json');
    const answers = await Promise.all(Array.from({ length: 8 }, () => read('file:///data.json')));
    for (const answer of answers) expect(JSON.stringify(answer)).toContain('{\\"a\\":1}');
    expect(run.mock.calls.filter(([job]) => job.relative === 'data.json')).toHaveLength(2);
    expect(provider.cacheStats().entries).toBe(1);
  });

  it.each([[{}], [{ readWorkers: 3 }]])(
    'reads through an injected fs, never the pool (%j)',
    async (options) => {
      const run = vi.spyOn(ReadPool.prototype, 'run');
      const calls: string[] = [];
      const counted = <K extends 'realpath' | 'stat' | 'open'>(name: K): ProviderFs[K] =>
        ((...args: Parameters<ProviderFs[K]>) => {
          calls.push(name);
          return (nodeFs[name] as (...a: Parameters<ProviderFs[K]>) => unknown)(...args);
        }) as ProviderFs[K];
      const fs: ProviderFs = {
        ...nodeFs,
        realpath: counted('realpath'),
        stat: counted('stat'),
        open: counted('open'),
      };
      const { read } = serve({ ...options, fs });
      await read('file:///notes/a.md'); // the listing walks first: count the reads alone
      calls.length = 0;
      expect(JSON.stringify(await read('file:///img.png'))).toContain(PNG.toString('base64'));
      expect(JSON.stringify(await read('file:///missing.md'))).toContain('-32602');
      expect(calls).toContain('realpath');
      expect(calls).toContain('open');
      expect(run).not.toHaveBeenCalled();
    },
  );
});
