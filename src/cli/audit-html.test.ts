import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from './audit-findings.js';
import { reportHtml, type HtmlReportOptions } from './audit-html.js';
import { checkHtmlTarget, writeAtomically } from './audit-html-write.js';
import { sizeClassOf, WalkRecord } from './audit-record.js';
import type { AuditReport } from './audit-report.js';
import { parseHostArgs } from './host-args.js';

const MiB = 1024 * 1024;
const HOSTILE = `<script>alert("x")</script>'"&\u202e\u001b[31m\u200b`;

function options(record?: WalkRecord): HtmlReportOptions {
  return {
    target: 'http://127.0.0.1:3333/mcp',
    ...(record ? { record } : {}),
    blockBudgetBytes: MiB,
    capBytes: 10 * MiB,
    version: '0.1.0',
    generatedAt: '2026-12-05T10:00:00.000Z',
  };
}

function emptyReport(): AuditReport {
  return {
    server: { target: 'http://127.0.0.1:3333/mcp', transport: 'http' },
    complete: true,
    findings: [],
    summary: { error: 0, warning: 0, info: 0 },
  };
}

/** A report where every server-chosen string is hostile, with sizes of every class and links. */
function hostile(): { report: AuditReport; record: WalkRecord } {
  const findings: Finding[] = [
    {
      severity: 'error',
      code: 'uri-invalid',
      message: `bad ${HOSTILE}`,
      uri: HOSTILE,
      name: HOSTILE,
      method: 'resources/list',
      path: `/a/${HOSTILE}`,
    },
    {
      severity: 'warning',
      code: 'mime-mismatch',
      message: 'fetched "https://evil.example/x.png"',
      uri: 'https://evil.example/x.png',
    },
    { severity: 'info', code: 'tool-error', message: 'it broke', name: 'fails' },
  ];
  const record = new WalkRecord(MiB);
  const rows: Array<[string, number, 'embedded' | 'linked' | 'in-parts' | 'too-large']> = [
    [`file:///${HOSTILE}`, 100, 'embedded'],
    ['https://evil.example/big', 3 * MiB, 'linked'],
    ['file:///parts', 40 * MiB, 'in-parts'],
    ['file:///huge', 20 * MiB, 'too-large'],
  ];
  for (const [uri, wireBytes, sizeClass] of rows)
    record.resources.push({
      uri,
      name: HOSTILE,
      mimeType: HOSTILE,
      wireBytes,
      measured: true,
      read: 'whole',
      sizeClass,
    });
  record.resources.push({ uri: 'file:///unknown', measured: false, read: 'not read' });
  record.links.push(
    {
      uri: 'https://evil.example/"onmouseover=alert(1)',
      metIn: `prompts/get ${HOSTILE}`,
      path: '/messages/0/content',
      outcome: 'not checked',
      detail: HOSTILE,
    },
    {
      uri: 'file:///ok',
      metIn: 'tools/call "t"',
      path: '/content/1',
      coveredBy: 'a listed resource',
      outcome: 'read',
      bytes: 12,
      detail: '',
    },
  );
  return {
    report: {
      server: {
        target: 'x',
        transport: 'http',
        era: '2026-07-28',
        serverInfo: { name: `<img src=x onerror=alert(1)>${HOSTILE}`, version: HOSTILE },
      },
      complete: true,
      findings,
      summary: { error: 1, warning: 1, info: 1 },
      walked: {
        tools: 1,
        prompts: 1,
        resources: 5,
        resourceTemplates: 0,
        reads: 4,
        bytesRead: 10,
        links: 2,
        linksRead: 1,
        calls: 1,
        requests: 9,
      },
    },
    record,
  };
}

/** Every attribute or CSS place that could load something. */
const LOADERS =
  /\b(?:src|href|srcset|action|formaction|poster|data|background|xlink:href|ping)\s*=|url\(|@import/gi;

describe('reportHtml', () => {
  it('escapes every server string: no tag, quote or control character gets through', () => {
    const { report, record } = hostile();
    const html = reportHtml(report, options(record));
    expect(html).not.toMatch(/<script|<img/i);
    const tagList = html.match(/<[a-z][^>]*>/gi) ?? [];
    expect(tagList.filter((tag) => /\son\w+\s*=/i.test(tag))).toEqual([]);
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u202e]/);
    expect(html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&quot;&amp;\\u202e\\x1b[31m\\u200b',
    );
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    // Only our own elements: every tag name in the page is one the renderer writes.
    const tags = new Set(
      [...html.matchAll(/<([a-z][a-z0-9]*)/gi)].map((m) => (m[1] as string).toLowerCase()),
    );
    const ours = [
      'html',
      'head',
      'meta',
      'title',
      'style',
      'body',
      'header',
      'h1',
      'h2',
      'h3',
      'p',
      'main',
      'section',
      'table',
      'caption',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
      'code',
      'br',
      'figure',
      'svg',
      'rect',
      'text',
      'line',
      'circle',
      'b',
      'span',
      'footer',
    ];
    expect([...tags].filter((t) => !ours.includes(t))).toEqual([]);
  });

  it('refers to nothing off the machine: no src, href or url( at all; server URLs are text', () => {
    const { report, record } = hostile();
    const html = reportHtml(report, options(record));
    // In every tag (text cannot hold a `<`: it is escaped) and in the style sheet.
    const tags = html.match(/<[a-z][^>]*>/gi) ?? [];
    expect(tags.length).toBeGreaterThan(100);
    expect(tags.filter((tag) => LOADERS.test(tag))).toEqual([]);
    const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    expect(css.match(LOADERS)).toBeNull();
    // Server URLs are only ever text.
    expect(tags.filter((tag) => /evil\.example/.test(tag))).toEqual([]);
    expect(html).toContain('<code>https://evil.example/big</code>');
    expect(html).not.toMatch(/<a[\s>]/i);
  });

  it('has a strict CSP whose hash allows exactly its one style element', () => {
    const html = reportHtml(emptyReport(), options());
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src data:;/);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
    expect(styles).toHaveLength(1);
    const hash = createHash('sha256')
      .update(styles[0]?.[1] as string)
      .digest('base64');
    expect(csp).toContain(`'sha256-${hash}'`);
    // The CSP comes before the style it governs, and no style attribute needs 'unsafe-hashes'.
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<style>'));
    expect(html).not.toMatch(/\sstyle=/);
  });

  it('draws every table and the chart even with nothing to show', () => {
    const html = reportHtml(emptyReport(), options());
    for (const id of [
      'summary-table',
      'findings-error',
      'findings-warning',
      'findings-info',
      'sizes-table',
      'links-table',
    ])
      expect(html).toContain(`<table id="${id}">`);
    expect(html.match(/<tr class="none"><td colspan="\d">none<\/td><\/tr>/g)).toHaveLength(5);
    expect(html).toMatch(/<svg id="size-chart"[^>]*>.*no resource size known.*<\/svg>/s);
    expect(html).toContain('block budget 1 MiB');
    expect(html).toContain('stdio cap 10 MiB');
  });

  it('puts each finding under its severity with its fix, and each class in its row', () => {
    const { report, record } = hostile();
    const html = reportHtml(report, options(record));
    const section = (id: string): string =>
      new RegExp(`<table id="${id}">.*?</table>`, 's').exec(html)?.[0] ?? '';
    expect(section('findings-error')).toContain('<code>uri-invalid</code>');
    expect(section('findings-error')).toContain('Use absolute RFC 3986 URIs');
    expect(section('findings-warning')).toContain('<code>mime-mismatch</code>');
    expect(section('findings-info')).toContain('<code>tool-error</code>');
    for (const cls of ['embedded', 'linked', 'in-parts', 'too-large'])
      expect(html.match(new RegExp(`<circle class="dot ${cls}"`, 'g'))).toHaveLength(1);
    expect(html).toContain('embedded (1)');
    expect(html).toContain('1 resource(s) of unknown size');
    expect(section('links-table').match(/<tr>/g)).toHaveLength(3);
  });
});

describe('sizeClassOf', () => {
  it('embedded up to the block budget, linked up to the cap, then in parts or too large', () => {
    const near = 9 * MiB;
    expect(sizeClassOf(MiB, MiB, false, near)).toBe('embedded');
    expect(sizeClassOf(MiB + 1, MiB, true, near)).toBe('linked');
    expect(sizeClassOf(9.5 * MiB, MiB, false, near)).toBe('linked');
    expect(sizeClassOf(9.5 * MiB, MiB, true, near)).toBe('in-parts');
    expect(sizeClassOf(10 * MiB + 1, MiB, false, near)).toBe('too-large');
  });
});

describe('--html on the command line', () => {
  it('takes FILE or -, for audit only; - does not go with --json', () => {
    const ok = parseHostArgs('audit', ['--html', 'r.html', 'http://127.0.0.1:1/mcp']);
    expect(ok.kind === 'ok' && ok.args.html).toBe('r.html');
    const dash = parseHostArgs('audit', ['--html=-', 'http://127.0.0.1:1/mcp']);
    expect(dash.kind === 'ok' && dash.args.html).toBe('-');
    expect(parseHostArgs('inspect', ['--html', 'r.html', 'http://127.0.0.1:1/mcp'])).toEqual({
      kind: 'error',
      message: '--html applies to mcpkit audit only',
    });
    expect(
      parseHostArgs('audit', ['--html', '-', '--json', 'http://127.0.0.1:1/mcp']),
    ).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/--html - and --json both write to stdout/),
    });
    expect(parseHostArgs('audit', ['--html=', 'http://127.0.0.1:1/mcp'])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^--html expects a FILE/),
    });
  });
});

describe('writing the report', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpkit-html-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('replaces the file whole and leaves no temporary file', async () => {
    const file = join(dir, 'report.html');
    await writeFile(file, 'old');
    await writeAtomically(file, '<!doctype html>new');
    expect(await readFile(file, 'utf8')).toBe('<!doctype html>new');
    expect(await readdir(dir)).toEqual(['report.html']);
  });

  it('refuses before the walk a folder, or a file in a folder that does not exist', async () => {
    await expect(checkHtmlTarget(dir)).rejects.toThrow(/is a folder/);
    await expect(checkHtmlTarget(join(dir, 'nope', 'r.html'))).rejects.toThrow(/does not exist/);
    await expect(checkHtmlTarget(join(dir, 'r.html'))).resolves.toBeUndefined();
    await expect(checkHtmlTarget('-')).resolves.toBeUndefined();
  });
});
