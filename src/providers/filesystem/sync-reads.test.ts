// Reads run whole in one turn over the default file system's synchronous calls, through the same
// checks as the asynchronous run: which reads do, which start on the asynchronous run before
// anything is opened, and what a change, or a folder swapped for a symlink, does to one.
import { mkdir, mkdtemp, realpath, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '../../server/server.js';
import { modern } from '../../testing/messages.js';
import { connectInMemory } from '../../transports/memory.js';
import { createFilesystemProvider } from './filesystem-provider.js';
import type { ProviderFs, SyncFs } from './fs-types.js';
import { quickFs } from './quick-fs.js';

const MARKER = 'MCPKIT-SYNC-OUTSIDE-7f3a';
const OLD_S = 1_700_000_000;
const SETTLE_MS = 30;

interface Seen {
  async: string[];
  sync: string[];
}

/** quickFs recording which calls each run made (`async` ones by name, `sync` ones by name). */
function recordingFs(hooks: { syncRead?: (fd: number) => void; syncOpen?: (p: string) => void }) {
  const seen: Seen = { async: [], sync: [] };
  const base = quickFs;
  const s = base.sync as SyncFs;
  const fs: ProviderFs = {
    ...base,
    settleMs: SETTLE_MS,
    realpath: (p) => (seen.async.push('realpath'), base.realpath(p)),
    stat: (p) => (seen.async.push('stat'), base.stat(p)),
    open: (p, flags) => (seen.async.push(`open ${p}`), base.open(p, flags)),
    sync: {
      ...s,
      realpath: (p) => (seen.sync.push('realpath'), s.realpath(p)),
      stat: (p) => (seen.sync.push('stat'), s.stat(p)),
      open: (p, flags) => (hooks.syncOpen?.(p), seen.sync.push(`open ${p}`), s.open(p, flags)),
      read: (fd, buffer, offset, length, position) => {
        const n = s.read(fd, buffer, offset, length, position);
        hooks.syncRead?.(fd);
        return n;
      },
    },
  };
  return { fs, seen };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(hooks: Parameters<typeof recordingFs>[0] = {}) {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-sync-reads-')));
  cleanups.push(() => rm(base, { recursive: true, force: true }));
  const root = join(base, 'root');
  await mkdir(join(root, 'notes'), { recursive: true });
  const files: Record<string, string | Buffer> = {
    'notes/a.md': 'inside',
    README: 'no extension: its type is sniffed',
    'big.txt': 'x'.repeat(300 * 1024),
  };
  for (const [name, body] of Object.entries(files)) {
    await writeFile(join(root, name), body);
    await utimes(join(root, name), OLD_S, OLD_S); // long settled
  }
  await mkdir(join(base, 'elsewhere'));
  await writeFile(join(base, 'elsewhere', 'a.md'), MARKER);
  const { fs, seen } = recordingFs(hooks);
  const provider = createFilesystemProvider({ root, fs, watch: true });
  const server = createServer({ name: 'sync', version: '1' });
  provider.register(server);
  await provider.ready();
  cleanups.push(() => provider.close());
  // utimes moved the ctimes: past settleMs, every file is settled.
  await new Promise((r) => setTimeout(r, SETTLE_MS + 20));
  seen.async.length = 0;
  seen.sync.length = 0;
  const conn = connectInMemory(server);
  const read = (uri: string) => conn.send(modern('resources/read', { uri }));
  return { base, root, provider, seen, read };
}

describe('reads over the synchronous calls', () => {
  it('a small settled file is read in one turn: no asynchronous call at all', async () => {
    const { seen, read } = await setup();
    expect(await read('file:///notes/a.md')).toMatchObject({
      result: { contents: [{ uri: 'file:///notes/a.md', text: 'inside' }] },
    });
    expect(seen.async).toEqual([]);
    expect(seen.sync.filter((c) => c.startsWith('open'))).toHaveLength(1);
  });

  it.each([
    ['a type told only by its bytes', 'README', 'no extension: its type is sniffed'],
    ['more than the synchronous read limit', 'big.txt', 'x'.repeat(300 * 1024)],
  ])(
    '%s: read asynchronously, opened once (nothing opened by the first run)',
    async (_, name, text) => {
      const { seen, read } = await setup();
      expect(await read(`file:///${name}`)).toMatchObject({ result: { contents: [{ text }] } });
      expect(seen.sync.filter((c) => c.startsWith('open'))).toEqual([]);
      expect(seen.async.filter((c) => c.startsWith('open'))).toHaveLength(1);
    },
  );

  it('a file changed within settleMs waits asynchronously, and serves what it settles to', async () => {
    const { root, seen, read } = await setup();
    await writeFile(join(root, 'notes', 'a.md'), 'fresh');
    expect(await read('file:///notes/a.md')).toMatchObject({
      result: { contents: [{ text: 'fresh' }] },
    });
    expect(seen.sync.filter((c) => c.startsWith('open'))).toEqual([]);
    expect(seen.async.filter((c) => c.startsWith('open'))).toHaveLength(1);
  });

  it('rewritten while it is read: the bytes read are dropped, the new version is served', async () => {
    let rewrites = 0;
    const ctx: { file?: string } = {};
    const { root, read } = await setup({
      syncRead: () => {
        // Once, right after the bytes were read: a writer in between, same size.
        if (ctx.file && rewrites++ === 0) writeFileSync(ctx.file, 'INSIDE');
      },
    });
    ctx.file = join(root, 'notes', 'a.md');
    const res = await read('file:///notes/a.md');
    expect(rewrites).toBeGreaterThanOrEqual(1);
    expect(res).toMatchObject({ result: { contents: [{ text: 'INSIDE' }] } });
  });

  it('a folder swapped for a symlink outside between the check and the open: refused', async () => {
    const ctx: { swap?: (() => void) | undefined } = {};
    const { base, root, read } = await setup({
      syncOpen: (p) => {
        if (p.endsWith(join('notes', 'a.md')) && ctx.swap) {
          const swap = ctx.swap;
          ctx.swap = undefined;
          swap();
        }
      },
    });
    const { renameSync, symlinkSync } = await import('node:fs');
    ctx.swap = () => {
      renameSync(join(root, 'notes'), join(base, 'moved-away'));
      symlinkSync(join(base, 'elsewhere'), join(root, 'notes'));
    };
    const res = await read('file:///notes/a.md');
    expect(ctx.swap).toBeUndefined(); // the swap happened, in the synchronous run
    expect(res).toMatchObject({ error: { code: -32602 } });
    expect(JSON.stringify(res)).not.toContain(MARKER);
    // Once the watch reports it, the path is resolved again: still refused.
    await rename(join(base, 'moved-away'), join(base, 'moved-back'));
    await symlink(join(base, 'moved-back', 'a.md'), join(root, 'alias.md'));
    expect(await read('file:///alias.md')).toMatchObject({ error: { code: -32602 } });
  });

  it('counts one miss per read in the cache statistics, whichever run answered it', async () => {
    const { provider, read } = await setup();
    for (const name of ['notes/a.md', 'README', 'big.txt']) {
      const before = provider.cacheStats();
      expect(await read(`file:///${name}`)).toMatchObject({ result: { contents: [{}] } });
      const after = provider.cacheStats();
      expect([name, after.misses - before.misses, after.hits - before.hits]).toEqual([name, 1, 0]);
    }
  });
});
