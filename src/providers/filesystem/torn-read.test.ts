import type { FileHandle } from 'node:fs/promises';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import { serveFolder } from './folder-server.js';
import { nodeFs, type ProviderFs } from './fs-types.js';
import { HOT_TRIES, READ_ATTEMPTS } from './read-file.js';
import { SearchCore } from './search-core.js';

type Res = {
  result?: Record<string, unknown> & { content?: Array<{ text?: string }>; isError?: boolean };
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

const A = 'A'.repeat(64);

/** A clock after every mtime these tests set (2030 on): no read waits for a file to settle. */
const later = (): number => Date.UTC(2031, 0, 1);
const quietFs: ProviderFs = { ...nodeFs, now: later };

let root: string;
let file: string;
let version = 0;

/** Truncates and rewrites the file in place (same inode), with a later mtime each time. */
async function rewrite(contents: string): Promise<void> {
  await writeFile(file, contents);
  version++;
  const when = new Date(Date.UTC(2030, 0, 1) + version * 1000);
  await utimes(file, when, when);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcpkit-torn-read-'));
  file = join(root, 'log.txt');
});

beforeEach(async () => {
  await rewrite(A);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/**
 * node:fs whose handles read at most 16 bytes per call (as `read` may), and call
 * `during(attempt)` after the first `read` of each attempt at the file: a writer in between.
 */
function tearingFs(
  during: (attempt: number) => Promise<void>,
): ProviderFs & { attempts: () => number } {
  let attempts = 0;
  let fresh = true;
  return {
    ...quietFs,
    attempts: () => attempts,
    open: async (path, flags) => {
      const handle = await nodeFs.open(path, flags);
      return new Proxy(handle, {
        get(target, prop) {
          if (prop === 'read')
            return async (buffer: Buffer, offset: number, length: number, position: number) => {
              const result = await target.read(buffer, offset, Math.min(length, 16), position);
              if (fresh) {
                fresh = false;
                await during(++attempts);
              }
              return result;
            };
          if (prop === 'stat')
            return async () => {
              fresh = true; // the read path stats before each attempt and after its bytes
              return target.stat();
            };
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      }) as FileHandle;
    },
  };
}

async function readUri(fs: ProviderFs, uri = 'file:///log.txt') {
  const server = createServer({ name: 'torn', version: '1' });
  const provider = serveFolder(server, { root, fs });
  await provider.ready();
  const conn = connectInMemory(server);
  const res = (await conn.send(modern('resources/read', { uri }))) as Res;
  return { res, provider, conn };
}

function onlyContents(res: Res): Record<string, unknown> {
  const contents = res.result?.['contents'] as Array<Record<string, unknown>>;
  expect(contents).toHaveLength(1);
  return contents[0] as Record<string, unknown>;
}

describe('torn reads: a file rewritten while it is read', () => {
  it('shorter: the short read is dropped and the file read again; no mixed bytes, the size of what was read', async () => {
    const B = 'B'.repeat(40);
    const fs = tearingFs(async (attempt) => {
      if (attempt === 1) await rewrite(B);
    });
    const { res } = await readUri(fs);
    const c = onlyContents(res);
    expect(c['text']).toBe(B);
    expect(c['_meta']).toMatchObject({ 'dev.mcpkit/size': 40 });
    expect(fs.attempts()).toBe(2);
  });

  it('same size: the moved mtime is seen after the read; the bytes are all of one version', async () => {
    const B = 'B'.repeat(64);
    const fs = tearingFs(async (attempt) => {
      if (attempt === 1) await rewrite(B);
    });
    const { res } = await readUri(fs);
    // Unchecked, this read would have been 16 A then 48 B: bytes no version ever held.
    expect(onlyContents(res)['text']).toBe(B);
    expect(fs.attempts()).toBe(2);
  });

  it('longer: the grown size is seen after the read', async () => {
    const B = 'B'.repeat(100);
    const fs = tearingFs(async (attempt) => {
      if (attempt === 1) await rewrite(B);
    });
    const c = onlyContents((await readUri(fs)).res);
    expect(c['text']).toBe(B);
    expect(c['_meta']).toMatchObject({ 'dev.mcpkit/size': 100 });
  });

  it(`a file that keeps changing: ${READ_ATTEMPTS} attempts and ${HOT_TRIES} tries, then -32603 "kept changing", nothing cached`, async () => {
    const fs = tearingFs(async (attempt) =>
      rewrite((attempt % 2 ? 'B' : 'A').repeat(30 + attempt)),
    );
    const { res, provider, conn } = await readUri(fs);
    expect(READ_ATTEMPTS).toBe(3);
    expect(fs.attempts()).toBe(READ_ATTEMPTS + HOT_TRIES);
    expect(res.result).toBeUndefined();
    expect(res.error).toEqual({
      code: -32603,
      message: `file:///log.txt kept changing while it was read (${READ_ATTEMPTS + HOT_TRIES} attempts); try again once it is no longer being written.`,
      data: { uri: 'file:///log.txt', reason: 'changed', attempts: READ_ATTEMPTS + HOT_TRIES },
    });
    expect(provider.cacheStats().entries).toBe(0);
    // The "read" tool says the same, as a tool error.
    const tool = (await conn.send(
      modern('tools/call', { name: 'read', arguments: { path: 'log.txt' } }),
    )) as Res;
    expect(tool.result?.isError).toBe(true);
    expect(tool.result?.content?.[0]?.text).toMatch(/kept changing while it was read/);
    // Once the writer stops, the file reads as it is.
    const quiet = await readUri(quietFs);
    expect(onlyContents(quiet.res)['text']).toMatch(/^[AB]+$/);
  });

  it('a search skips a file that keeps changing: no snippet from mixed bytes', async () => {
    const fs = tearingFs(async (attempt) =>
      rewrite(attempt % 2 ? `${'B'.repeat(20)}needle` : 'A'.repeat(30 + attempt)),
    );
    const core = new SearchCore({
      fs,
      root: await nodeFs.realpath(root),
      visibility: { hidden: false, ignore: new Set() },
      refuseHardLinks: false,
      maxFileBytes: 1 << 20,
      readTimeoutMs: 5_000,
      maxPhraseChecks: 10,
    });
    core.upsert({ path: 'log.txt', size: 30, mtimeMs: 1, mimeType: 'text/plain' });
    await core.drained();
    const found = await core.search({ query: 'needle', limit: 5, listLimit: 0 });
    expect(found.hits).toEqual([]);
    expect(fs.attempts()).toBe(READ_ATTEMPTS + HOT_TRIES);
  });

  it('a file that does not change is read in one attempt', async () => {
    const fs = tearingFs(async () => undefined);
    expect(onlyContents((await readUri(fs)).res)['text']).toBe(A);
    expect(fs.attempts()).toBe(1);
  });
});
