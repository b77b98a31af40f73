/**
 * The text of a PDF's first pages, with pdf.js (`pdfjs-dist` 5, its Node build). Runs inside the
 * extraction worker (pdf-worker.ts); the library module is passed in, so nothing here loads it.
 */

/** The part of pdf.js's API used here (typed locally: the library is an optional install). */
export interface PdfJsModule {
  getDocument(params: Record<string, unknown>): {
    promise: Promise<PdfDocument>;
    destroy(): Promise<void>;
  };
}
interface PdfDocument {
  numPages: number;
  getPage(n: number): Promise<{
    getTextContent(): Promise<{ items: Array<{ str?: string; hasEOL?: boolean }> }>;
    cleanup(): unknown;
  }>;
}

export interface PageLimits {
  /** Pages read from the start; the others are counted, not read. */
  maxPages: number;
  /** UTF-8 bytes of text kept; extraction stops at the page that reaches it. */
  maxTextBytes: number;
}

export interface ExtractedPages {
  text: string;
  /** Pages whose text is in `text` (from page 1). */
  pagesRead: number;
  pageCount: number;
  /** True when the text was cut at `maxTextBytes` (inside page `pagesRead`). */
  cut: boolean;
}

/** What a page shows, one line per line of the page. */
function pageText(items: ReadonlyArray<{ str?: string; hasEOL?: boolean }>): string {
  let out = '';
  for (const item of items) {
    if (typeof item.str === 'string') out += item.str;
    if (item.hasEOL) out += '\n';
  }
  return out.trimEnd();
}

/** The longest prefix of `text` within `maxBytes` UTF-8 bytes, never splitting a character. */
function prefixBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** `data` is handed to pdf.js, which detaches its buffer: pass a copy to keep using it. */
export async function extractPages(
  pdfjs: PdfJsModule,
  data: Uint8Array,
  limits: PageLimits,
): Promise<ExtractedPages> {
  const task = pdfjs.getDocument({
    data,
    // No code generation, no fonts loaded, no network or worker fetches: text only.
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    isOffscreenCanvasSupported: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    const pageCount = doc.numPages;
    const last = Math.min(pageCount, limits.maxPages);
    let text = '';
    let pagesRead = 0;
    let cut = false;
    for (let n = 1; n <= last; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      page.cleanup();
      const next = `${n === 1 ? '' : '\n\n'}--- page ${n} ---\n${pageText(content.items)}`;
      const kept = prefixBytes(text + next, limits.maxTextBytes);
      pagesRead = n;
      if (kept.length < text.length + next.length) {
        text = kept;
        cut = true;
        break;
      }
      text = kept;
    }
    return { text, pagesRead, pageCount, cut };
  } finally {
    await task.destroy().catch(() => undefined);
  }
}
