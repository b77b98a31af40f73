/**
 * Where `--html` goes: FILE, written atomically (a temporary file in the same folder, renamed
 * over FILE, so a reader never sees half a report) after the usual report on stdout; or `-`,
 * stdout alone. FILE's folder is checked before the walk, so a long walk does not end in a
 * report that cannot be written.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { RESULT_CAP_BYTES } from './audit-answer.js';
import { reportHtml } from './audit-html.js';
import type { WalkRecord } from './audit-record.js';
import { reportJson, reportText, type AuditReport } from './audit-report.js';
import type { HostArgs } from './host-args.js';
import { describeTarget } from './host-connect.js';
import { packageVersion } from './package-version.js';
import { UsageError } from './usage-error.js';

interface Output {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

function reason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}

/** Throws a UsageError (exit 2) when FILE cannot be written: a folder, or a folder that is not there. */
export async function checkHtmlTarget(file: string): Promise<void> {
  if (file === '-') return;
  const full = resolve(file);
  const existing = await stat(full).catch(() => undefined);
  if (existing?.isDirectory())
    throw new UsageError(`--html ${JSON.stringify(file)} is a folder: give a file name`);
  const folder = dirname(full);
  const parent = await stat(folder).catch(() => undefined);
  if (!parent?.isDirectory())
    throw new UsageError(
      `--html ${JSON.stringify(file)}: the folder ${JSON.stringify(folder)} does not exist`,
    );
  try {
    await access(folder, constants.W_OK);
  } catch (error) {
    throw new UsageError(
      `--html ${JSON.stringify(file)}: the folder cannot be written (${reason(error)})`,
    );
  }
}

/** Writes `text` to `file` through a temporary file renamed over it. */
export async function writeAtomically(file: string, text: string): Promise<void> {
  const full = resolve(file);
  const temporary = join(
    dirname(full),
    `.${basename(full)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    await writeFile(temporary, text, { flag: 'wx' });
    await rename(temporary, full);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * The end of a run with `--html`: the HTML on stdout (`-`), or the usual report on stdout and
 * the HTML in FILE. Returns the exit code: `code`, or 1 when FILE could not be written.
 */
export async function emitHtmlReport(
  args: HostArgs & { html: string },
  report: AuditReport,
  record: WalkRecord | undefined,
  out: Output,
  code: number,
): Promise<number> {
  const target = describeTarget(args.target);
  const html = reportHtml(report, {
    target,
    ...(record ? { record } : {}),
    blockBudgetBytes: args.blockBudgetBytes,
    capBytes: RESULT_CAP_BYTES,
    version: packageVersion(),
    generatedAt: new Date().toISOString(),
  });
  if (args.html === '-') {
    out.stdout(html);
    return code;
  }
  out.stdout(args.json ? reportJson(report) : reportText(report, target));
  try {
    await writeAtomically(args.html, html);
  } catch (error) {
    out.stderr(
      `mcpkit audit: --html: the report could not be written to ${args.html}: ${reason(error)}\n`,
    );
    return 1;
  }
  out.stderr(`mcpkit audit: HTML report written to ${args.html}\n`);
  return code;
}
