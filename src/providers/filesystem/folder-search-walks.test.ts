/**
 * The search index around the folder's walks and its close: after a failed first walk, a later
 * walk that lists the folder whole tells the worker `synced` (so that a saved index drops what
 * is gone); a close does not wait without bound for a worker that will not stop.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFilesystemProvider } from './filesystem-provider.js';
import { FolderSearch } from './folder-search.js';
import { nodeFs, type ProviderFs } from './fs-types.js';
import type { SearchToWorker } from './search-channel.js';
import { startSearch, type StartSearch } from './search-port.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcpkit-search-walks-'));
  await writeFile(join(root, 'a.txt'), 'alpha zqwalkword');
  await mkdir(join(root, 'sub'));
  await writeFile(join(root, 'sub', 'b.txt'), 'beta');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Starts the usual port, recording the types of the messages sent to it. */
function recording() {
  const sent: string[] = [];
  const start: StartSearch = (settings, fs) => {
    const port = startSearch(settings, fs);
    const post = port.postMessage.bind(port);
    port.postMessage = (message: SearchToWorker) => (sent.push(message.type), post(message));
    return port;
  };
  return { sent, start };
}

describe('after a failed first walk', () => {
  it('a later walk that lists the folder whole syncs the index', async () => {
    // The first listing of `sub` fails, late: the first files are fed, then the walk fails.
    let failures = 1;
    const fs: ProviderFs = {
      ...nodeFs,
      readdir: async (p, options) => {
        if (basename(p) === 'sub' && failures-- > 0) {
          await new Promise((r) => setTimeout(r, 100));
          throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
        }
        return nodeFs.readdir(p, options);
      },
    };
    const provider = createFilesystemProvider({ root, fs, watch: false, walkWaitMs: 1 });
    const { sent, start } = recording();
    const index = new FolderSearch(provider, {}, start);
    try {
      await index.settled();
      await expect(provider.ready()).resolves.toBeUndefined(); // walked again, whole
      expect(provider.listingState.complete).toBe(true);
      await index.search({ query: 'zqwalkword', limit: 5 });
      await vi.waitFor(() => expect(sent).toContain('synced'));
      await index.settled();
      const found = await index.search({ query: 'beta', limit: 5 });
      expect(found.hits.map((h) => h.path)).toEqual(['sub/b.txt']);
    } finally {
      await index.close();
      await provider.close();
    }
  });
});

describe('a close', () => {
  it('does not wait without bound for a worker that does not stop', async () => {
    const start: StartSearch = (settings, fs) => {
      const port = startSearch(settings, fs);
      const stop = port.terminate.bind(port);
      port.terminate = () => (void stop(), new Promise<number>(() => undefined));
      return port;
    };
    const provider = createFilesystemProvider({ root });
    const index = new FolderSearch(provider, {}, start);
    try {
      await index.settled();
      await expect(index.close()).resolves.toBeUndefined();
    } finally {
      await provider.close();
    }
  });
});
