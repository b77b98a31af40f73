// search and review-file answer from the folder as it is: a change on disk is seen by the next
// calls, watched or not.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '../../server/server.js';
import { modern } from '../../testing/messages.js';
import { connectInMemory } from '../../transports/memory.js';
import { serveFolder } from './folder-server.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(watch: boolean) {
  const dir = await mkdtemp(join(tmpdir(), 'mcpkit-fresh-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'a.md'), 'needle one');
  const server = createServer({ name: 't', version: '1' });
  const provider = serveFolder(server, { root: dir, watch, watchDebounceMs: 20, rescanMs: 1 });
  await provider.ready();
  cleanups.push(() => provider.close());
  const conn = connectInMemory(server);
  const search = () =>
    conn.send(modern('tools/call', { name: 'search', arguments: { query: 'needle' } }));
  const review = () =>
    conn.send(modern('prompts/get', { name: 'review-file', arguments: { path: 'a.md' } }));
  return { dir, provider, search, review };
}

async function until(what: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('search and review-file after a change on disk', () => {
  it('watched: the next calls see it', async () => {
    const { dir, provider, search, review } = await setup(true);
    await until(async () => provider.watching);
    expect(JSON.stringify(await search())).toContain('a.md');
    expect(JSON.stringify(await search())).not.toContain('b.md');
    expect(JSON.stringify(await review())).toContain('needle one');

    await writeFile(join(dir, 'a.md'), 'needle two');
    await writeFile(join(dir, 'b.md'), 'needle three');
    await until(async () => JSON.stringify(await review()).includes('needle two'));
    await until(async () => JSON.stringify(await search()).includes('b.md'));
  });

  it('unwatched: the next calls see it at once', async () => {
    const { dir, review, search } = await setup(false);
    expect(JSON.stringify(await review())).toContain('needle one');
    expect(JSON.stringify(await search())).not.toContain('b.md');
    await writeFile(join(dir, 'a.md'), 'needle four');
    await writeFile(join(dir, 'b.md'), 'needle five');
    expect(JSON.stringify(await review())).toContain('needle four');
    expect(JSON.stringify(await search())).toContain('b.md');
  });
});
