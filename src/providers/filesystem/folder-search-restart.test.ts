import { mkdtemp, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesystemProvider } from './filesystem-provider.js';
import { FolderSearch } from './folder-search.js';
import { startSearch, type SearchPort, type StartSearch } from './search-port.js';
import type { SearchToWorker } from './search-channel.js';

let root: string;
/** More files than one message of the listing feeds (FEED_CHUNK, 2,000): it takes several. */
const FILLERS = 2_100;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcpkit-search-restart-'));
  const names = Array.from({ length: FILLERS }, (_, i) => `f${String(i).padStart(5, '0')}.txt`);
  await Promise.all(names.map((name) => writeFile(join(root, name), 'filler')));
  // Last in path order: in the last message of the feed.
  await writeFile(join(root, 'zz-ghost.txt'), 'a ghost');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('a search worker started again', () => {
  it('is fed the listing before the changes seen meanwhile: a file removed while it is fed stays gone', async () => {
    const ports: SearchPort[] = [];
    let onFirstFeed: (() => void) | undefined;
    // Real workers; the second one's first listing message runs `onFirstFeed` as it is sent.
    const start: StartSearch = (settings, fs) => {
      const port = startSearch(settings, fs);
      ports.push(port);
      const post = port.postMessage.bind(port);
      port.postMessage = (message: SearchToWorker) => {
        post(message);
        if (ports.length === 2 && message.type === 'files' && onFirstFeed) {
          const run = onFirstFeed;
          onFirstFeed = undefined;
          run();
        }
      };
      return port;
    };
    const provider = createFilesystemProvider({ root });
    const index = new FolderSearch(provider, {}, start);
    try {
      await index.settled();
      const found = async () =>
        (await index.search({ query: 'ghost', limit: 5 })).hits.map((h) => h.path);
      expect(await found()).toEqual(['zz-ghost.txt']);
      // The worker dies; the next search starts another, fed the whole listing again.
      await ports[0]!.terminate();
      // While that feed runs, a walk finds the file deleted (as the watch would report it).
      await unlink(join(root, 'zz-ghost.txt'));
      onFirstFeed = () =>
        index.changed({ added: [], removed: ['zz-ghost.txt'], changed: [] }, () => undefined);
      expect(ports).toHaveLength(1);
      await index.settled();
      expect(ports).toHaveLength(2);
      expect(onFirstFeed).toBeUndefined();
      expect(await found()).toEqual([]);
    } finally {
      await index.close();
      await provider.close();
    }
  });
});

describe('closing a provider with indexDir', () => {
  it('resolves once the index is saved', async () => {
    const keep = await mkdtemp(join(tmpdir(), 'mcpkit-search-close-'));
    try {
      const provider = createFilesystemProvider({ root });
      const index = new FolderSearch(provider, { indexDir: keep });
      provider.attach(index);
      await index.settled();
      expect((await index.search({ query: 'filler', limit: 1 })).total).toBe(FILLERS);
      // The index settled moments ago: only the close saves it this soon.
      await provider.close();
      expect((await readdir(keep)).filter((f) => f.endsWith('.bin'))).toHaveLength(1);
    } finally {
      await rm(keep, { recursive: true, force: true });
    }
  });
});
