/**
 * The HTML form of an audit report (`--html FILE`): one self-contained page, with no script and
 * no reference to anything off the machine (a server-supplied URL is text, never a link), its CSS
 * in one `<style>` allowed by its hash in a strict Content-Security-Policy. Everything the server
 * chose is escaped (htmlText). Sections: summary, findings by severity with their fix, resource
 * sizes against the peer caps (inline SVG and a table), every link checked.
 */
import { createHash } from 'node:crypto';
import { FINDING_FIXES } from './audit-fixes.js';
import type { Finding, Severity } from './audit-findings.js';
import { bytesLabel, CLASS_LABELS, MAX_DOTS, shortBytes, sizeChart } from './audit-html-chart.js';
import { REPORT_CSS } from './audit-html-style.js';
import type { WalkRecord } from './audit-record.js';
import type { AuditReport } from './audit-report.js';
import { htmlText } from './html-text.js';

export interface HtmlReportOptions {
  /** The target as the terminal form shows it (URL, or the stdio command line). */
  target: string;
  /** Sizes and links; absent when the server could not be reached. */
  record?: WalkRecord;
  /** The block budget and cap drawn when there is no record. */
  blockBudgetBytes: number;
  capBytes: number;
  version: string;
  /** ISO time of the run. */
  generatedAt: string;
}

/** The policy of the page: nothing loads, nothing runs; only its own hashed style applies. */
export function reportCsp(css: string): string {
  const hash = createHash('sha256').update(css, 'utf8').digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'`;
}

const HEADINGS: Record<Severity, string> = { error: 'Errors', warning: 'Warnings', info: 'Info' };

const e = htmlText;

function cells(values: readonly string[], tag = 'td'): string {
  return `<tr>${values.map((v) => `<${tag}>${v}</${tag}>`).join('')}</tr>`;
}

/** A table with its header; one "none" row when there is nothing to list. */
function table(
  id: string,
  caption: string,
  head: readonly string[],
  rows: readonly string[],
): string {
  const body =
    rows.length > 0
      ? rows.join('')
      : `<tr class="none"><td colspan="${head.length}">none</td></tr>`;
  return `<table id="${id}"><caption>${caption}</caption><thead>${cells(head, 'th')}</thead><tbody>${body}</tbody></table>`;
}

function code(text: string): string {
  return `<code>${e(text)}</code>`;
}

function summaryTable(report: AuditReport, options: HtmlReportOptions): string {
  const { server, walked, summary } = report;
  const rows: Array<[string, string]> = [
    [
      'Server',
      server.serverInfo
        ? e(
            `${server.serverInfo.name}${server.serverInfo.version ? ` ${server.serverInfo.version}` : ''}`,
          )
        : 'not reached',
    ],
    ['Target', `${code(options.target)} (${server.transport})`],
    [
      'Protocol',
      server.era
        ? `${server.era}${server.protocolVersion && server.protocolVersion !== server.era ? ` (${e(server.protocolVersion)})` : ''}`
        : 'unknown',
    ],
    ['Errors', String(summary.error)],
    ['Warnings', String(summary.warning)],
    ['Info', String(summary.info)],
    [
      'Complete',
      report.complete ? 'yes' : 'no: part of the server was not walked (see the findings)',
    ],
    ['Exit status', summary.error > 0 ? '1 (an error-level finding)' : '0'],
  ];
  if (walked) {
    rows.push(
      ['Tools', String(walked.tools)],
      ['Prompts', String(walked.prompts)],
      [
        'Resources',
        `${walked.resources} (${walked.reads} read, ${e(shortBytes(walked.bytesRead))} decoded)`,
      ],
      ['Resource templates', String(walked.resourceTemplates)],
      ['Links', `${walked.links} (${walked.linksRead} read)`],
      ['Tool calls', String(walked.calls)],
      ['Requests', String(walked.requests)],
    );
  }
  return table(
    'summary-table',
    'Summary',
    ['', ''],
    rows.map(([k, v]) => `<tr><th scope="row">${k}</th><td>${v}</td></tr>`),
  );
}

function where(f: Finding): string {
  const parts: string[] = [];
  if (f.method !== undefined) parts.push(code(f.method));
  if (f.name !== undefined) parts.push(`name ${code(f.name)}`);
  if (f.uri !== undefined) parts.push(`URI ${code(f.uri)}`);
  return parts.join('<br>');
}

function findingTables(findings: readonly Finding[]): string {
  return (['error', 'warning', 'info'] as const)
    .map((severity) => {
      const group = findings.filter((f) => f.severity === severity);
      const rows = group.map(
        (f) =>
          `<tr class="${severity}">${[
            code(f.code),
            where(f),
            f.path !== undefined && f.path !== '' ? code(f.path) : '',
            e(f.message),
            e(FINDING_FIXES[f.code] ?? ''),
          ]
            .map((v) => `<td>${v}</td>`)
            .join('')}</tr>`,
      );
      return `<h3 class="${severity}">${HEADINGS[severity]} (${group.length})</h3>${table(
        `findings-${severity}`,
        `${HEADINGS[severity]}: ${group.length}`,
        ['Code', 'Where', 'Pointer', 'Message', 'Fix'],
        rows,
      )}`;
    })
    .join('');
}

function sizesSection(options: HtmlReportOptions): string {
  const resources = options.record?.resources ?? [];
  const unknown = resources.filter((r) => r.sizeClass === undefined).length;
  const drawn = resources.length - unknown;
  const notes = [
    `Each listed resource by the bytes of a whole read's answer: <b>embedded</b> fits the block budget (${e(shortBytes(options.blockBudgetBytes))}), <b>linked</b> is over it but under the ${e(shortBytes(options.capBytes))} a stdio client takes, <b>in parts</b> is near or over that cap with a parts template that covers it, <b>too large</b> is over it with none.`,
  ];
  if (unknown > 0)
    notes.push(`${unknown} resource(s) of unknown size (not read, no listed size) are not drawn.`);
  if (drawn > MAX_DOTS)
    notes.push(`The first ${MAX_DOTS} of ${drawn} are drawn; the table lists all.`);
  const rows = resources.map((r) =>
    cells([
      code(r.uri),
      r.name === undefined ? '' : e(r.name),
      r.mimeType === undefined ? '' : e(r.mimeType),
      r.listedSize === undefined ? '' : String(r.listedSize),
      r.wireBytes === undefined
        ? ''
        : `${e(bytesLabel(r.wireBytes))}${r.measured ? '' : ' (estimated)'}`,
      r.read,
      r.sizeClass === undefined
        ? 'unknown'
        : `<span class="tag ${r.sizeClass}">${CLASS_LABELS[r.sizeClass]}</span>`,
    ]),
  );
  return `<p>${notes.join(' ')}</p><figure>${sizeChart({
    resources,
    blockBudgetBytes: options.blockBudgetBytes,
    capBytes: options.capBytes,
  })}</figure>${table(
    'sizes-table',
    `Resources: ${resources.length}`,
    ['URI', 'Name', 'MIME type', 'Listed size', 'Whole read', 'Read', 'Class'],
    rows,
  )}`;
}

function linksSection(options: HtmlReportOptions): string {
  const links = options.record?.links ?? [];
  const rows = links.map((l) =>
    cells([
      code(l.uri),
      e(l.metIn),
      l.path === '' ? '' : code(l.path),
      l.coveredBy === undefined ? 'nothing' : e(l.coveredBy),
      `<span class="tag ${l.outcome.replace(' ', '-')}">${l.outcome}</span>`,
      l.bytes === undefined ? '' : e(bytesLabel(l.bytes)),
      e(l.detail),
    ]),
  );
  return table(
    'links-table',
    `Links checked: ${links.length}`,
    ['URI', 'Met in', 'Pointer', 'Covered by', 'Outcome', 'Bytes', 'Detail'],
    rows,
  );
}

/** The whole page. */
export function reportHtml(report: AuditReport, options: HtmlReportOptions): string {
  const name = report.server.serverInfo?.name ?? options.target;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${reportCsp(REPORT_CSS)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mcpkit audit: ${e(name)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header><h1>mcpkit audit: ${e(name)}</h1><p>${code(options.target)}, ${e(options.generatedAt)}</p></header>
<main>
<section id="summary"><h2>Summary</h2>${summaryTable(report, options)}</section>
<section id="findings"><h2>Findings</h2>${findingTables(report.findings)}</section>
<section id="sizes"><h2>Resource sizes against the peer caps</h2>${sizesSection(options)}</section>
<section id="links"><h2>Links checked</h2>${linksSection(options)}</section>
</main>
<footer>mcpkit ${e(options.version)} audit report. Text the server sent is shown escaped; its URLs are text, never links.</footer>
</body>
</html>
`;
}
