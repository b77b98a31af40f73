/**
 * `mcpkit serve DIR` announces what changes on disk, over real processes (stdio and HTTP) to the
 * mcpkit client's listen streams: a modified file -> `resources/updated`; an added or removed one
 * -> `list_changed`, after which `resources/list` already shows it; a touch without a change of a
 * listened-to file -> nothing; 1,000 rapid writes -> a few updates and the final content on
 * re-read. Every wait has a deadline; nothing is asserted after a fixed sleep.
 */
import { stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { folder, serve, until, type Kind, type Served } from './watch-harness.js';

const running: Array<{ stop(): Promise<void> } | { remove(): Promise<void> }> = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await ('stop' in r ? r.stop() : r.remove());
});

async function setup(kind: Kind, files: Record<string, string>, extra: string[] = []) {
  const f = await folder(files);
  running.push(f);
  const s = await serve(kind, f.dir, extra);
  running.push(s);
  return { f, s };
}

/** Re-reads `name` until its text is `final` (the listener's re-read after its updates). */
async function readsFinally(s: Served, name: string, final: string): Promise<void> {
  let text = await s.read(name);
  await until(`${s.kind}: ${name} reads ${JSON.stringify(final)}`, async () => {
    if (text === final) return true;
    text = await s.read(name);
    return text === final;
  });
}

describe.each<Kind>(['stdio', 'http'])('mcpkit serve %s: changes on disk', (kind) => {
  it('a modified file: resources/updated for its URI, and the new text on re-read', async () => {
    const { f, s } = await setup(kind, { 'a.md': 'one', 'b.md': 'b' });
    const stream = await s.listen({ resourceSubscriptions: ['file:///a.md'] });
    await writeFile(f.path('a.md'), 'two');
    await until('update of a.md', () => stream.updates('file:///a.md').length > 0);
    expect(await s.read('a.md')).toBe('two');
    // Only what was subscribed to.
    await writeFile(f.path('b.md'), 'b2');
    await writeFile(f.path('a.md'), 'three');
    await until('second update of a.md', () => stream.updates('file:///a.md').length > 1);
    expect(stream.updates('file:///b.md')).toEqual([]);
  });

  it('an added file: list_changed, and resources/list already includes it; removed: gone', async () => {
    const { f, s } = await setup(kind, { 'a.md': 'a' });
    const stream = await s.listen({ resourcesListChanged: true });
    await writeFile(f.path('new.md'), 'new');
    await until('list_changed after an add', () => stream.listChanges() > 0);
    expect(await s.names()).toEqual(['a.md', 'new.md']);
    const before = stream.listChanges();
    await unlink(f.path('new.md'));
    await until('list_changed after a remove', () => stream.listChanges() > before);
    expect(await s.names()).toEqual(['a.md']);
  });

  it('a file someone listens to: a touch, or the same bytes again, send nothing', async () => {
    const { f, s } = await setup(kind, { 'a.md': 'same', 'b.md': 'b' });
    const stream = await s.listen({ resourceSubscriptions: ['file:///a.md', 'file:///b.md'] });
    // The server fingerprints a.md as the listener attaches, in the background (a change
    // before that is announced, to be safe). The listener's own read of a.md, as a host does
    // after listening, shares that read: once it is answered, the fingerprint is there.
    expect(await s.read('a.md')).toBe('same');
    const later = new Date(Date.now() + 60_000);
    await utimes(f.path('a.md'), later, later);
    await writeFile(f.path('a.md'), 'same');
    // The listing walked past both writes: what they caused is announced before what comes next.
    const lastModified = new Date((await stat(f.path('a.md'))).mtimeMs).toISOString();
    await until('the listing saw the rewrite', async () => {
      const listed = (await s.client.listResources()).find((r) => r.name === 'a.md');
      return listed?.annotations?.lastModified === lastModified;
    });
    await writeFile(f.path('b.md'), 'b changed');
    await until('update of b.md (the control)', () => stream.updates('file:///b.md').length > 0);
    expect(stream.updates('file:///a.md')).toEqual([]);
  });

  it('1,000 rapid writes to one file: few updates, and the final content on re-read', async () => {
    const { f, s } = await setup(kind, { 'hot.txt': 'start' });
    const stream = await s.listen({ resourceSubscriptions: ['file:///hot.txt'] });
    for (let i = 0; i < 1000; i++) await writeFile(f.path('hot.txt'), `version ${i}`);
    await until('an update after the writes', () => stream.updates().length > 0);
    await readsFinally(s, 'hot.txt', 'version 999');
    // Debounced (100 ms quiet, at most 1 s apart): a handful, never one per write.
    expect(stream.updates().length).toBeLessThanOrEqual(20);
  });
});

describe('mcpkit serve: a 2025-11-25 session (resources/subscribe)', () => {
  it('gets notifications/resources/updated for a modified file', async () => {
    const f = await folder({ 'a.md': 'one' });
    running.push(f);
    const s = await serve('http', f.dir, [], 'legacy');
    running.push(s);
    expect(s.client.era).toBe('legacy');
    const stream = await s.listen({ resourceSubscriptions: ['file:///a.md'] });
    await writeFile(f.path('a.md'), 'two');
    await until('legacy update of a.md', () => stream.updates('file:///a.md').length > 0);
    expect(await s.read('a.md')).toBe('two');
  });
});
