/**
 * The search worker: holds the folder's index (search-core.ts) off the main thread, so that
 * neither indexing nor a search ever delays another request (see search-channel.ts).
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { nodeFs } from './fs-types.js';
import { serveSearch, type SearchFromWorker, type SearchToWorker } from './search-channel.js';
import { SearchCore } from './search-core.js';
import type { SearchSettings } from './search-port.js';
import { searchReadPool } from './search-stalls.js';
import { IndexStore } from './search-store.js';

if (isMainThread) throw new Error('search-worker.ts runs in a worker only');

const port = parentPort;
const settings = workerData as SearchSettings;
const warn = (message: string): void => port?.postMessage({ type: 'warning', message });
const { root, maxFileBytes, indexFile } = settings;
const store = indexFile ? new IndexStore(indexFile, { root, maxFileBytes }, warn) : undefined;
const core: SearchCore = new SearchCore({
  ...settings,
  fs: nodeFs,
  visibility: { hidden: settings.hidden, ignore: new Set(settings.ignore) },
  restored: await store?.load(),
  readers: searchReadPool(),
  onIdle: store ? () => store.saveSoon(() => core.snapshot()) : undefined,
});
if (port) {
  const post = (message: SearchFromWorker): void => port.postMessage(message);
  // A close saves what was indexed since the last save, a first build cut short included.
  const flush = (): Promise<void> | undefined =>
    store?.flush(core.unsaved ? () => core.snapshot() : undefined);
  const { onMessage } = serveSearch(core, post, flush);
  port.on('message', (message: SearchToWorker) => onMessage(message));
}
