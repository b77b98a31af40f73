/**
 * `mcpkit inspect` and `mcpkit audit` (the built CLI) against a stdio server whose answers have
 * shapes a renderer or a check must survive (test/e2e/hostile/shapes-server.mjs): each run ends
 * with its output and exit status, never with a JavaScript error in place of the report.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/cli/audit-findings.js';
import { runMeasured } from './hostile/peak-rss.js';

const SERVER = fileURLToPath(new URL('./hostile/shapes-server.mjs', import.meta.url));
const server = (scenario: string): string[] => ['--', process.execPath, SERVER, scenario];

describe('mcpkit inspect against answers of odd shapes', () => {
  it('lists a prompt whose arguments hold null (shown as received, with a warning)', async () => {
    const run = await runMeasured(['inspect', ...server('null-prompt-argument')]);
    expect(run.stderr).not.toMatch(/Cannot read properties/);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('prompts (1)');
    expect(run.stdout).toContain('odd(INVALID: null, x?)');
    expect(run.stderr).toContain('warning: prompts/list answered an invalid result');
  });

  it('gets a prompt whose one message holds 200,000 blocks (no stack overflow)', async () => {
    const run = await runMeasured([
      'inspect',
      '--json',
      'prompt',
      'wide',
      ...server('huge-prompt-content'),
    ]);
    expect(run.stderr).not.toMatch(/Maximum call stack/);
    expect(run.code).toBe(0);
    const shown = JSON.parse(run.stdout) as { blocks: unknown[] };
    expect(shown.blocks).toHaveLength(200_000);
  });
});

describe('mcpkit audit against answers of odd shapes', () => {
  it('gets a prompt that declares 200,000 required arguments (no stack overflow)', async () => {
    const run = await runMeasured(['audit', '--json', ...server('many-required-arguments')]);
    expect(run.stderr).not.toMatch(/Maximum call stack/);
    const report = JSON.parse(run.stdout) as { walked: { prompts: number } };
    expect(report.walked.prompts).toBe(1);
    expect(run.code).toBe(0);
  });

  it('writes its terminal report of some 150,000 findings (no stack overflow)', async () => {
    const run = await runMeasured(['audit', ...server('many-findings')]);
    expect(run.stderr).not.toMatch(/Maximum call stack/);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^mcpkit audit: shapes-many-findings 0\.0\.0 /);
    expect(run.stdout).toMatch(/\n\d+ errors, 0 warnings, \d+ info\n$/);
    const named = run.stdout.match(/^ {2}name-reused /gm) ?? [];
    expect(named.length).toBeGreaterThan(99_000);
  });

  it('draws the HTML chart of 200,000 listed sizes, the list limit raised (no stack overflow)', async () => {
    const run = await runMeasured([
      'audit',
      '--max-list-items',
      '200000',
      '--html',
      '-',
      ...server('many-sized-resources'),
    ]);
    expect(run.stderr).not.toMatch(/Maximum call stack/);
    // 1 for its one error: that list page is over the 10 MiB a stdio client takes.
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('<svg id="size-chart"');
    expect(run.stdout).toContain('Resources: 200000');
  }, 60_000);

  it('stops matching 10,000 resources against 10,000 templates at its budget, and says so', async () => {
    const run = await runMeasured(['audit', '--json', ...server('many-parts-templates')], 25_000);
    expect(run.code).not.toBeNull();
    const report = JSON.parse(run.stdout) as { complete: boolean; findings: Finding[] };
    expect(report.complete).toBe(false);
    const spent = report.findings.filter((f) => f.code === 'budget-spent');
    expect(spent.map((f) => f.message)).toContainEqual(
      expect.stringMatching(/^template matching stopped after 10000000 matches of a URI/),
    );
  }, 30_000);
});
