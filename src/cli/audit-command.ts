/**
 * `mcpkit audit`: connect, walk, report. Exit 1 when an error-level finding was made (a server
 * that cannot be reached is the finding `unreachable`), 0 otherwise. Progress goes to stderr.
 */
import type { ClientWarning, McpClient } from '../client/index.js';
import type { ContentContext } from './audit-content.js';
import { createLinkFetch } from './audit-fetch.js';
import { FindingLog } from './audit-findings.js';
import { checkHtmlTarget, emitHtmlReport } from './audit-html-write.js';
import { ServerGone, TimeoutStreak, describeError } from './audit-read.js';
import {
  isComplete,
  reportJson,
  reportText,
  type AuditReport,
  type AuditServer,
} from './audit-report.js';
import { WalkRecord } from './audit-record.js';
import { walkServer, type WalkProgress, type WalkStats } from './audit-walk.js';
import type { HostArgs, HostTarget } from './host-args.js';
import { connectTarget, describeTarget } from './host-connect.js';
import { stderrSection } from './server-stderr.js';

/** Findings below error level after which the server's stderr is shown all the same. */
const FAILURE_CODES = new Set(['request-failed', 'tool-error', 'unknown-tool']);

/** Client warnings the answer checks already cover (they judge what the client repaired). */
const COVERED_WARNINGS = new Set(['REPAIRED_RESULT', 'REPAIRED_CONTENT']);

export interface AuditIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stderr is a terminal (progress rewrites one line). */
  tty: boolean;
  now?: () => number;
}

function targetText(target: HostTarget): string {
  return target.kind === 'http' ? target.url : [target.command, ...target.args].join(' ');
}

/**
 * Progress of a long walk: nothing for the first second, then the stage every 2 s (a terminal:
 * one line rewritten every 250 ms, cleared at the end).
 */
export function createWalkProgress(io: AuditIo): { update: WalkProgress; end(): void } {
  const now = io.now ?? Date.now;
  const started = now();
  let last = -Infinity;
  let shown = false;
  const interval = io.tty ? 250 : 2000;
  return {
    update(stage, done, total) {
      const t = now();
      if (t - started < 1000 || t - last < interval) return;
      last = t;
      shown = true;
      const line = `mcpkit audit: ${stage}${total > 0 ? ` ${done + 1}/${total}` : ''}…`;
      io.stderr(io.tty ? `\r\x1b[K${line}` : `${line}\n`);
    },
    end() {
      if (shown && io.tty) io.stderr('\r\x1b[K');
    },
  };
}

/** Runs the audit of `args.target`; returns the exit code. */
export async function runAudit(args: HostArgs, io?: AuditIo): Promise<number> {
  const out: AuditIo = io ?? {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    tty: process.stderr.isTTY === true,
  };
  if (args.html !== undefined) await checkHtmlTarget(args.html);
  const record = args.html === undefined ? undefined : new WalkRecord(args.blockBudgetBytes);
  const log = new FindingLog();
  const warnings: ClientWarning[] = [];
  const server: AuditServer = { target: targetText(args.target), transport: args.target.kind };
  let walked: WalkStats | undefined;
  let client: McpClient | undefined;
  let stderrOf: (() => string) | undefined;
  try {
    client = await connectTarget(args, {
      clientName: 'mcpkit-audit',
      onWarning: (w) => warnings.push(w),
      onStderr: (read) => (stderrOf = read),
    });
  } catch (error) {
    log.add({ code: 'unreachable', message: describeError(error) });
  }
  if (client) {
    server.era = client.era === 'modern' ? '2026-07-28' : '2025-11-25';
    if (client.protocolVersion !== undefined) server.protocolVersion = client.protocolVersion;
    if (client.serverInfo !== undefined) server.serverInfo = client.serverInfo;
    if (client.serverCapabilities !== undefined) server.capabilities = client.serverCapabilities;
    const ctx: ContentContext = {
      era: client.era ?? 'legacy',
      transport: args.target.kind,
      log,
      blockBudgetBytes: args.blockBudgetBytes,
      timeouts: new TimeoutStreak(),
    };
    const progress = createWalkProgress(out);
    try {
      walked = await walkServer({
        client,
        args,
        ctx,
        progress: progress.update,
        ...(record ? { record } : {}),
        ...(args.fetchUrls ? { fetch: createLinkFetch(args) } : {}),
      });
    } catch (error) {
      if (!(error instanceof ServerGone)) throw error;
      log.add({
        code: 'unreachable',
        message: `the server went away during the walk: ${error.message}`,
      });
    } finally {
      progress.end();
      await client.close().catch(() => undefined);
    }
  }
  for (const w of warnings) {
    if (!COVERED_WARNINGS.has(w.code))
      log.add({ code: 'client-warning', message: `${w.code}: ${w.message}` });
  }
  const findings = [...log.findings];
  const report: AuditReport = {
    server,
    complete: isComplete(findings),
    findings,
    summary: log.summary(),
  };
  if (walked) report.walked = walked;
  const code = report.summary.error > 0 ? 1 : 0;
  // A stdio server's own account of what failed (the answers say only "Internal error").
  const failed = code > 0 || findings.some((f) => FAILURE_CODES.has(f.code));
  const serverStderr = (): void => {
    if (failed || args.verbose) out.stderr(stderrSection(stderrOf?.() ?? ''));
  };
  if (args.html !== undefined) {
    const status = await emitHtmlReport({ ...args, html: args.html }, report, record, out, code);
    serverStderr();
    return status;
  }
  out.stdout(args.json ? reportJson(report) : reportText(report, describeTarget(args.target)));
  serverStderr();
  return code;
}
