/**
 * `mcpkit audit` against a hostile stdio server (test/e2e/hostile/huge-lists-server.mjs): 1.5M
 * resources listed lazily page by page, prompts × arguments that drive completions, cursors and
 * lists past their limits, and names carrying C1 controls and bidi characters. The walk must end,
 * say what it did not walk (`complete: false`, `budget-spent`, `list-too-large`), and write its
 * JSON with the escaping of `inspect --json`.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/cli/audit-findings.js';
import type { AuditReport } from '../../src/cli/audit-report.js';
import { runMeasured, type MeasuredRun } from './hostile/peak-rss.js';

const SERVER = fileURLToPath(new URL('./hostile/huge-lists-server.mjs', import.meta.url));
const MiB = 1024 * 1024;

async function audit(
  flags: string[],
  server: string[],
): Promise<MeasuredRun & { report: AuditReport }> {
  const run = await runMeasured([
    'audit',
    '--json',
    ...flags,
    '--',
    process.execPath,
    SERVER,
    ...server,
  ]);
  let report: AuditReport;
  try {
    report = JSON.parse(run.stdout) as AuditReport;
  } catch {
    throw new Error(
      `audit printed no JSON (exit ${run.code}): ${run.stdout.slice(0, 500)}\n${run.stderr}`,
    );
  }
  return { ...run, report };
}

function findings(report: AuditReport, code: string): Finding[] {
  return report.findings.filter((f) => f.code === code);
}

function one(report: AuditReport, code: string, text: string | RegExp): Finding {
  const found = findings(report, code).find((f) =>
    typeof text === 'string' ? f.message.includes(text) : text.test(f.message),
  );
  if (!found)
    throw new Error(
      `no ${code} saying ${String(text)} in ${JSON.stringify(report.findings, null, 2)}`,
    );
  return found;
}

describe('mcpkit audit: a server listing 1,500,000 resources, prompts × arguments driving completions', () => {
  it('ends, says complete: false, and names the budgets spent and what was skipped', async () => {
    const run = await audit([], ['--resources', '1500000', '--prompts', '2000', '--args', '20']);
    const { report } = run;
    // Figures for the report (not assertions): time and peak RSS.
    console.info(
      `audit of 1.5M resources: ${run.ms} ms, peak RSS ${((run.peakRss ?? 0) / MiB).toFixed(0)} MiB`,
    );
    expect(run.code).toBe(1);
    expect(report.complete).toBe(false);
    one(report, 'list-too-large', /resources\/list: .*past 50000 entries \(--max-list-items\)/);
    const reads = one(report, 'budget-spent', '45000 listed resource(s) not read');
    expect(reads.message).toContain(
      'the budget of 5000 resources/read requests (--max-requests-per-kind)',
    );
    expect(reads.message).toContain('"file:///r/5000"');
    expect(reads.method).toBe('resources/read');
    const completions = one(report, 'budget-spent', 'prompt argument(s) not completed');
    expect(completions.message).toContain('completion/complete requests (--max-requests-per-kind)');
    expect(report.walked).toMatchObject({ resources: 50_000, reads: 5000, prompts: 2000 });
    expect(report.walked?.requests).toBeLessThanOrEqual(20_000);
    if (run.peakRss !== undefined) expect(run.peakRss).toBeLessThan(500 * MiB);
  }, 120_000);

  it('the total budget (--max-requests) ends the walk early and is named', async () => {
    const { report, code } = await audit(
      ['--max-requests', '300'],
      ['--resources', '1500000', '--prompts', '50', '--args', '3'],
    );
    expect(code).toBe(1);
    expect(report.complete).toBe(false);
    expect(report.walked?.requests).toBe(300);
    one(
      report,
      'budget-spent',
      /listed resource\(s\) not read: the budget of 300 requests in all \(--max-requests\) was spent/,
    );
    one(
      report,
      'budget-spent',
      /50 prompt\(s\) not got: the budget of 300 requests in all \(--max-requests\)/,
    );
  }, 60_000);

  it('a prompt with thousands of arguments: at most 32 completed, the rest placeholders, and said so', async () => {
    const { report } = await audit([], ['--prompts', '2', '--args', '3000']);
    expect(report.complete).toBe(false);
    one(
      report,
      'budget-spent',
      /^5936 prompt argument\(s\) not completed \(a placeholder was used\): the budget of 32 completions per prompt was spent: "p0 a32"/,
    );
    expect(report.walked?.requests).toBeLessThan(100);
    const failed = one(report, 'request-failed', 'and 2992 more');
    expect(failed.message.length).toBeLessThan(2000);
  }, 60_000);

  it('the text form shows the budget-spent findings and says the walk is incomplete', async () => {
    const run = await runMeasured([
      'audit',
      '--max-requests-per-kind',
      '20',
      '--',
      process.execPath,
      SERVER,
      '--resources',
      '100',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'incomplete: part of the server was not walked (see budget-spent)',
    );
    expect(run.stdout).toMatch(
      /budget-spent +resources\/read\n +80 listed resource\(s\) not read: the budget of 20 resources\/read requests \(--max-requests-per-kind\) was spent/,
    );
  }, 60_000);

  it('a walk within every budget is complete', async () => {
    const { report, code } = await audit(
      [],
      ['--resources', '30', '--prompts', '2', '--args', '2'],
    );
    expect(code).toBe(0);
    expect(report.complete).toBe(true);
    expect(findings(report, 'budget-spent')).toEqual([]);
  }, 60_000);
});

describe('mcpkit audit: the list limits apply to its walk', () => {
  it('a cursor over --max-cursor-bytes is not followed: list-too-large, the rest still walked', async () => {
    const { report, code } = await audit(
      [],
      ['--endless-tools', '--page', '2', '--cursor-bytes', String(20 * MiB), '--resources', '2'],
    );
    expect(code).toBe(1);
    expect(report.complete).toBe(false);
    const f = one(
      report,
      'list-too-large',
      `handed out a cursor of ${20 * MiB} bytes, over 65536 (--max-cursor-bytes)`,
    );
    expect(f).toMatchObject({ method: 'tools/list', path: '/nextCursor' });
    expect(report.walked).toMatchObject({ tools: 2, resources: 2, reads: 2 });
  }, 60_000);

  it('an endless list stops at --max-list-items, and at --max-list-bytes', async () => {
    const items = await audit(['--max-list-items', '2500'], ['--endless-tools', '--page', '1000']);
    one(
      items.report,
      'list-too-large',
      'tools/list: page 3 takes the list past 2500 entries (--max-list-items)',
    );
    expect(items.report.walked?.tools).toBe(2000);
    const bytes = await audit(
      ['--max-list-bytes', '1MiB'],
      ['--endless-tools', '--page', '10', '--description-bytes', '50000'],
    );
    one(
      bytes.report,
      'list-too-large',
      /tools\/list: page 3 takes the list's entries past 1048576 bytes \(--max-list-bytes\)/,
    );
    expect(bytes.report.walked?.tools).toBe(20);
  }, 60_000);
});

describe('mcpkit audit --json: server text with controls and bidi characters', () => {
  const RAW =
    /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;
  const HOSTILE = '\u009b2J\u009d0;owned\u0007\u202eevil\u200b\u2066x\u2069\ufeff\u00adend';

  it('escapes them as \\uXXXX (the same JSON value), exactly as inspect --json does', async () => {
    const { report, stdout, code } = await audit([], ['--hostile-text', '--resources', '2']);
    expect(code).toBe(0);
    expect(stdout).not.toMatch(RAW);
    for (const hex of ['009b', '009d', '202e', '200b', '2066', 'feff', '00ad', '0007'])
      expect(stdout).toContain(`\\u${hex}`);
    expect(report.server.serverInfo?.name).toBe(`huge-lists${HOSTILE}`);
    expect(one(report, 'name-reused', 'two tools').name).toBe(`tool${HOSTILE}`);

    const inspect = await runMeasured([
      'inspect',
      '--json',
      '--',
      process.execPath,
      SERVER,
      '--hostile-text',
      '--resources',
      '2',
    ]);
    expect(inspect.code, inspect.stderr).toBe(0);
    expect(inspect.stdout).not.toMatch(RAW);
    const escaped = (text: string) => /"name": ("huge-lists[^"]*")/.exec(text)?.[1];
    expect(escaped(stdout)).toBeDefined();
    expect(escaped(stdout)).toBe(escaped(inspect.stdout));
  }, 60_000);
});
