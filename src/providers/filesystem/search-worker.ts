/**
 * The search worker: holds the folder's index (search-core.ts) off the main thread, so that
 * neither indexing nor a search ever delays another request. Messages: see folder-search.ts.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { nodeFs } from './fs-types.js';
import { SearchCore, type SearchCoreOptions, type SearchFile } from './search-core.js';
import type { SearchToWorker } from './folder-search.js';

if (isMainThread) throw new Error('search-worker.ts runs in a worker only');

/** How often progress is reported while files wait to be indexed (ms). */
const PROGRESS_MS = 250;

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

let reported = '';
const report = (): void => {
  const now = `${core.indexed}/${core.size}`;
  if (now === reported) return;
  reported = now;
  port?.postMessage({ type: 'progress', indexed: core.indexed, listed: core.size });
};
setInterval(report, PROGRESS_MS).unref();

port?.on('message', (message: SearchToWorker) => {
  if (message.type === 'files') {
    for (const file of message.files as SearchFile[]) core.upsert(file);
    void core.drained().then(report);
  } else if (message.type === 'remove') {
    for (const path of message.paths) core.remove(path);
    report();
  } else {
    const { id, request } = message;
    core.search(request).then(
      (answer) => port.postMessage({ type: 'answer', id, answer }),
      (error: unknown) =>
        port.postMessage({
          type: 'failed',
          id,
          message: (error as Error).message ?? String(error),
        }),
    );
  }
});
