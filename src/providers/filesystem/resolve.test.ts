import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ByteLruCache } from './content-cache.js';
import { nodeFs } from './fs-types.js';
import { isInside, isPlainRelative, isVisiblePath, relativeInside } from './paths.js';
import { resolveInRoot } from './resolve.js';

const visibility = { hidden: false, ignore: new Set(['node_modules']) };
let base: string;
let root: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcpkit-fs-resolve-')));
  root = join(base, 'root');
  await mkdir(join(root, 'dir'), { recursive: true });
  await writeFile(join(root, 'dir', 'a.txt'), 'a');
  await writeFile(join(root, '.hidden'), 'h');
  await writeFile(join(base, 'outside.txt'), 'o');
  await symlink(join(root, '.hidden'), join(root, 'to-hidden'));
  await symlink(join(base, 'outside.txt'), join(root, 'to-outside'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('resolveInRoot: the second line of defence (raw relative paths, no template in front)', () => {
  it.each([
    ['../outside.txt', 'refused', /leaves the served folder/],
    ['dir/../../outside.txt', 'refused', /leaves the served folder/],
    ['/etc/passwd', 'refused', /absolute/],
    ['dir\\..\\..\\outside.txt', 'refused', /backslash/],
    ['dir/a.txt\0.png', 'refused', /NUL/],
    ['to-outside', 'refused', /through a symlink/],
    ['to-hidden', 'missing', undefined],
    ['.hidden', 'missing', undefined],
    ['dir', 'missing', undefined],
    ['', 'missing', undefined],
    ['nope', 'missing', undefined],
    ['dir/a.txt/x', 'missing', undefined],
    // ENAMETOOLONG from realpath: "missing", not a thrown error that names the host path.
    [`${'a'.repeat(300)}.md`, 'missing', undefined],
    [`dir/${'b'.repeat(5000)}`, 'missing', undefined],
    ['dir/a.txt', 'file', undefined],
    ['dir/./a.txt', 'file', undefined],
    ['dir/../dir/a.txt', 'file', undefined],
  ])('%j -> %s', async (relative, kind, reason) => {
    const resolved = await resolveInRoot(nodeFs, root, relative, visibility);
    expect(resolved.kind).toBe(kind);
    if (reason) expect(resolved).toMatchObject({ reason: expect.stringMatching(reason) });
    if (resolved.kind === 'file') expect(resolved.real).toBe(join(root, 'dir', 'a.txt'));
  });
});

describe('paths', () => {
  it.each([
    ['/r', '/r', true],
    ['/r', '/r/a', true],
    ['/r', '/r/..a', true],
    ['/r', '/rx', false],
    ['/r', '/r-sibling/a', false],
    ['/r', '/', false],
    ['/r', '/r/../x', false],
  ])('isInside(%s, %s) = %s', (r, target, inside) => {
    expect(isInside(r, join(target))).toBe(inside);
  });

  it.each([
    ['/r', '/r', ''],
    ['/r', '/r/a', 'a'],
    ['/r', '/r/a/b.md', 'a/b.md'],
    ['/r', '/r/..a', '..a'],
    ['/r', '/rx', undefined],
    ['/r', '/rx/a', undefined],
    ['/r', '/r-sibling/a', undefined],
    ['/r', '/', undefined],
    ['/r', '/r/../x', undefined],
    ['/', '/a/b', 'a/b'],
    ['/', '/', ''],
  ])('relativeInside(%s, %s) = %s, as path.relative tells', (r, target, rel) => {
    expect(relativeInside(r, target)).toBe(rel);
    expect(relativeInside(r, join(target))).toBe(isInside(r, join(target)) ? rel : undefined);
  });

  it.each([
    ['a', true],
    ['a/b.md', true],
    ['..a/b..c/.d', true],
    ['', false],
    ['/a', false],
    ['a//b', false],
    ['a/', false],
    ['./a', false],
    ['a/./b', false],
    ['a/..', false],
    ['../a', false],
    ['a\\b', false],
  ])('isPlainRelative(%s) = %s', (relative, plain) => {
    expect(isPlainRelative(relative)).toBe(plain);
  });

  it.each([
    ['a/b.md', true],
    ['.git/config', false],
    ['a/.env', false],
    ['a/node_modules/x.js', false],
    ['a/..b/c', false],
    ['a/b..c', true],
    ['node_modules', false],
    ['node_modules_x/a', true],
    ['a//b', true],
    ['', true],
  ])('isVisiblePath(%s) = %s', (path, visible) => {
    expect(isVisiblePath(path, visibility)).toBe(visible);
  });
});

describe('ByteLruCache', () => {
  it('evicts the least recently used entries to stay within its byte budget', () => {
    const cache = new ByteLruCache<string>(10);
    cache.set('a', 'A', 4);
    cache.set('b', 'B', 4);
    expect(cache.get('a')).toBe('A'); // a is now the most recent
    cache.set('c', 'C', 4); // evicts b
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
    expect(cache.stats()).toEqual({ entries: 2, bytes: 8, hits: 3, misses: 1 });
  });

  it('does not keep a value over maxEntryBytes (default half the budget), and replaces a key in place', () => {
    const cache = new ByteLruCache<string>(10);
    expect(cache.set('big', 'X', 6)).toBe(false);
    cache.set('k', 'one', 3);
    cache.set('k', 'two', 5);
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: 5 });
    cache.delete('k');
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
    expect(new ByteLruCache<string>(0).set('a', 'A', 0)).toBe(false);
  });
});
