import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeFlateBombPdf, makePdf } from '../../testing/pdf.js';
import { PdfLane } from './pdf-lane.js';
import { extractPdfText, type PdfExtractOptions } from './pdf-text.js';

// The worker runs compiled (the test setup builds dist/ first).
const WORKER = new URL(
  '../../../dist/bridge/pdf/pdf-worker.js',
  new URL(`file://${fileURLToPath(import.meta.url)}`),
);
const LIMITS: PdfExtractOptions = {
  maxPages: 50,
  maxBytes: 1024 * 1024,
  maxTextBytes: 64 * 1024,
  timeoutMs: 20_000,
  maxMemoryBytes: 192 * 1024 * 1024,
  lane: new PdfLane(),
  readUnsizedLinks: false,
};

describe('extractPdfText (a worker thread per PDF)', () => {
  it('returns the text of the first pages', async () => {
    const pdf = makePdf(['Hello from page one', 'And page two']);
    const got = await extractPdfText(pdf, { ...LIMITS, maxPages: 1 }, undefined, WORKER);
    expect(got).toEqual({
      ok: true,
      text: '--- page 1 ---\nHello from page one',
      pagesRead: 1,
      pageCount: 2,
      cut: false,
    });
  });

  it('refuses a PDF over maxBytes without parsing it, and names a broken one', async () => {
    const big = await extractPdfText(
      Buffer.alloc(2000),
      { ...LIMITS, maxBytes: 1000 },
      undefined,
      WORKER,
    );
    expect(big).toEqual({
      ok: false,
      reason: '2000 bytes, over the 1000 the bridge parses (--pdf-max-bytes)',
    });
    const broken = await extractPdfText(
      Buffer.from('%PDF-1.7\nno objects'),
      LIMITS,
      undefined,
      WORKER,
    );
    expect(broken.ok).toBe(false);
  });

  it('ends a worker at the time cap and when cancelled', async () => {
    // Many pages of text: far more work than 1 ms allows.
    const pdf = makePdf(Array.from({ length: 300 }, (_, i) => `page ${i} `.repeat(40)));
    const slow = await extractPdfText(
      pdf,
      { ...LIMITS, maxPages: 300, timeoutMs: 1 },
      undefined,
      WORKER,
    );
    expect(slow).toEqual({ ok: false, reason: 'extraction stopped after 1 ms (--pdf-timeout)' });
    const controller = new AbortController();
    const pending = extractPdfText(pdf, { ...LIMITS, maxPages: 300 }, controller.signal, WORKER);
    controller.abort();
    expect(await pending).toEqual({ ok: false, reason: 'the request was cancelled' });
  });
});

describe('extractPdfText, several at once', () => {
  it('4 parallel calls on one bridge all succeed under the default memory cap', async () => {
    const limits = { ...LIMITS, maxMemoryBytes: 128 * 1024 * 1024 };
    const pdfs = [1, 2, 3, 4].map((n) => makePdf([`parallel ${n}`]));
    const got = await Promise.all(pdfs.map((p) => extractPdfText(p, limits, undefined, WORKER)));
    expect(got).toEqual(
      [1, 2, 3, 4].map((n) => ({
        ok: true,
        text: `--- page 1 ---\nparallel ${n}`,
        pagesRead: 1,
        pageCount: 1,
        cut: false,
      })),
    );
  }, 60_000);

  it('the memory cap counts what the document adds, not the worker and pdf.js loading', async () => {
    // Loading pdf.js in a fresh worker alone grows the RSS by about 56 MiB.
    const got = await extractPdfText(
      makePdf(['small']),
      { ...LIMITS, maxMemoryBytes: 40 * 1024 * 1024 },
      undefined,
      WORKER,
    );
    expect(got).toMatchObject({ ok: true, text: '--- page 1 ---\nsmall' });
  });

  it('a PDF waiting for the lane past its --pdf-timeout is named with the timeout, or cancelled', async () => {
    const lane = new PdfLane();
    expect(await lane.enter(Date.now() + 1000)).toBe('entered');
    const pdf = makePdf(['waiting']);
    const late = await extractPdfText(pdf, { ...LIMITS, lane, timeoutMs: 20 }, undefined, WORKER);
    expect(late).toEqual({ ok: false, reason: 'extraction stopped after 20 ms (--pdf-timeout)' });
    const controller = new AbortController();
    const pending = extractPdfText(pdf, { ...LIMITS, lane }, controller.signal, WORKER);
    controller.abort();
    expect(await pending).toEqual({ ok: false, reason: 'the request was cancelled' });
    lane.leave();
    expect(await extractPdfText(pdf, { ...LIMITS, lane }, undefined, WORKER)).toMatchObject({
      ok: true,
    });
  });
});

describe('extractPdfText against a hostile PDF', () => {
  it('a flate bomb (1 GiB inflated) is stopped at the memory cap, and the process lives on', async () => {
    const bomb = await makeFlateBombPdf(1024 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(4 * 1024 * 1024);
    const got = await extractPdfText(
      bomb,
      { ...LIMITS, maxBytes: 8 * 1024 * 1024, maxMemoryBytes: 96 * 1024 * 1024, timeoutMs: 60_000 },
      undefined,
      WORKER,
    );
    expect(got.ok).toBe(false);
    expect(got.ok ? '' : got.reason).toMatch(/needed more than 100663296 bytes of memory/);
    // The process is still able to extract the next PDF.
    const next = await extractPdfText(makePdf(['after the bomb']), LIMITS, undefined, WORKER);
    expect(next).toMatchObject({ ok: true, text: '--- page 1 ---\nafter the bomb' });
  }, 120_000);
});
