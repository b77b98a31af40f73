/**
 * What the third-party fixture upstreams (SDK v2 in sdk-v2-upstream.ts, tmcp in
 * tmcp-upstream.ts) serve, so that the bridge tests can check every byte the host gets.
 * Each has two resources (a Markdown text, a two-page PDF) and two tools: `links` answers with
 * resource_links to both, `embedded` with both embedded (the text, and the PDF as a blob).
 */
import { makePdf } from '../../../src/testing/pdf.js';

export const NOTES_URI = 'fixture://docs/notes.md';
export const NOTES_MIME = 'text/markdown';
export const NOTES_TEXT = '# Notes\n\nLinked text, “quoted”, ünïcödé ✓\n';
export const REPORT_URI = 'fixture://docs/report.pdf';
export const REPORT_MIME = 'application/pdf';
export const REPORT_PAGES = ['Quarterly report', 'Revenue grew by four percent'];
export const REPORT_PDF: Buffer = makePdf(REPORT_PAGES);
export const INTRO = 'Two documents follow.';
