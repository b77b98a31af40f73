/**
 * The two forms of an audit report: one JSON object (`--json`), or a table grouped by severity
 * for a terminal, where everything the server chose is shown escaped.
 */
import type { Implementation, ServerCapabilities } from '../protocol/index.js';
import { formatBytes } from '../providers/filesystem/format.js';
import { INCOMPLETE_CODES, type Finding, type Severity, type Summary } from './audit-findings.js';
import type { WalkStats } from './audit-walk.js';
import { shownText, terminalJson } from './terminal-text.js';

export interface AuditServer {
  /** The URL, or the stdio command line as given. */
  target: string;
  transport: 'stdio' | 'http';
  /** Absent when the server could not be reached. */
  era?: '2026-07-28' | '2025-11-25';
  protocolVersion?: string;
  serverInfo?: Implementation;
  capabilities?: ServerCapabilities;
}

export interface AuditReport {
  server: AuditServer;
  /**
   * False when part of the server was not walked: a budget spent, a list cut at its limits, a
   * walk stopped, a server unreachable (the findings say which).
   */
  complete: boolean;
  findings: Finding[];
  summary: Summary;
  /** What was walked (absent when the server could not be reached). */
  walked?: WalkStats;
}

/** Whether `findings` leave the walk complete (none of INCOMPLETE_CODES). */
export function isComplete(findings: readonly Finding[]): boolean {
  return !findings.some((f) => INCOMPLETE_CODES.has(f.code));
}

/**
 * The JSON form, with the escaping of `inspect --json` (terminalJson): C1 controls, DEL and
 * format characters (bidi controls, zero-width characters, BOM, soft hyphen) as `\uXXXX`.
 */
export function reportJson(report: AuditReport): string {
  return `${terminalJson(report)}\n`;
}

const HEADINGS: Record<Severity, string> = { error: 'Errors', warning: 'Warnings', info: 'Info' };

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Where a finding was made: method, then name and URI when they add something. */
function location(f: Finding): string {
  const parts: string[] = [];
  if (f.method !== undefined) parts.push(f.method);
  if (f.name !== undefined) parts.push(JSON.stringify(f.name));
  if (f.uri !== undefined) parts.push(f.uri);
  return shownText(parts.join('  '));
}

function header(report: AuditReport, target: string): string[] {
  const { server, walked } = report;
  const name = server.serverInfo
    ? `${server.serverInfo.name}${server.serverInfo.version ? ` ${server.serverInfo.version}` : ''}`
    : 'the server';
  const lines = [
    server.era
      ? `mcpkit audit: ${shownText(name)} (${server.era}, ${server.transport}: ${target})`
      : `mcpkit audit: ${target} (${server.transport})`,
  ];
  if (walked) {
    const w = walked;
    lines.push(
      `walked: ${plural(w.tools, 'tool')}, ${plural(w.prompts, 'prompt')}, ${plural(w.resources, 'resource')} ` +
        `(${w.reads} read, ${formatBytes(w.bytesRead)}), ${plural(w.resourceTemplates, 'template')}, ` +
        `${plural(w.links, 'link')} (${w.linksRead} read), ${plural(w.calls, 'call')}, ${plural(w.requests, 'request')}`,
    );
  }
  if (!report.complete) {
    const codes = [...new Set(report.findings.map((f) => f.code))].filter((c) =>
      INCOMPLETE_CODES.has(c),
    );
    lines.push(`incomplete: part of the server was not walked (see ${codes.join(', ')})`);
  }
  return lines;
}

/**
 * The terminal form: a heading, then each severity that has findings, each finding on two
 * lines (code and location; the JSON pointer and the message), then the summary line.
 */
export function reportText(report: AuditReport, target: string): string {
  const lines = header(report, target);
  // A loop, not Math.max(...): a hostile server can cause more findings than a call has stack for.
  const width = report.findings.reduce((n, f) => Math.max(n, f.code.length), 0);
  for (const severity of ['error', 'warning', 'info'] as const) {
    const group = report.findings.filter((f) => f.severity === severity);
    if (group.length === 0) continue;
    lines.push('', `${HEADINGS[severity]} (${group.length})`);
    for (const f of group) {
      lines.push(`  ${f.code.padEnd(width)}  ${location(f)}`.trimEnd());
      const at = f.path !== undefined && f.path !== '' ? `${shownText(f.path)}: ` : '';
      lines.push(`  ${' '.repeat(width)}  ${at}${shownText(f.message)}`);
    }
  }
  const { error, warning, info } = report.summary;
  lines.push(
    '',
    error + warning + info === 0
      ? 'no findings'
      : `${plural(error, 'error')}, ${plural(warning, 'warning')}, ${info} info`,
  );
  return `${lines.join('\n')}\n`;
}
