import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDeflate } from 'node:zlib';

/**
 * Small, valid PDFs for tests: one page per text given (Helvetica, one line each), with a
 * correct cross-reference table, so that a PDF library reads them without repairing anything.
 */

function escapePdfText(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** A PDF whose page i shows `pages[i]` (ASCII text; one line per `\n`). */
export function makePdf(pages: readonly string[]): Buffer {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pages.forEach((text, i) => {
    const lines = text.split('\n');
    const ops = lines
      .map((line, l) => `${l === 0 ? '' : '0 -14 Td '}(${escapePdfText(line)}) Tj`)
      .join('\n');
    const stream = `BT /F1 12 Tf 72 720 Td\n${ops}\nET`;
    const pageId = pageIds[i] as number;
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] =
      `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  });
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id] as string}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++)
    body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/**
 * A one-page PDF whose content stream is `inflatedBytes` of NUL (whitespace to a PDF lexer),
 * deflated: a few hundred KiB that a reader must inflate whole to show the page.
 */
export async function makeFlateBombPdf(inflatedBytes: number): Promise<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024);
  async function* zeros(): AsyncGenerator<Buffer> {
    for (let left = inflatedBytes; left > 0; left -= chunk.length)
      yield left >= chunk.length ? chunk : chunk.subarray(0, left);
  }
  const parts: Buffer[] = [];
  const deflate = createDeflate({ level: 9 });
  deflate.on('data', (b: Buffer) => parts.push(b));
  await pipeline(Readable.from(zeros()), deflate);
  const stream = Buffer.concat(parts);
  const head = Buffer.from(
    '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n' +
      '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
      '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>\nendobj\n' +
      `4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`,
    'latin1',
  );
  const tail = Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
  // No xref table: the reader rebuilds it, as it does for many damaged files.
  return Buffer.concat([head, stream, tail]);
}
