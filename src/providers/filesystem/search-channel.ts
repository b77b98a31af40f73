/**
 * The messages between the folder's search (folder-search.ts) and its index (search-core.ts),
 * and the index's side of them: run in the search worker, or in process when the provider reads
 * through a file system of its own (functions do not cross to a worker).
 */
import type { SearchAnswer, SearchCore, SearchFile, SearchRequest } from './search-core.js';

/** Main thread → index. */
export type SearchToWorker =
  | { type: 'files'; files: SearchFile[] }
  | { type: 'remove'; paths: string[] }
  | { type: 'mark'; id: number }
  /** The first walk was fed whole: files a saved index had that it did not name are gone. */
  | { type: 'synced' }
  /** Save what waits to be saved, then answer `marked` with this id. */
  | { type: 'flush'; id: number }
  | { type: 'search'; id: number; request: SearchRequest };

/** Index → main thread. */
export type SearchFromWorker =
  | { type: 'progress'; indexed: number; listed: number }
  | { type: 'marked'; id: number }
  | { type: 'warning'; message: string }
  | { type: 'answer'; id: number; answer: SearchAnswer }
  | { type: 'failed'; id: number; message: string };

/** How often progress is reported while files wait to be indexed (ms). */
const PROGRESS_MS = 250;

/**
 * Answers the messages of the search with `core`, posting through `post`; reports progress
 * (the first report at once: the other side learns the index runs). Returns the handler of
 * incoming messages and a function that stops the reports.
 */
export function serveSearch(
  core: SearchCore,
  post: (message: SearchFromWorker) => void,
  flush: () => Promise<void> | void = () => undefined,
): { onMessage: (message: SearchToWorker) => void; stop: () => void } {
  let reported = '';
  const report = (): void => {
    const now = `${core.indexed}/${core.size}`;
    if (now === reported) return;
    reported = now;
    post({ type: 'progress', indexed: core.indexed, listed: core.size });
  };
  const timer = setInterval(report, PROGRESS_MS);
  timer.unref?.();
  post({ type: 'progress', indexed: 0, listed: 0 });
  const onMessage = (message: SearchToWorker): void => {
    if (message.type === 'files') {
      for (const file of message.files) core.upsert(file);
    } else if (message.type === 'remove') {
      for (const path of message.paths) core.remove(path);
    } else if (message.type === 'synced') {
      core.pruneUnseen();
    } else if (message.type === 'flush') {
      const { id } = message;
      void Promise.resolve(flush()).then(() => post({ type: 'marked', id }));
    } else if (message.type === 'mark') {
      const { id } = message;
      void core.drained().then(() => {
        report();
        post({ type: 'marked', id });
      });
    } else {
      const { id, request } = message;
      core.search(request).then(
        (answer) => post({ type: 'answer', id, answer }),
        (error: unknown) => post({ type: 'failed', id, message: String((error as Error).message) }),
      );
    }
  };
  return { onMessage, stop: () => clearInterval(timer) };
}
