/**
 * What the folder's search talks to: its index in a worker thread (search-worker.ts), or in
 * process when the provider reads through a file system of its own (functions do not cross to
 * a worker), behind the same messages (search-channel.ts).
 */
import { EventEmitter } from 'node:events';
import type { ProviderFs } from './fs-types.js';
import { serveSearch, type SearchToWorker } from './search-channel.js';
import { SearchCore } from './search-core.js';
import { startModuleWorker } from './worker-start.js';

/** What the search talks to: the worker, or the index in process. */
export interface SearchPort {
  postMessage(message: SearchToWorker): void;
  // The listener's argument depends on the event (as on a Worker).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: 'message' | 'error' | 'exit', listener: (value: any) => void): unknown;
  terminate(): Promise<number>;
  unref(): void;
}

/** The settings the index starts with (the worker's `workerData`). */
export interface SearchSettings {
  root: string;
  hidden: boolean;
  ignore: string[];
  refuseHardLinks: boolean;
  maxFileBytes: number;
  readTimeoutMs: number;
  maxPhraseChecks: number;
  /** The folder's URI prefix (the URIs its answers give). */
  uriPrefix: string;
  /** Where the index is saved (search-store.ts). */
  indexFile?: string;
}

export type StartSearch = (settings: SearchSettings, fs: ProviderFs | undefined) => SearchPort;

/**
 * A worker with node's file system; in process with a file system of the provider's own
 * (its functions cannot reach a worker): then indexing shares the main thread.
 */
export const startSearch: StartSearch = (settings, fs) =>
  fs === undefined
    ? startModuleWorker(import.meta.url, 'search-worker', settings)
    : new InProcessSearch(settings, fs);

/** The index in this thread, behind the same messages as the worker. */
class InProcessSearch extends EventEmitter implements SearchPort {
  private readonly served: ReturnType<typeof serveSearch>;

  constructor(settings: SearchSettings, fs: ProviderFs) {
    super();
    const core = new SearchCore({
      ...settings,
      fs,
      visibility: { hidden: settings.hidden, ignore: new Set(settings.ignore) },
    });
    this.served = serveSearch(core, (message) => setImmediate(() => this.emit('message', message)));
  }

  postMessage(message: SearchToWorker): void {
    setImmediate(() => this.served.onMessage(message));
  }

  unref(): void {}

  terminate(): Promise<number> {
    this.served.stop();
    this.removeAllListeners();
    return Promise.resolve(0);
  }
}
