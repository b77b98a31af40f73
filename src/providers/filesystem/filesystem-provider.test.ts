import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import {
  link,
  mkdir,
  mkdtemp,
  open,
  rename,
  rm,
  symlink,
  truncate,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectInMemory } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import type { ServerOptions } from '../../server/index.js';
import { createFilesystemProvider, type FilesystemProviderOptions } from './filesystem-provider.js';
import { nodeFs, type ProviderFs } from './fs-types.js';
import { readFileContents, sniffFile } from './read-file.js';
import { SearchCore } from './search-core.js';

const MiB = 1024 * 1024;
// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** node:fs with a count of `open` calls: the only call that reads bytes. */
function countingFs(): ProviderFs & { opens: string[] } {
  const opens: string[] = [];
  return {
    ...nodeFs,
    opens,
    open: (path, flags) => {
      opens.push(path);
      return nodeFs.open(path, flags);
    },
  };
}

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mcpkit-fs-provider-'));
  root = join(base, 'root');
  await mkdir(join(root, 'notes', 'deep'), { recursive: true });
  await mkdir(join(root, '.git'), { recursive: true });
  await mkdir(join(root, 'node_modules', 'x'), { recursive: true });
  await writeFile(join(root, 'notes', 'a.md'), '# A\n\nRetry with backoff.\n');
  await writeFile(join(root, 'notes', 'deep', 'b.txt'), 'b text');
  await writeFile(join(root, 'data.json'), '{"a":1}');
  await writeFile(join(root, 'img.png'), PNG);
  await writeFile(join(root, 'picture.zzq'), PNG);
  await writeFile(join(root, 'words.zzq'), 'plain words, no extension we know');
  await writeFile(join(root, 'Makefile'), 'all:\n\techo hi\n');
  await writeFile(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café" in Latin-1
  await writeFile(join(root, '100% sure.md'), 'percent');
  await writeFile(join(root, '.env'), 'SECRET=1');
  await writeFile(join(root, '.git', 'config'), '[core]');
  await writeFile(join(root, 'node_modules', 'x', 'index.js'), 'module.exports = 1;');
  await writeFile(join(root, 'big.bin'), '');
  await truncate(join(root, 'big.bin'), 64 * MiB); // sparse: instant, no disk used
  await symlink(join(root, 'notes', 'a.md'), join(root, 'alias.md'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

function setup(
  options: Partial<FilesystemProviderOptions> = {},
  server: Partial<ServerOptions> = {},
) {
  const fs = countingFs();
  const srv = createServer({ name: 'fs', version: '1', ...server });
  const provider = createFilesystemProvider({ root, fs, ...options });
  provider.register(srv);
  return { fs, provider, server: srv, conn: connectInMemory(srv) };
}

type Res = {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

async function read(conn: ReturnType<typeof connectInMemory>, uri: string): Promise<Res> {
  return (await conn.send(modern('resources/read', { uri }))) as Res;
}

function contentsOf(res: Res): Record<string, unknown> {
  return (res.result?.['contents'] as Array<Record<string, unknown>>)[0] as Record<string, unknown>;
}

describe('filesystem provider: resources/list', () => {
  it('lists every visible regular file under the root, sorted, with size, mimeType and lastModified', async () => {
    const { conn } = setup();
    const res = (await conn.send(modern('resources/list'))) as Res;
    const resources = res.result?.['resources'] as Array<Record<string, unknown>>;
    expect(resources.map((r) => r.name)).toEqual([
      '100% sure.md',
      'Makefile',
      'alias.md',
      'big.bin',
      'data.json',
      'img.png',
      'latin1.txt',
      'notes/a.md',
      'notes/deep/b.txt',
      'picture.zzq',
      'words.zzq',
    ]);
    expect(resources.find((r) => r.name === 'notes/a.md')).toEqual({
      uri: 'file:///notes/a.md',
      name: 'notes/a.md',
      mimeType: 'text/markdown',
      size: 25,
      annotations: {
        lastModified: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    });
    expect(resources.find((r) => r.name === 'big.bin')).toMatchObject({
      size: 64 * MiB,
      mimeType: 'application/octet-stream',
    });
    expect(resources.find((r) => r.name === '100% sure.md')).toMatchObject({
      uri: 'file:///100%25%20sure.md',
    });
    // Never an absolute host path.
    expect(JSON.stringify(res)).not.toContain(base);
  });

  it('sniffs the type of unknown extensions from the first bytes', async () => {
    const { provider } = setup();
    const files = await provider.files();
    expect(files.find((f) => f.path === 'picture.zzq')?.mimeType).toBe('image/png');
    expect(files.find((f) => f.path === 'words.zzq')?.mimeType).toBe('text/plain');
    expect(files.find((f) => f.path === 'Makefile')?.mimeType).toBe('text/plain');
  });

  it('pages with stable cursors, even when a file appears before the cursor between pages', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-fs-paging-'));
    try {
      const names = Array.from({ length: 25 }, (_, i) => `f${String(i).padStart(2, '0')}.txt`);
      await Promise.all(names.map((n) => writeFile(join(dir, n), n)));
      const srv = createServer({ name: 'p', version: '1', pageSize: 10 });
      createFilesystemProvider({ root: dir, rescanMs: 0 }).register(srv);
      const conn = connectInMemory(srv);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = (await conn.send(modern('resources/list', cursor ? { cursor } : {}))) as Res;
        seen.push(...(res.result?.['resources'] as Array<{ name: string }>).map((r) => r.name));
        cursor = res.result?.['nextCursor'] as string | undefined;
        if (++pages === 1) await writeFile(join(dir, 'a-new.txt'), 'new'); // sorts before every page
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual(names);
      const again = (await conn.send(modern('resources/list'))) as Res;
      expect((again.result?.['resources'] as Array<{ name: string }>)[0]?.name).toBe('a-new.txt');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('leaves out dot-files, dot-directories and node_modules, and refuses to read them', async () => {
    const { conn, provider } = setup();
    const names = (await provider.files()).map((f) => f.path);
    expect(names.some((n) => n.startsWith('.') || n.includes('node_modules'))).toBe(false);
    for (const uri of ['file:///.env', 'file:///.git/config', 'file:///node_modules/x/index.js']) {
      const res = await read(conn, uri);
      expect(res.error?.code, uri).toBe(-32602);
      expect(JSON.stringify(res)).not.toMatch(/SECRET=1|\[core\]|module\.exports/);
    }
  });

  it('serves hidden files when asked to', async () => {
    const { conn } = setup({ hidden: true, ignore: [] });
    expect(contentsOf(await read(conn, 'file:///.env'))).toMatchObject({ text: 'SECRET=1' });
    expect(contentsOf(await read(conn, 'file:///node_modules/x/index.js'))).toMatchObject({
      text: 'module.exports = 1;',
    });
  });

  it('completes paths: prefix matches first, then substring matches', async () => {
    const { conn } = setup();
    const ask = async (value: string) =>
      (
        (await conn.send(
          modern('completion/complete', {
            ref: { type: 'ref/resource', uri: 'file:///{+path}' },
            argument: { name: 'path', value },
          }),
        )) as Res
      ).result?.['completion'];
    expect(await ask('notes/')).toEqual({
      values: ['notes/a.md', 'notes/deep/b.txt'],
      total: 2,
      hasMore: false,
    });
    expect(await ask('DEEP')).toEqual({ values: ['notes/deep/b.txt'], total: 1, hasMore: false });
  });
});

describe('filesystem provider: resources/read', () => {
  it('reads text as text with its mimeType, size and lastModified in _meta', async () => {
    const { conn } = setup();
    const c = contentsOf(await read(conn, 'file:///notes/a.md'));
    expect(c).toEqual({
      uri: 'file:///notes/a.md',
      mimeType: 'text/markdown',
      text: '# A\n\nRetry with backoff.\n',
      _meta: { 'dev.mcpkit/size': 25, 'dev.mcpkit/lastModified': expect.any(String) },
    });
    expect(contentsOf(await read(conn, 'file:///data.json'))).toMatchObject({
      mimeType: 'application/json',
      text: '{"a":1}',
    });
    expect(contentsOf(await read(conn, 'file:///Makefile'))).toMatchObject({
      mimeType: 'text/plain',
      text: 'all:\n\techo hi\n',
    });
    expect(contentsOf(await read(conn, 'file:///100%25%20sure.md'))).toMatchObject({
      text: 'percent',
    });
  });

  it('reads binary as a base64 blob with its mimeType; unknown extensions are sniffed', async () => {
    const { conn } = setup();
    expect(contentsOf(await read(conn, 'file:///img.png'))).toMatchObject({
      mimeType: 'image/png',
      blob: PNG.toString('base64'),
    });
    expect(contentsOf(await read(conn, 'file:///picture.zzq'))).toMatchObject({
      mimeType: 'image/png',
      blob: PNG.toString('base64'),
    });
    expect(contentsOf(await read(conn, 'file:///words.zzq'))).toMatchObject({
      mimeType: 'text/plain',
      text: 'plain words, no extension we know',
    });
  });

  it('serves a text type that is not valid UTF-8 as a blob of that type', async () => {
    const { conn } = setup();
    const c = contentsOf(await read(conn, 'file:///latin1.txt'));
    expect(c).toMatchObject({
      mimeType: 'text/plain',
      blob: Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]).toString('base64'),
    });
    expect(c['text']).toBeUndefined();
  });

  it('follows a symlink that stays inside the root', async () => {
    const { conn } = setup();
    expect(contentsOf(await read(conn, 'file:///alias.md'))).toMatchObject({
      uri: 'file:///alias.md',
      text: '# A\n\nRetry with backoff.\n',
    });
  });

  it('answers -32602 "not found" for a missing file or a directory', async () => {
    const { conn } = setup();
    for (const uri of ['file:///nope.md', 'file:///notes', 'file:///notes/', 'file:///']) {
      expect((await read(conn, uri)).error, uri).toMatchObject({ code: -32602 });
    }
  });

  it('reads a file created after the listing was built (the template covers new files)', async () => {
    const { conn, provider } = setup({ rescanMs: 60_000 });
    await provider.ready();
    await writeFile(join(root, 'notes', 'later.md'), 'later');
    try {
      expect(contentsOf(await read(conn, 'file:///notes/later.md'))).toMatchObject({
        text: 'later',
      });
    } finally {
      await rm(join(root, 'notes', 'later.md'));
    }
  });

  it('caches encoded contents: a second read of an unchanged file does not open it; a change is read again', async () => {
    const file = join(root, 'notes', 'cached.md');
    await writeFile(file, 'one');
    try {
      const { conn, fs, provider } = setup();
      await provider.ready();
      const before = fs.opens.length;
      expect(contentsOf(await read(conn, 'file:///notes/cached.md'))).toMatchObject({
        text: 'one',
      });
      expect(contentsOf(await read(conn, 'file:///notes/cached.md'))).toMatchObject({
        text: 'one',
      });
      expect(fs.opens.length - before).toBe(1);
      expect(provider.cacheStats()).toMatchObject({ hits: 1, entries: 1 });
      await writeFile(file, 'two!');
      await utimes(file, new Date(), new Date(Date.now() + 5000));
      expect(contentsOf(await read(conn, 'file:///notes/cached.md'))).toMatchObject({
        text: 'two!',
      });
      expect(fs.opens.length - before).toBe(2);
    } finally {
      await rm(file);
    }
  });

  it('keeps the cache within its byte budget', async () => {
    const { conn, provider } = setup({ cacheBytes: 64 });
    await read(conn, 'file:///notes/a.md'); // 27 wire bytes
    await read(conn, 'file:///data.json'); // 11
    await read(conn, 'file:///img.png'); // 94: over half the budget, not kept
    expect(provider.cacheStats()).toMatchObject({ entries: 2 });
    expect(provider.cacheStats().bytes).toBeLessThanOrEqual(64);
  });

  it('refuses a file over the result cap from its size alone: -32603 with sizes, nothing read', async () => {
    const { conn, fs, provider } = setup({}, { content: { capBytes: 2000 } });
    await writeFile(join(root, 'notes', 'long.md'), 'x'.repeat(5000));
    try {
      await provider.ready();
      const before = fs.opens.length;
      const uri = 'file:///notes/long.md';
      const res = await read(conn, uri);
      // The cap reported is the one the text was compared with: the result's, less the envelope.
      const envelope =
        Buffer.byteLength(
          JSON.stringify({
            uri,
            mimeType: 'application/octet-stream',
            _meta: { 'dev.mcpkit/size': 0, 'dev.mcpkit/lastModified': new Date(0).toISOString() },
          }),
        ) + 16;
      expect(res.error).toMatchObject({
        code: -32603,
        message: expect.stringMatching(
          /too large.*5000 bytes.*cap.*in parts.*file:\/\/\/\{\+path\}\{\?offset,length,version\}.*file:\/\/\/notes\/long\.md\?offset=0&length=1048576.*--max-response-bytes/s,
        ),
        data: {
          uri,
          size: 5000,
          wireBytes: 5002,
          capBytes: 2000 - envelope,
          partsTemplate: 'file:///{+path}{?offset,length,version}',
          firstPart: 'file:///notes/long.md?offset=0&length=1048576',
          reason: 'too-large',
        },
      });
      expect(res.error?.message).not.toMatch(/--max-line-bytes|--max-body-bytes/);
      expect(fs.opens.length).toBe(before);
    } finally {
      await rm(join(root, 'notes', 'long.md'));
    }
  });
});

describe('filesystem provider: a 64 MiB file', () => {
  it('is refused by resources/read under the default cap without being opened', async () => {
    const { conn, fs, provider } = setup();
    await provider.ready();
    const before = fs.opens.length;
    const res = await read(conn, 'file:///big.bin');
    expect(res.error).toMatchObject({
      code: -32603,
      data: { size: 64 * MiB, wireBytes: expect.any(Number) },
    });
    expect(fs.opens.length).toBe(before);
  });

  it('is linked, unread, by ctx.attach in auto mode and by ctx.link: to its first part', async () => {
    const { server, conn, fs, provider } = setup();
    server.tool('attach', {}, (_a, ctx) => ctx.result(ctx.attach('file:///big.bin')));
    server.tool('link', {}, async (_a, ctx) => [await ctx.link('file:///big.bin')]);
    await provider.ready();
    const before = fs.opens.length;
    for (const name of ['attach', 'link']) {
      const res = (await conn.send(modern('tools/call', { name }))) as Res;
      expect(res.result?.['content'], name).toEqual([
        {
          type: 'resource_link',
          uri: 'file:///big.bin?offset=0&length=1048576',
          name: 'big.bin',
          description:
            'big.bin: 64.00 MiB (67108864 B), too large to read whole over this connection; ' +
            'this is its first part (read the next parts through _meta["dev.mcpkit/part"].next)',
          mimeType: 'application/octet-stream',
          size: MiB,
        },
      ]);
    }
    expect(fs.opens.length).toBe(before);
  });
});

describe('filesystem provider: changes', () => {
  it('rescans on demand and notifies list changes and resource updates', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-fs-changes-'));
    try {
      await writeFile(join(dir, 'a.md'), 'a');
      const srv = createServer({ name: 'c', version: '1' });
      const provider = createFilesystemProvider({ root: dir, rescanMs: 60_000 });
      provider.register(srv);
      await provider.ready();
      const listChanged = vi.spyOn(srv, 'notifyListChanged');
      const updated = vi.spyOn(srv, 'notifyResourceUpdated');
      await writeFile(join(dir, 'b.md'), 'b');
      await writeFile(join(dir, 'a.md'), 'a, longer');
      expect(await provider.rescan()).toEqual({ added: ['b.md'], removed: [], changed: ['a.md'] });
      expect(listChanged).toHaveBeenCalledWith('resources');
      expect(updated).toHaveBeenCalledWith('file:///a.md');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('watches the folder when asked (and never crashes when it cannot)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-fs-watch-'));
    const warnings: string[] = [];
    const provider = createFilesystemProvider({
      root: dir,
      watch: true,
      onWarning: (m) => warnings.push(m),
    });
    try {
      const srv = createServer({ name: 'w', version: '1' });
      provider.register(srv);
      await provider.ready();
      const listChanged = vi.spyOn(srv, 'notifyListChanged');
      await writeFile(join(dir, 'new.md'), 'new');
      const deadline = Date.now() + 5000;
      while (
        listChanged.mock.calls.length === 0 &&
        warnings.length === 0 &&
        Date.now() < deadline
      ) {
        await new Promise((r) => setTimeout(r, 50));
      }
      if (warnings.length === 0) expect(listChanged).toHaveBeenCalledWith('resources');
      expect((await provider.files()).map((f) => f.path)).toContain('new.md');
    } finally {
      provider.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('watches new subdirectories too (one watch per listed directory on Linux)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-fs-watch-deep-'));
    const warnings: string[] = [];
    const provider = createFilesystemProvider({
      root: dir,
      watch: true,
      onWarning: (m) => warnings.push(m),
    });
    const waitFor = async (what: () => Promise<boolean>): Promise<boolean> => {
      for (const deadline = Date.now() + 5000; Date.now() < deadline;) {
        if (await what()) return true;
        await new Promise((r) => setTimeout(r, 50));
      }
      return false;
    };
    try {
      await provider.ready();
      const listed = async (name: string) => (await provider.files()).some((f) => f.path === name);
      await mkdir(join(dir, 'sub'));
      await writeFile(join(dir, 'sub', 'one.md'), '1');
      expect(await waitFor(() => listed('sub/one.md'))).toBe(true);
      await writeFile(join(dir, 'sub', 'two.md'), '2'); // only a watch on sub/ sees this
      expect(await waitFor(() => listed('sub/two.md'))).toBe(true);
      expect(warnings).toEqual([]);
    } finally {
      provider.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rejects a root that is not a folder', async () => {
    const provider = createFilesystemProvider({ root: join(base, 'missing') });
    await expect(provider.ready()).rejects.toMatchObject({ code: 'ROOT_NOT_FOUND' });
    expect(() => createFilesystemProvider({ root: base, uriPrefix: 'docs' })).toThrow(/uriPrefix/);
  });

  it('serves under another URI prefix', async () => {
    const srv = createServer({ name: 'u', version: '1' });
    createFilesystemProvider({ root, uriPrefix: 'docs://site/' }).register(srv);
    const conn = connectInMemory(srv);
    expect(contentsOf(await read(conn, 'docs://site/notes/a.md'))).toMatchObject({
      uri: 'docs://site/notes/a.md',
      mimeType: 'text/markdown',
    });
  });
});

/** node:fs without the kernel's view of descriptors: the portable check of an opened file. */
const portableFs: ProviderFs = {
  realpath: nodeFs.realpath,
  stat: nodeFs.stat,
  readdir: nodeFs.readdir,
  open: nodeFs.open,
};

/**
 * The race of a parent directory swapped for a symlink between the check and the open, made
 * deterministic: every open under `dir` first turns `dir` into a symlink to `outside`, opens,
 * and turns it back into the real directory before returning.
 */
function swappingFs(fs: ProviderFs, dir: string, outside: string): ProviderFs {
  // One swap at a time: the walk opens several files of `dir` at once.
  let turn: Promise<unknown> = Promise.resolve();
  const swapped = async (path: string, flags: number) => {
    await rename(dir, `${dir}.real`);
    await symlink(outside, dir);
    try {
      return await fs.open(path, flags);
    } finally {
      await unlink(dir);
      await rename(`${dir}.real`, dir);
    }
  };
  return {
    ...fs,
    open: (path, flags) => {
      if (!path.startsWith(dir + sep)) return fs.open(path, flags);
      const opened = turn.then(() => swapped(path, flags));
      turn = opened.catch(() => undefined);
      return opened;
    },
  };
}

describe('filesystem provider: what is opened is what was checked (symlink race)', () => {
  let raceRoot: string;
  let outside: string;

  beforeAll(async () => {
    raceRoot = join(base, 'race-root');
    outside = join(base, 'race-outside');
    await mkdir(join(raceRoot, 'sub'), { recursive: true });
    await mkdir(outside, { recursive: true });
    await writeFile(join(raceRoot, 'sub', 'secret.txt'), 'decoy inside the root\n');
    await writeFile(join(outside, 'secret.txt'), 'TOP SECRET: outside the served folder\n');
    await writeFile(join(raceRoot, 'sub', 'blob.zzq'), 'plain text inside');
    await writeFile(join(outside, 'blob.zzq'), PNG);
  });

  it.each([
    ['the kernel path of the descriptor (Linux)', nodeFs],
    ['resolving again and comparing device and inode', portableFs],
  ])(
    'refuses with -32602 and no bytes a read whose parent became a symlink out of the root, checked by %s',
    async (_how, fs) => {
      const srv = createServer({ name: 'race', version: '1' });
      const sub = join(await nodeFs.realpath(raceRoot), 'sub');
      const provider = createFilesystemProvider({
        root: raceRoot,
        fs: swappingFs(fs, sub, outside),
        cacheBytes: 0,
      });
      provider.register(srv);
      await provider.ready(); // the walk's sniffs swap the folder too: not during the read
      const conn = connectInMemory(srv);
      const res = await read(conn, 'file:///sub/secret.txt');
      expect(JSON.stringify(res)).not.toContain('TOP SECRET');
      expect(res.error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(
          /^Refused resource URI .*no longer inside the served folder/,
        ),
      });
      expect(res.error?.message).not.toContain(base);
      // Sniffing during the walk opened the outside PNG: the file is left out, not typed by it.
      expect((await provider.file('sub/blob.zzq'))?.mimeType).toBeUndefined();
      // The search index reads through the same checks.
      const core = new SearchCore({
        fs: swappingFs(fs, sub, outside),
        ...(await provider.containment()),
        refuseHardLinks: false,
        maxFileBytes: 1 << 20,
        readTimeoutMs: 5_000,
        maxPhraseChecks: 10,
      });
      core.upsert({ path: 'sub/secret.txt', size: 22, mtimeMs: 1, mimeType: 'text/plain' });
      await core.drained();
      expect((await core.search({ query: 'TOP SECRET', limit: 5, listLimit: 0 })).total).toBe(0);
      expect((await core.search({ query: 'secret', limit: 5, listLimit: 0 })).hits).toEqual([
        { path: 'sub/secret.txt', where: 'name' },
      ]);
    },
  );

  it('still reads the file when nothing moved', async () => {
    for (const fs of [nodeFs, portableFs]) {
      const srv = createServer({ name: 'race', version: '1' });
      createFilesystemProvider({ root: raceRoot, fs }).register(srv);
      expect(contentsOf(await read(connectInMemory(srv), 'file:///sub/secret.txt'))).toMatchObject({
        text: 'decoy inside the root\n',
      });
    }
  });
});

describe.skipIf(process.platform === 'win32')('filesystem provider: a FIFO swapped in', () => {
  let fifoDir: string;
  let fifo: string;

  beforeAll(async () => {
    fifoDir = await nodeFs.realpath(await mkdtemp(join(tmpdir(), 'mcpkit-fifo-')));
    fifo = join(fifoDir, 'x.txt');
    execFileSync('mkfifo', [fifo]);
  });

  afterEach(async () => {
    // Releases an open that blocked (before O_NONBLOCK) so that the test process can end.
    try {
      await (await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK)).close();
    } catch {
      // no reader waiting
    }
  });

  afterAll(async () => {
    await rm(fifoDir, { recursive: true, force: true });
  });

  const within = () => ({
    root: fifoDir,
    visibility: { hidden: false, ignore: new Set<string>() },
  });
  const orHang = <T>(p: Promise<T>) =>
    Promise.race([p, new Promise<string>((r) => setTimeout(() => r('hung'), 2000).unref())]);

  it('is not waited on by a read (O_NONBLOCK): "missing", at once', async () => {
    expect(await orHang(readFileContents(nodeFs, fifo, 'x.txt', 1e9, within()))).toEqual({
      kind: 'missing',
    });
  });

  it('is not waited on by the sniff of the index', async () => {
    expect(await orHang(sniffFile(nodeFs, fifo, within()))).toBeUndefined();
  });
});

describe('filesystem provider: maxFiles bounds the walk', () => {
  let many: string;

  beforeAll(async () => {
    many = join(base, 'many');
    await mkdir(join(many, 'deeper'), { recursive: true });
    for (let i = 0; i < 300; i++) await writeFile(join(many, `f${i}.zzq`), 'x');
    for (let i = 0; i < 50; i++) await writeFile(join(many, 'deeper', `g${i}.zzq`), 'y');
  });

  function countedFs() {
    const counts = { stat: 0, open: 0 };
    const fs: ProviderFs = {
      ...nodeFs,
      stat: (p) => (counts.stat++, nodeFs.stat(p)),
      open: (p, f) => (counts.open++, nodeFs.open(p, f)),
    };
    return { counts, fs };
  }

  it('stats and sniffs no more files than it lists, and never sniffs an unchanged file again', async () => {
    const { counts, fs } = countedFs();
    const warnings: string[] = [];
    const provider = createFilesystemProvider({
      root: many,
      maxFiles: 10,
      fs,
      onWarning: (w) => warnings.push(w),
    });
    await provider.ready();
    expect(await provider.files()).toHaveLength(10);
    expect(counts.stat).toBeLessThanOrEqual(11); // the root, then one per listed file
    expect(counts.open).toBe(10);
    expect(warnings).toEqual([
      'the folder has more than 10 files: only the first 10 in path order are listed (maxFiles, --max-files); the others are still read by path',
    ]);
    counts.stat = 0;
    counts.open = 0;
    await provider.rescan();
    expect(await provider.files()).toHaveLength(10);
    expect(counts.stat).toBeLessThanOrEqual(10);
    expect(counts.open).toBe(0);
  });

  it('lists everything, without a warning, when the folder holds exactly maxFiles files', async () => {
    const warnings: string[] = [];
    const provider = createFilesystemProvider({
      root: join(many, 'deeper'),
      maxFiles: 50,
      onWarning: (w) => warnings.push(w),
    });
    expect(await provider.files()).toHaveLength(50);
    expect(warnings).toEqual([]);
  });
});

describe('filesystem provider: URIs of names with reserved characters', () => {
  const names: Array<[string, string]> = [
    ['notes[1].md', 'file:///notes%5B1%5D.md'],
    ['key:value@host.md', 'file:///key%3Avalue%40host.md'],
    ['q?x#y.md', 'file:///q%3Fx%23y.md'],
    ['50% off [2].md', 'file:///50%25%20off%20%5B2%5D.md'],
    ['sub/[x]/y.md', 'file:///sub/%5Bx%5D/y.md'],
  ];
  let odd: string;

  beforeAll(async () => {
    odd = join(base, 'odd');
    await mkdir(join(odd, 'sub', '[x]'), { recursive: true });
    for (const [name] of names)
      await writeFile(join(odd, ...name.split('/')), `contents of ${name}`);
  });

  it('percent-encodes [ ] and the other gen-delims but "/", lists them, and reads them back', async () => {
    const srv = createServer({ name: 'odd', version: '1' });
    const provider = createFilesystemProvider({ root: odd });
    provider.register(srv);
    const conn = connectInMemory(srv);
    const listed = (await conn.send(modern('resources/list'))) as Res;
    const uris = (listed.result?.['resources'] as Array<{ uri: string }>).map((r) => r.uri);
    expect(uris.sort()).toEqual(names.map(([, uri]) => uri).sort());
    for (const [name, uri] of names) {
      expect(provider.uriOf(name)).toBe(uri);
      expect(provider.pathOf(uri)).toBe(name);
      // RFC 3986: after "file:", a path of pchars and "/" only.
      expect(uri.slice('file:'.length)).toMatch(
        /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-F]{2})*$/,
      );
      expect(uri.slice('file:///'.length)).not.toMatch(/[[\]?#@:]/);
      expect(contentsOf(await read(conn, uri)), uri).toMatchObject({
        uri,
        text: `contents of ${name}`,
      });
    }
  });
});

describe('filesystem provider: names too long for the file system', () => {
  it.each([
    ['one 300-character segment', `${'a'.repeat(300)}.md`],
    ['a 5000-character path', `${'ab/'.repeat(1700)}x.md`],
    ['a long segment under a directory', `notes/${'b'.repeat(4000)}`],
  ])('%s: -32602 not found, never -32603, never the host path', async (_what, path) => {
    const { conn } = setup();
    const res = await read(conn, `file:///${path}`);
    expect(res.error).toMatchObject({ code: -32602 });
    expect(JSON.stringify(res)).not.toContain(base);
  });
});

describe('filesystem provider: hard links', () => {
  let hard: string;

  beforeAll(async () => {
    hard = join(base, 'hard');
    await mkdir(join(hard, 'root'), { recursive: true });
    await mkdir(join(hard, 'outside'), { recursive: true });
    await writeFile(join(hard, 'outside', 'secret.txt'), 'TOP SECRET outside the root\n');
    await link(join(hard, 'outside', 'secret.txt'), join(hard, 'root', 'innocent.txt'));
    await writeFile(join(hard, 'root', 'single.txt'), 'one link');
  });

  it('are served like the files they are by default', async () => {
    const srv = createServer({ name: 'hard', version: '1' });
    createFilesystemProvider({ root: join(hard, 'root') }).register(srv);
    expect(contentsOf(await read(connectInMemory(srv), 'file:///innocent.txt'))).toMatchObject({
      text: 'TOP SECRET outside the root\n',
    });
  });

  it('with refuseHardLinks: refused with -32602 and not listed; single-link files still served', async () => {
    const srv = createServer({ name: 'hard', version: '1' });
    const provider = createFilesystemProvider({ root: join(hard, 'root'), refuseHardLinks: true });
    provider.register(srv);
    const conn = connectInMemory(srv);
    const res = await read(conn, 'file:///innocent.txt');
    expect(JSON.stringify(res)).not.toContain('TOP SECRET');
    expect(res.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/more than one hard link \(refuseHardLinks\)/),
    });
    expect((await provider.files()).map((f) => f.path)).toEqual(['single.txt']);
    expect(await provider.stat('innocent.txt')).toBeUndefined();
    expect(contentsOf(await read(conn, 'file:///single.txt'))).toMatchObject({ text: 'one link' });
  });

  it('with refuseHardLinks: a link made between the check and the open is refused too', async () => {
    const single = join(hard, 'root', 'single.txt');
    const extra = join(hard, 'outside', 'late-link.txt');
    const fs: ProviderFs = {
      ...nodeFs,
      open: async (p, f) => {
        if (p.endsWith('single.txt')) await link(single, extra);
        return nodeFs.open(p, f);
      },
    };
    const srv = createServer({ name: 'hard', version: '1' });
    createFilesystemProvider({ root: join(hard, 'root'), refuseHardLinks: true, fs }).register(srv);
    try {
      const res = await read(connectInMemory(srv), 'file:///single.txt');
      expect(res.error).toMatchObject({ code: -32602 });
    } finally {
      await rm(extra, { force: true });
    }
  });
});
