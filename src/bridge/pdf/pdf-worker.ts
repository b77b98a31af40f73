/**
 * The extraction worker (a worker thread started by pdf-text.ts for one PDF): loads pdf.js from
 * the URL it is given, extracts the first pages' text and posts it back. A hostile PDF can only
 * cost this thread, which the parent ends at its time or memory cap.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { extractPages, type PageLimits, type PdfJsModule } from './extract-pages.js';

interface Job extends PageLimits {
  libraryUrl: string;
  data: Uint8Array;
}

const job = workerData as Job;
try {
  const pdfjs = (await import(job.libraryUrl)) as PdfJsModule;
  // The parent measures the memory the document adds from here, not the worker's and pdf.js's own.
  parentPort?.postMessage({ ready: true });
  const pages = await extractPages(pdfjs, job.data, job);
  parentPort?.postMessage({ ok: true, ...pages });
} catch (error) {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  parentPort?.postMessage({ ok: false, reason: message.slice(0, 300) });
}
