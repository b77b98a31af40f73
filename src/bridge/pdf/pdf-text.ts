/**
 * `--extract-pdf`: the text of a PDF the host would not see, extracted with pdf.js
 * (`pdfjs-dist` 5, an optional install) in a worker thread, within limits of pages, bytes in and
 * out, time and memory, so that a hostile PDF neither blocks the bridge nor grows it unbounded.
 */
import { createRequire } from 'node:module';
import { memoryUsage } from 'node:process';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ExtractedPages } from './extract-pages.js';
import type { PdfLane } from './pdf-lane.js';

/** The pdf.js build for Node that the worker loads. */
export const PDFJS_MODULE = 'pdfjs-dist/legacy/build/pdf.mjs';
/** What to install when it is missing (the newest pdf.js 5 that runs on Node 20). */
export const PDFJS_INSTALL = 'npm install pdfjs-dist@5.6.205';

export interface PdfExtractOptions {
  /** Pages read from the start (`--pdf-max-pages`, default 50). */
  maxPages: number;
  /** Largest PDF parsed, in bytes (`--pdf-max-bytes`, default 8 MiB); a larger one is named. */
  maxBytes: number;
  /** Most UTF-8 bytes of text one PDF gives (default: `--max-link-bytes`). */
  maxTextBytes: number;
  /** Time one PDF may take (`--pdf-timeout`, default 10 s); the worker is ended then. */
  timeoutMs: number;
  /**
   * Growth of the process's RSS allowed while one PDF is parsed, measured from when its worker has
   * loaded pdf.js (default 128 MiB); the worker is ended past it.
   */
  maxMemoryBytes: number;
  /**
   * Whether a PDF link that declares no size is read (under `maxBytes`): only where the upstream
   * caps one answer without ending the connection (HTTP); over stdio the rest of a line cannot be
   * skipped, so an answer past the cap would end it, and such a link is not read.
   */
  readUnsizedLinks: boolean;
  /** The bridge's one extraction lane: a PDF waits there (within `timeoutMs`) for the one before. */
  lane: PdfLane;
}

export const DEFAULT_PDF_MAX_PAGES = 50;
export const DEFAULT_PDF_MAX_BYTES = 8 * 1024 * 1024;
export const DEFAULT_PDF_TIMEOUT_MS = 10_000;
/** The largest `--pdf-timeout` (timers overflow past 2^31-1 ms; an hour per result is plenty). */
export const MAX_PDF_TIMEOUT_MS = 3_600_000;
export const DEFAULT_PDF_MAX_MEMORY_BYTES = 128 * 1024 * 1024;

export type PdfOutcome =
  | ({ ok: true } & ExtractedPages)
  | {
      ok: false;
      /** Why no text came, in a phrase (`over --pdf-max-bytes …`, `timed out …`, the parser's error). */
      reason: string;
    };

/** The file URL of pdf.js as installed next to mcpkit, or undefined when it is not installed. */
export function pdfLibraryUrl(): string | undefined {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve(PDFJS_MODULE)).href;
  } catch {
    return undefined;
  }
}

/** How often the memory of the process is sampled while a worker runs (ms). */
const MEMORY_SAMPLE_MS = 25;

/**
 * The text of `bytes` (a PDF), or why there is none. Never throws; `workerUrl` is for tests
 * (the compiled worker next to this module by default).
 */
export function extractPdfText(
  bytes: Uint8Array,
  options: PdfExtractOptions,
  signal?: AbortSignal,
  workerUrl: URL = new URL('./pdf-worker.js', import.meta.url),
): Promise<PdfOutcome> {
  if (bytes.length > options.maxBytes)
    return Promise.resolve({
      ok: false,
      reason: `${bytes.length} bytes, over the ${options.maxBytes} the bridge parses (--pdf-max-bytes)`,
    });
  const libraryUrl = pdfLibraryUrl();
  if (libraryUrl === undefined)
    return Promise.resolve({ ok: false, reason: `pdf.js is not installed (${PDFJS_INSTALL})` });
  const started = Date.now();
  const timedOut: PdfOutcome = {
    ok: false,
    reason: `extraction stopped after ${options.timeoutMs} ms (--pdf-timeout)`,
  };
  return options.lane.enter(started + options.timeoutMs, signal).then(async (entry) => {
    if (entry === 'timeout') return timedOut;
    if (entry === 'cancelled') return { ok: false, reason: 'the request was cancelled' };
    try {
      const left = Math.max(1, started + options.timeoutMs - Date.now());
      return await runWorker(bytes, libraryUrl, options, left, timedOut, signal, workerUrl);
    } finally {
      options.lane.leave();
    }
  });
}

/** One worker for one PDF, ended at `timeoutMs`, the memory cap or `signal`. */
function runWorker(
  bytes: Uint8Array,
  libraryUrl: string,
  options: PdfExtractOptions,
  timeoutMs: number,
  timedOut: PdfOutcome,
  signal: AbortSignal | undefined,
  workerUrl: URL,
): Promise<PdfOutcome> {
  return new Promise<PdfOutcome>((resolve) => {
    let settled = false;
    // Set when the worker has loaded pdf.js: what the document costs is measured from there.
    let baseline: number | undefined;
    const worker = new Worker(workerUrl, {
      workerData: {
        libraryUrl,
        data: bytes,
        maxPages: options.maxPages,
        maxTextBytes: options.maxTextBytes,
      },
      // The heap is capped here; buffers outside it are watched through the RSS below.
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 },
      stdout: true,
      stderr: true,
    });
    const finish = (outcome: PdfOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(sampler);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      resolve(outcome);
    };
    const onAbort = (): void => finish({ ok: false, reason: 'the request was cancelled' });
    const timer = setTimeout(() => finish(timedOut), timeoutMs);
    const sampler = setInterval(() => {
      if (baseline !== undefined && memoryUsage.rss() - baseline > options.maxMemoryBytes)
        finish({
          ok: false,
          reason: `extraction stopped: it needed more than ${options.maxMemoryBytes} bytes of memory`,
        });
    }, MEMORY_SAMPLE_MS);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    // pdf.js's own warnings are not the host's business (stdout is the host's channel).
    worker.stdout.resume();
    worker.stderr.resume();
    worker.on('message', (m: PdfOutcome | { ready: true }) => {
      if ('ready' in m) baseline = memoryUsage.rss();
      else finish(m);
    });
    worker.on('error', (error) =>
      finish({ ok: false, reason: `the PDF could not be read: ${error.message.slice(0, 300)}` }),
    );
    worker.on('exit', () =>
      finish({ ok: false, reason: 'the extraction worker ended without an answer' }),
    );
  });
}
