import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makePdf } from '../../testing/pdf.js';
import { extractPages, type PdfJsModule } from './extract-pages.js';
import { PDFJS_MODULE } from './pdf-text.js';

const load = async (): Promise<PdfJsModule> =>
  (await import(
    pathToFileURL(createRequire(import.meta.url).resolve(PDFJS_MODULE)).href
  )) as PdfJsModule;

describe('extractPages (pdf.js in this thread)', () => {
  it('gives each page its text, in order, one line per line', async () => {
    const pdf = makePdf(['First page (one)\nsecond line', 'Page two', 'Page three']);
    const got = await extractPages(await load(), new Uint8Array(pdf), {
      maxPages: 10,
      maxTextBytes: 10_000,
    });
    expect(got).toEqual({
      text: '--- page 1 ---\nFirst page (one)\nsecond line\n\n--- page 2 ---\nPage two\n\n--- page 3 ---\nPage three',
      pagesRead: 3,
      pageCount: 3,
      cut: false,
    });
  });

  it('stops at maxPages and at maxTextBytes', async () => {
    const pdf = makePdf(['alpha', 'beta', 'gamma', 'delta']);
    const pdfjs = await load();
    const two = await extractPages(pdfjs, new Uint8Array(pdf), {
      maxPages: 2,
      maxTextBytes: 10_000,
    });
    expect(two).toMatchObject({ pagesRead: 2, pageCount: 4, cut: false });
    expect(two.text).toContain('beta');
    expect(two.text).not.toContain('gamma');
    const cut = await extractPages(pdfjs, new Uint8Array(pdf), { maxPages: 10, maxTextBytes: 30 });
    expect(cut).toMatchObject({ cut: true, pageCount: 4 });
    expect(Buffer.byteLength(cut.text)).toBeLessThanOrEqual(30);
    expect(cut.text.startsWith('--- page 1 ---\nalpha')).toBe(true);
  });

  it('rejects what is not a PDF', async () => {
    await expect(
      extractPages(await load(), new TextEncoder().encode('%PDF-1.4 not really'), {
        maxPages: 1,
        maxTextBytes: 100,
      }),
    ).rejects.toThrow();
  });
});
