/**
 * `mcpkit audit --html FILE` end to end: the built CLI against test/e2e/host/broken-server.mjs
 * (every finding code planted, with --html-extras: hostile names and a resource of each size
 * class), the page opened in headless Chromium (Debian's `chromium`): it loads with no console
 * error or CSP violation and requests nothing but itself, the chart and every table are there,
 * the server's `<script>` is text. A screenshot goes to test-artifacts/ (not committed). Without
 * Chromium the browser part is skipped with a reason, or fails when CI=true (CI installs it).
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './serve-harness.js';
import { BROKEN, runCli, type CliRun } from './host/audit-harness.js';
import { Chromium, findChromium } from './host/chromium.js';

const SERVER = ['--', process.execPath, BROKEN, '--stdio', '--html-extras'];
const ARGS = ['--budget', '32MiB', '--call', 'fails-tool'];
const ARTIFACTS = join(ROOT, 'test-artifacts');
const CHROMIUM = findChromium();

if (!CHROMIUM && process.env['CI'] !== 'true')
  console.warn(
    'audit-html: the Chromium checks are skipped: no chromium (apt-get install chromium, or set CHROMIUM)',
  );

describe('mcpkit audit --html', () => {
  let dir: string;
  let file: string;
  let run: CliRun;

  beforeAll(async () => {
    await mkdir(join(ROOT, 'test', '.tmp'), { recursive: true });
    dir = await mkdtemp(join(ROOT, 'test', '.tmp', 'audit-html-'));
    file = join(dir, 'report.html');
    run = await runCli(['audit', ...ARGS, '--html', file, ...SERVER], 60_000);
  }, 90_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes the file, prints the usual report, exits as audit does (1: error findings)', async () => {
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^mcpkit audit: broken-server /);
    expect(run.stdout).toMatch(/\d+ errors, \d+ warnings, \d+ info\n$/);
    expect(run.stderr).toContain(`HTML report written to ${file}`);
    const html = await readFile(file, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script/i);
  });

  it('--html - writes the page on stdout alone; with --json it is refused', async () => {
    const page = await runCli(['audit', ...ARGS, '--html', '-', ...SERVER], 60_000);
    expect(page.code).toBe(1);
    expect(page.stdout.startsWith('<!doctype html>')).toBe(true);
    expect(page.stdout.trimEnd().endsWith('</html>')).toBe(true);
    const both = await runCli(['audit', '--html', '-', '--json', ...SERVER]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--html - and --json both write to stdout/);
  }, 90_000);

  it('refuses a FILE in a folder that does not exist before it starts the server', async () => {
    const marker = join(dir, 'started');
    const missing = join(dir, 'no-such-folder', 'r.html');
    const bad = await runCli([
      'audit',
      '--html',
      missing,
      '--',
      process.execPath,
      '-e',
      `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--html .*no-such-folder.* does not exist/);
    await expect(stat(marker)).rejects.toThrow();
  });

  describe.skipIf(!CHROMIUM && process.env['CI'] !== 'true')('in headless Chromium', () => {
    let browser: Chromium;

    beforeAll(async () => {
      if (!CHROMIUM) throw new Error("CI=true and no Chromium: .ci/run installs Debian's chromium");
      browser = await Chromium.launch(CHROMIUM);
      await browser.open(pathToFileURL(file).href);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
    }, 20_000);

    it('loads with no console error, no CSP violation, and requests nothing but itself', () => {
      expect(browser.problems.errors).toEqual([]);
      expect(browser.problems.requests).toEqual([pathToFileURL(file).href]);
    });

    it('shows the chart with a dot in each class and every table', async () => {
      const page = await browser.evaluate<{
        tables: string[];
        dots: Record<string, number>;
        chart: { w: number; h: number };
        scripts: number;
        loaders: number;
      }>(`(() => {
        const svg = document.querySelector('svg#size-chart');
        const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
        const dots = {};
        for (const c of document.querySelectorAll('svg#size-chart circle.dot'))
          for (const k of ['embedded', 'linked', 'in-parts', 'too-large'])
            if (c.classList.contains(k)) dots[k] = (dots[k] ?? 0) + 1;
        return {
          tables: [...document.querySelectorAll('table')].map((t) => t.id),
          dots,
          chart: { w: box.width, h: box.height },
          scripts: document.scripts.length,
          loaders: document.querySelectorAll('[src],[href],[srcset],[action]').length,
        };
      })()`);
      expect(page.tables).toEqual([
        'summary-table',
        'findings-error',
        'findings-warning',
        'findings-info',
        'sizes-table',
        'links-table',
      ]);
      expect(page.dots).toMatchObject({ embedded: expect.any(Number), linked: 1, 'in-parts': 1 });
      expect(page.dots['too-large']).toBeGreaterThanOrEqual(2);
      expect(page.chart.w).toBeGreaterThan(500);
      expect(page.chart.h).toBeGreaterThan(200);
      expect(page.scripts).toBe(0);
      expect(page.loaders).toBe(0);
    });

    it("shows the server's markup and controls as text, with the fix of each finding", async () => {
      const text = await browser.evaluate<{ sizes: string; links: string; errors: string }>(`({
        sizes: document.getElementById('sizes-table').innerText,
        links: document.getElementById('links-table').innerText,
        errors: document.getElementById('findings-error').innerText,
      })`);
      expect(text.sizes).toContain('<script>alert("x")</script> "quoted" \\u202eevil');
      expect(text.sizes).toContain('broken://ctl/\\x1b[31mred\\u202e');
      expect(text.links).toContain("https://evil.example/?q='onmouseover='alert(1)&x=1");
      expect(text.links).toMatch(/broken:\/\/nowhere\/x[\s\S]*unresolved/);
      expect(text.errors).toContain('Serve the linked URI');
    });

    it('writes a screenshot to test-artifacts/', async () => {
      const png = await browser.screenshot();
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      await mkdir(ARTIFACTS, { recursive: true });
      await writeFile(join(ARTIFACTS, 'audit-report.png'), png);
      expect(png.length).toBeGreaterThan(10_000);
    });
  });
});
