/**
 * An unwatched provider keeps its listing and its cache fresh from the change events its server
 * delivers (with a shared bus: another instance's): list_changed -> the next list walks again;
 * resources/updated -> that file's cached contents go.
 */
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBus } from '../../server/change-bus.js';
import { createServer } from '../../server/server.js';
import { createFilesystemProvider, type FilesystemProvider } from './filesystem-provider.js';

const open: Array<FilesystemProvider | string> = [];
afterEach(async () => {
  for (const item of open.splice(0)) {
    if (typeof item === 'string') await rm(item, { recursive: true, force: true });
    else item.close();
  }
});

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mcpkit-bus-freshness-'));
  open.push(dir);
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(dir, name), text);
    await utimes(join(dir, name), hourAgo, hourAgo);
  }
  return dir;
}

/** Two instances on one bus: `watching` sees the disk, `relying` (unwatched) only the bus. */
async function pair(dir: string, shared = true) {
  const bus = new MemoryBus();
  const make = (watch: boolean) => {
    const server = createServer({ name: 'x', version: '1', ...(shared ? { bus } : {}) });
    // An age-based rescan long enough never to be what refreshes the listing here.
    const provider = createFilesystemProvider({ root: dir, watch, rescanMs: 600_000 });
    provider.register(server);
    open.push(provider);
    return { server, provider };
  };
  const watching = make(true);
  const relying = make(false);
  await Promise.all([watching.provider.ready(), relying.provider.ready()]);
  return { watching, relying };
}

const names = async (p: FilesystemProvider) => (await p.list()).map((r) => r.name);

describe('an unwatched provider on a shared bus', () => {
  it('lists a file another instance saw added, once its list_changed arrives', async () => {
    const dir = await folder({ 'a.md': 'a' });
    const { watching, relying } = await pair(dir);
    expect(await names(relying.provider)).toEqual(['a.md']);
    let heard = false;
    relying.server.onChange((e) => {
      if (e.type === 'list-changed') heard = true;
    });
    await writeFile(join(dir, 'new.md'), 'new');
    await watching.provider.rescan();
    expect(heard).toBe(true);
    expect(await names(relying.provider)).toEqual(['a.md', 'new.md']);
  });

  it('drops the cached contents of a file another instance saw change', async () => {
    const dir = await folder({ 'a.md': 'one', 'b.md': 'bee' });
    const { watching, relying } = await pair(dir);
    // Contents are cached from a file's second read on.
    for (const name of ['a.md', 'b.md', 'a.md', 'b.md']) await relying.provider.contents(name);
    expect(relying.provider.cacheStats().entries).toBe(2);
    await writeFile(join(dir, 'a.md'), 'two');
    await watching.provider.rescan();
    expect(relying.provider.cacheStats().entries).toBe(1);
    const outcome = await relying.provider.contents('a.md');
    expect(outcome.kind === 'ok' && outcome.contents.text).toBe('two');
    // Its listing shows the new size as well.
    expect((await relying.provider.list()).find((r) => r.name === 'a.md')?.size).toBe(3);
  });

  it('without a shared bus, it does not know (the control)', async () => {
    const dir = await folder({ 'a.md': 'a' });
    const { watching, relying } = await pair(dir, false);
    await names(relying.provider);
    await writeFile(join(dir, 'new.md'), 'new');
    await watching.provider.rescan();
    expect(await names(relying.provider)).toEqual(['a.md']);
  });

  it('lists asked for together wait for the same walk', async () => {
    const dir = await folder({ 'a.md': 'a' });
    const { watching, relying } = await pair(dir);
    await writeFile(join(dir, 'new.md'), 'new');
    await watching.provider.rescan();
    const [one, two] = await Promise.all([names(relying.provider), names(relying.provider)]);
    expect(one).toEqual(['a.md', 'new.md']);
    expect(two).toEqual(['a.md', 'new.md']);
  });
});
