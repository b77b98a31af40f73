import { describe, expect, it } from 'vitest';
import { coversUri } from '../../uri/covers.js';
import { ContentBaselines, type Fingerprint } from './content-baselines.js';

/** A folder in memory: each file's digest and version, and who listens. */
function fake(files: Record<string, Fingerprint>) {
  const attached = new Set<string>();
  const source = {
    uriOf: (relative: string) => `file:///${relative}`,
    pathOf: (uri: string) => (uri.startsWith('file:///') ? uri.slice(8) : undefined),
    isListed: (relative: string) => relative in files,
    listed: () => Object.keys(files),
    isAttached: (uri: string) => [...attached].some((s) => coversUri(s, uri)),
    fingerprint: async (relative: string) => files[relative],
  };
  const baselines = new ContentBaselines(source);
  const attach = async (uri: string) => {
    attached.add(uri);
    baselines.attach(uri);
    await new Promise((r) => setTimeout(r, 0));
  };
  const detach = (uri: string) => {
    attached.delete(uri);
    baselines.detach(uri);
  };
  return { files, baselines, attach, detach };
}

const v = (digest: string, mtimeMs: number, size = 1): Fingerprint => ({ digest, mtimeMs, size });

describe('ContentBaselines', () => {
  it('a fingerprint taken on attach stands for the version the listing had', async () => {
    const { files, baselines, attach } = fake({ 'a.md': v('x', 1) });
    await attach('file:///a.md');
    files['a.md'] = v('x', 2); // touched
    expect(await baselines.unchanged('a.md', v('x', 1))).toBe(true);
  });

  it('one taken on attach of a later version than the listing had may hold the change: announced', async () => {
    const { files, baselines, attach } = fake({ 'a.md': v('x', 2) });
    await attach('file:///a.md'); // the listing still says version 1
    files['a.md'] = v('x', 3);
    expect(await baselines.unchanged('a.md', v('old', 1))).toBe(false);
    // The one taken while announcing stands as it is, whatever version the listing had.
    files['a.md'] = v('x', 4);
    expect(await baselines.unchanged('a.md', v('x', 3.5))).toBe(true);
  });

  it('a read of another version than the fingerprint makes the next change count', async () => {
    const { files, baselines, attach } = fake({ 'a.md': v('x', 1) });
    await attach('file:///a.md');
    baselines.noteRead('a.md', { size: 1, mtimeMs: 1 }); // the fingerprinted version: nothing
    files['a.md'] = v('x', 2);
    expect(await baselines.unchanged('a.md', v('x', 1))).toBe(true);
    baselines.noteRead('a.md', { size: 1, mtimeMs: 3 }); // "y" was read in between
    files['a.md'] = v('x', 4);
    expect(await baselines.unchanged('a.md', v('x', 2))).toBe(false);
    files['a.md'] = v('x', 5);
    expect(await baselines.unchanged('a.md', v('x', 4))).toBe(true);
  });

  it('without a fingerprint, a change counts (and one is taken); gone is a change', async () => {
    const { files, baselines, attach } = fake({ 'a.md': v('x', 1) });
    files['b.md'] = v('b', 1);
    await attach('file:///b.md');
    delete files['b.md'];
    expect(await baselines.unchanged('b.md', v('b', 1))).toBe(false);
    // Its fingerprint went with it: back with the same contents, that is no proof of no change.
    files['b.md'] = v('b', 2);
    expect(await baselines.unchanged('b.md', v('b', 1))).toBe(false);
    await attach('file:///a.md');
    files['a.md'] = v('x', 2); // touched
    expect(await baselines.unchanged('a.md', v('x', 1))).toBe(true);
  });

  it('a folder URI fingerprints what it covers; the last detach forgets it, not before', async () => {
    const { files, baselines, attach, detach } = fake({
      'notes/a.md': v('a', 1),
      'notes/b.md': v('b', 1),
      'other.md': v('o', 1),
    });
    const touch = (file: string, digest: string, mtimeMs: number) =>
      void (files[file] = v(digest, mtimeMs));
    await attach('file:///notes/');
    await attach('file:///notes/a.md');
    // Both fingerprinted: a touch that changed no byte is no change.
    touch('notes/a.md', 'a', 2);
    touch('notes/b.md', 'b', 2);
    expect(await baselines.unchanged('notes/a.md', v('a', 1))).toBe(true);
    expect(await baselines.unchanged('notes/b.md', v('b', 1))).toBe(true);
    detach('file:///notes/');
    touch('notes/a.md', 'a', 3);
    touch('notes/b.md', 'b', 3);
    expect(await baselines.unchanged('notes/a.md', v('a', 2))).toBe(true); // still listened to
    expect(await baselines.unchanged('notes/b.md', v('b', 2))).toBe(false); // forgotten
    detach('file:///notes/a.md');
    touch('notes/a.md', 'a', 4);
    expect(await baselines.unchanged('notes/a.md', v('a', 3))).toBe(false);
    // Nobody listens: nothing is kept.
    expect(await baselines.unchanged('other.md', v('o', 1))).toBe(false);
    touch('other.md', 'o', 2);
    expect(await baselines.unchanged('other.md', v('o', 1))).toBe(false);
  });

  it('a URI outside the folder, or naming no listed file, costs no scan of the listing', async () => {
    const listed = Array.from({ length: 20_000 }, (_, i) => `f/${String(i).padStart(5, '0')}.md`);
    listed.push('notes/a.md', 'notes/b.md', 'notes-old.md');
    listed.sort();
    let uriOfCalls = 0;
    let fingerprinted = 0;
    const baselines = new ContentBaselines({
      uriOf: (relative) => (uriOfCalls++, `file:///${relative}`),
      pathOf: (uri) => (uri.startsWith('file:///') ? uri.slice(8) : undefined),
      isListed: (relative) => listed.includes(relative),
      listed: () => listed,
      isAttached: () => true,
      fingerprint: async (relative) => (fingerprinted++, v(relative, 1)),
    });
    baselines.attach('m://elsewhere');
    baselines.attach('file:///missing.md');
    baselines.attach('file:///notes/missing.md');
    expect(uriOfCalls).toBe(0);
    // A folder URI finds its files by range: notes/ covers two, not notes-old.md.
    baselines.attach('file:///notes');
    await new Promise((r) => setTimeout(r, 0));
    expect(uriOfCalls).toBeLessThan(10);
    expect(fingerprinted).toBe(2);
  });
});
