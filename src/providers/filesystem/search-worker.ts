/**
 * The search worker: holds the folder's index (search-core.ts) off the main thread, so that
 * neither indexing nor a search ever delays another request (see search-channel.ts).
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { nodeFs } from './fs-types.js';
import { serveSearch, type SearchToWorker } from './search-channel.js';
import { SearchCore, type SearchCoreOptions } from './search-core.js';

if (isMainThread) throw new Error('search-worker.ts runs in a worker only');

const port = parentPort;
const settings = workerData as Omit<SearchCoreOptions, 'fs' | 'visibility'> & {
  hidden: boolean;
  ignore: string[];
};
const core = new SearchCore({
  ...settings,
  fs: nodeFs,
  visibility: { hidden: settings.hidden, ignore: new Set(settings.ignore) },
});
if (port) {
  const { onMessage } = serveSearch(core, (message) => port.postMessage(message));
  port.on('message', (message: SearchToWorker) => onMessage(message));
}
