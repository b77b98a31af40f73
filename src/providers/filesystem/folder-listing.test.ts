// The listing while the first walk runs: served at once, in path order, with cursors that hold.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectInMemory, type MemoryConnection } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import { createFilesystemProvider, type FilesystemProviderOptions } from './filesystem-provider.js';
import { nodeFs, type ProviderFs } from './fs-types.js';

let base: string;

// In path order, which is not the order of names with folders first or last: `-` and `.` sort
// before `/`, `0` and `~` after it.
const TREE = [
  'a-b.md',
  'a.txt',
  'a/x.md',
  'a/y/z.md',
  'a0.md',
  'b/1.md',
  'b/2.md',
  'b/c/3.md',
  'b/c/4.md',
  'b~.md',
  'c/5.md',
  'c/6.md',
];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mcpkit-listing-'));
  for (const file of TREE) {
    const path = join(base, ...file.split('/'));
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, file);
  }
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** node:fs whose readdir of `held` (a folder under the root) waits until `release()`. */
function holdingFs(held: string): { fs: ProviderFs; release: () => void; reached: Promise<void> } {
  let release = (): void => undefined;
  let reach = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const fs: ProviderFs = {
    ...nodeFs,
    readdir: (async (path: string, options: { withFileTypes: true }) => {
      if (path === join(base, held)) {
        reach();
        await gate;
      }
      return nodeFs.readdir(path, options);
    }) as ProviderFs['readdir'],
  };
  return { fs, release, reached };
}

type Listed = { uri: string; name: string };
type ListResult = { resources: Listed[]; nextCursor?: string };

async function list(conn: MemoryConnection, cursor?: string): Promise<ListResult> {
  const res = (await conn.send(
    modern('resources/list', cursor === undefined ? {} : { cursor }),
  )) as { result?: ListResult; error?: unknown };
  expect(res.error).toBeUndefined();
  return res.result as ListResult;
}

function serve(options: Partial<FilesystemProviderOptions>, pageSize = 100) {
  const server = createServer({ name: 'walk', version: '1', pageSize });
  const provider = createFilesystemProvider({ root: base, ...options });
  provider.register(server);
  return { server, provider, conn: connectInMemory(server) };
}

describe('the walk visits paths in order', () => {
  it('lists files in code-unit order of their paths, without a sort at the end', async () => {
    const { provider } = serve({});
    await provider.ready();
    const paths = (await provider.files()).map((f) => f.path);
    expect(paths).toEqual([...TREE].sort());
    expect(paths).toEqual(TREE);
  });
});

describe('the listing while the first walk runs', () => {
  it('answers from what is walked so far: a prefix of the full listing, in path order', async () => {
    const { fs, release, reached } = holdingFs('b/c');
    const { provider, conn } = serve({ fs, walkWaitMs: 0 });
    await provider.open();
    await reached;
    const during = (await list(conn)).resources.map((r) => r.name);
    expect(during).toEqual(TREE.slice(0, TREE.indexOf('b/2.md') + 1));
    expect(provider.listingState).toMatchObject({ complete: false, files: during.length });
    release();
    await provider.ready();
    expect((await list(conn)).resources.map((r) => r.name)).toEqual(TREE);
    expect(provider.listingState).toEqual({
      complete: true,
      files: TREE.length,
      cut: false,
      maxFiles: 1_000_000,
    });
  });

  it('a cursor names the last path served: paging on as the walk goes lists every file once, in order', async () => {
    const { fs, release, reached } = holdingFs('b/c');
    const { provider, conn } = serve({ fs, walkWaitMs: 0 }, 3);
    await provider.open();
    await reached;
    const first = await list(conn);
    expect(first.resources.map((r) => r.name)).toEqual(TREE.slice(0, 3));
    const second = await list(conn, first.nextCursor);
    expect(second.resources.map((r) => r.name)).toEqual(TREE.slice(3, 6));
    // The walk has found 7 files: the page with the 7th is the last one for now.
    const third = await list(conn, second.nextCursor);
    expect(third.resources.map((r) => r.name)).toEqual(['b/2.md']);
    expect(third.nextCursor).toBeUndefined();
    release();
    await provider.ready();
    // The second page's cursor still holds: the pages after it are the rest, none repeated.
    const rest: string[] = [];
    let cursor = second.nextCursor;
    do {
      const page = await list(conn, cursor);
      rest.push(...page.resources.map((r) => r.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect([...TREE.slice(0, 6), ...rest]).toEqual(TREE);
  });

  it('reads and stats a file the walk has not reached', async () => {
    const { fs, release, reached } = holdingFs('b');
    const { provider, conn } = serve({ fs, walkWaitMs: 0 });
    await provider.open();
    await reached;
    const res = (await conn.send(modern('resources/read', { uri: 'file:///c/6.md' }))) as {
      result?: { contents: Array<{ text?: string }> };
    };
    expect(res.result?.contents[0]?.text).toBe('c/6.md');
    expect(await provider.stat('b/c/4.md')).toMatchObject({ size: 8, mimeType: 'text/markdown' });
    expect(await provider.file('b/c/4.md')).toBeUndefined(); // not listed yet
    release();
    await provider.ready();
  });

  it('completes from what is walked so far and says more may come', async () => {
    const { fs, release, reached } = holdingFs('b');
    const { provider } = serve({ fs, walkWaitMs: 0 });
    await provider.open();
    await reached;
    // b/ is not walked yet: only a name that contains "b".
    expect(await provider.complete('b')).toEqual({ values: ['a-b.md'], total: 1, hasMore: true });
    release();
    await provider.ready();
    expect(await provider.complete('b/c')).toEqual({
      values: ['b/c/3.md', 'b/c/4.md'],
      total: 2,
      hasMore: false,
    });
  });

  it('waits for the first walk up to walkWaitMs: a small folder is listed whole at once', async () => {
    const { conn } = serve({});
    expect((await list(conn)).resources.map((r) => r.name)).toEqual(TREE);
  });

  it('watched: a client that got part of the listing hears list_changed when the walk ends', async () => {
    const { fs, release, reached } = holdingFs('b');
    const { provider, server } = serve({ fs, walkWaitMs: 0, watch: true });
    const changed = vi.spyOn(server, 'notifyListChanged');
    await provider.open();
    await reached;
    await provider.files();
    expect(changed).not.toHaveBeenCalled();
    release();
    await provider.ready();
    expect(changed).toHaveBeenCalledWith('resources');
    provider.close();
  });

  it('watched: no list_changed when nothing partial was served', async () => {
    const { provider, server } = serve({ watch: true });
    const changed = vi.spyOn(server, 'notifyListChanged');
    await provider.ready();
    await provider.files();
    expect(changed).not.toHaveBeenCalled();
    provider.close();
  });
});

describe('maxFiles', () => {
  it('keeps the first files in path order and says so once', async () => {
    const warnings: string[] = [];
    const { provider } = serve({ maxFiles: 5, onWarning: (w) => warnings.push(w) });
    await provider.ready();
    expect((await provider.files()).map((f) => f.path)).toEqual(TREE.slice(0, 5));
    expect(provider.listingState).toEqual({ complete: true, files: 5, cut: true, maxFiles: 5 });
    expect(warnings).toEqual([
      'the folder has more than 5 files: only the first 5 in path order are listed (maxFiles, --max-files); the others are still read by path',
    ]);
  });
});

describe('URIs of listed files', () => {
  it('are the expansion of the template, for plain paths and any other', async () => {
    const { parseTemplate } = await import('../../uri/index.js');
    const { escapePath } = await import('./paths.js');
    const provider = createFilesystemProvider({ root: base, uriPrefix: 'docs://site/' });
    const template = parseTemplate('docs://site/{+path}');
    const names = ['a/b.md', 'a b.md', '-._~', 'notes[1].md', 'é.md', '%41', 'a:b?c#d@e', ''];
    for (let c = 32; c < 127; c++) names.push(`a${String.fromCharCode(c)}b/c`);
    for (const name of names)
      expect(provider.uriOf(name), name).toBe(template.expand({ path: escapePath(name) }));
  });
});
