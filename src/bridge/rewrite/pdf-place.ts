/**
 * `--extract-pdf`: the PDFs of one result that the host would not see (embedded, or read
 * upstream for a link) are given as their extracted text, one PDF after the other within one
 * time allowance for the whole result; what was not extracted keeps its line naming the PDF.
 */
import type { ResolvedBlock } from '../../host/index.js';
import { extractPdfText, type PdfExtractOptions, type PdfOutcome } from '../pdf/pdf-text.js';
import { header, wholeRead, type NoteSubject } from './notes.js';
import { textItem, type OutItem } from './out-item.js';

export const PDF_MIME = 'application/pdf';

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/**
 * A PDF by its type, or a blob sent as `application/octet-stream` that starts like one (servers
 * that know no MIME type for a file send that, server-filesystem among them).
 */
export function isPdf(mimeType: string, bytes: Uint8Array): boolean {
  const type = mimeType.split(';')[0]?.trim().toLowerCase();
  if (type === PDF_MIME) return true;
  return type === 'application/octet-stream' && PDF_MAGIC.every((b, i) => bytes[i] === b);
}

/** The PDFs' bytes in `resolved`: embedded blobs and the contents of links read upstream. */
function pdfBytesOf(resolved: readonly ResolvedBlock[]): Uint8Array[] {
  const found: Uint8Array[] = [];
  for (const r of resolved) {
    if (r.type === 'resource' && r.contents?.text === undefined && r.contents)
      if (isPdf(r.contents.mimeType, r.contents.bytes)) found.push(r.contents.bytes);
    if (r.type === 'resource_link' && r.outcome.status === 'read')
      for (const c of r.outcome.contents ?? [])
        if (c.text === undefined && isPdf(c.mimeType, c.bytes)) found.push(c.bytes);
  }
  return found;
}

/**
 * Extracts the text of each PDF of the result, one at a time; all share `options.timeoutMs`,
 * so a result with many PDFs takes no longer than one.
 */
export async function extractResultPdfs(
  resolved: readonly ResolvedBlock[],
  options: PdfExtractOptions,
  signal: AbortSignal | undefined,
): Promise<Map<Uint8Array, PdfOutcome>> {
  const texts = new Map<Uint8Array, PdfOutcome>();
  const deadline = Date.now() + options.timeoutMs;
  for (const bytes of pdfBytesOf(resolved)) {
    if (texts.has(bytes)) continue;
    const left = deadline - Date.now();
    texts.set(
      bytes,
      left <= 0
        ? {
            ok: false,
            reason: `the result's ${options.timeoutMs} ms for PDF extraction were spent (--pdf-timeout)`,
          }
        : await extractPdfText(bytes, { ...options, timeoutMs: left }, signal),
    );
  }
  return texts;
}

/**
 * The items standing for a PDF whose text was extracted: the text under a line naming the PDF,
 * then, when pages were left out or the text was cut, a line saying so and how to read the PDF.
 */
export function pdfTextItems(
  subject: NoteSubject,
  outcome: PdfOutcome & { ok: true },
  readToolName: string,
  options: PdfExtractOptions,
  source: number,
): OutItem[] {
  const { pagesRead, pageCount, cut } = outcome;
  const pages = pagesRead === 1 ? 'page 1' : `pages 1-${pagesRead}`;
  const items = [
    textItem(source, header(subject, `text extracted from ${pages} of ${pageCount}`), outcome.text),
  ];
  if (cut || pagesRead < pageCount) {
    const why = cut
      ? `the text was cut at ${options.maxTextBytes} bytes`
      : `pages after ${pagesRead} were not extracted (--pdf-max-pages ${options.maxPages})`;
    items.push(
      textItem(
        source,
        '',
        `[${subject.uri}: ${why}; the PDF itself: ${wholeRead(readToolName, subject.uri)} (base64)]`,
      ),
    );
  }
  return items;
}
