/**
 * `mcpkit audit` end to end against test/e2e/host/broken-server.mjs, which plants one case of
 * every finding code: over stdio (JSON and the terminal form) and over HTTP, where the link
 * checks with `--fetch-urls` must refuse loopback, metadata and a redirect into 127.0.0.2
 * without ever reaching them, and without `--fetch-urls` fetch nothing at all. Then
 * test/e2e/host/slow-server.mjs: a walk nobody answers stops (`walk-stopped`), and a long
 * walk shows progress on stderr.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/cli/audit-findings.js';
import type { AuditReport } from '../../src/cli/audit-report.js';
import {
  BROKEN,
  ListeningServer,
  SLOW,
  auditJson,
  codesOf,
  only,
  runCli,
  type CliRun,
} from './host/audit-harness.js';

const STDIO = ['--', process.execPath, BROKEN, '--stdio'];
/** Enough for the 11 MiB answer and the links after it; the 2 GiB resource stays unread. */
const BUDGET = ['--budget', '32MiB', '--call', 'fails-tool'];

/** Every code the broken server plants, and its severity over stdio. */
const PLANTED = [
  'blob-invalid-base64 error',
  'blob-missing-mime warning',
  'blob-noncanonical-base64 warning',
  'budget-spent info',
  'client-warning warning',
  'embed-over-budget warning',
  'legacy-not-found-code warning',
  'link-not-checked info',
  'link-read-failed error',
  'link-unresolved error',
  'mime-mismatch warning',
  'missing-cache-hints error',
  'missing-result-type error',
  'name-reused info',
  'pagination-loop error',
  'request-failed error',
  'result-over-cap error',
  'result-over-cap warning',
  'schema-violation error',
  'size-mismatch warning',
  'template-invalid error',
  'tool-error info',
  'uri-invalid error',
];

function find(findings: readonly Finding[], code: string, uri?: string): Finding {
  const found = findings.find((f) => f.code === code && (uri === undefined || f.uri === uri));
  if (!found)
    throw new Error(
      `no ${code}${uri ? ` for ${uri}` : ''} in ${JSON.stringify(findings, null, 2)}`,
    );
  return found;
}

describe('mcpkit audit: the broken server over stdio', () => {
  let run: CliRun;
  let report: AuditReport;

  beforeAll(async () => {
    ({ run, report } = await auditJson([...BUDGET, ...STDIO]));
  });

  it('finds every planted code, with its severity, and exits 1', () => {
    expect(codesOf(report.findings)).toEqual(PLANTED);
    expect(run.code).toBe(1);
    const count = (severity: string): number =>
      report.findings.filter((f) => f.severity === severity).length;
    expect(report.summary).toEqual({
      error: count('error'),
      warning: count('warning'),
      info: count('info'),
    });
  });

  it('points at the offending part of each answer', () => {
    const f = report.findings;
    expect(find(f, 'blob-invalid-base64')).toMatchObject({
      method: 'resources/read',
      uri: 'broken://blob/invalid',
      path: '/contents/0/blob',
    });
    expect(find(f, 'missing-cache-hints')).toMatchObject({ method: 'tools/list', path: '/ttlMs' });
    expect(find(f, 'missing-result-type')).toMatchObject({
      method: 'prompts/list',
      path: '/resultType',
    });
    expect(find(f, 'schema-violation')).toMatchObject({
      uri: 'broken://schema',
      path: '/contents/0/text',
    });
    expect(find(f, 'template-invalid')).toMatchObject({
      name: 'bad',
      path: '/resourceTemplates/1/uriTemplate',
    });
    expect(find(f, 'uri-invalid')).toMatchObject({
      uri: 'broken://ctl/\u001b[31mred\u202e',
      path: '/resources/8/uri',
    });
    expect(find(f, 'name-reused')).toMatchObject({
      method: 'tools/list',
      name: 'dup',
      path: '/tools/1',
    });
    expect(find(f, 'mime-mismatch').message).toBe(
      'declared image/jpeg, but the bytes are image/png',
    );
    expect(find(f, 'size-mismatch', 'broken://lies')).toMatchObject({ path: '/contents/0' });
    expect(find(f, 'size-mismatch', 'broken://doc/fine')).toMatchObject({
      method: 'prompts/get',
      path: '/messages/3/content',
      message: 'the link says 3 bytes, the read gave 15',
    });
    expect(only(f, 'embed-over-budget')).toEqual([
      expect.objectContaining({
        method: 'prompts/get',
        name: 'big-embed',
        path: '/messages/0/content',
        uri: 'broken://embedded',
      }),
      // An image's data travels inline too.
      expect.objectContaining({
        name: 'big-embed',
        path: '/messages/1/content',
        message: expect.stringMatching(/^an embedded image block of \d+ bytes on the wire/),
      }),
    ]);
    expect(find(f, 'legacy-not-found-code')).toMatchObject({ uri: 'broken://gone' });
    expect(find(f, 'link-read-failed')).toMatchObject({
      uri: 'broken://doc/failing',
      path: '/messages/1/content',
    });
    expect(find(f, 'link-read-failed').message).toContain('the template "broken://doc/{name}"');
    expect(only(f, 'link-unresolved').map((x) => x.uri)).toEqual([
      'broken://nowhere/x',
      'broken://gone',
    ]);
    expect(only(f, 'link-not-checked').map((x) => x.uri)).toEqual([
      'broken://doc/huge',
      'http://127.0.0.1:9/internal',
      'http://169.254.169.254/latest/meta-data/',
    ]);
    expect(find(f, 'link-not-checked', 'broken://doc/huge').message).toMatch(
      /its size \(2147483648\) is over what is left of the budget/,
    );
    expect(find(f, 'request-failed')).toMatchObject({ uri: 'broken://fails' });
    expect(find(f, 'budget-spent').message).toContain('"broken://huge"');
    expect(only(f, 'result-over-cap', 'error')).toEqual([
      expect.objectContaining({ uri: 'broken://big' }),
    ]);
    expect(only(f, 'result-over-cap', 'warning')).toEqual([
      expect.objectContaining({ uri: 'broken://huge', path: '/resources/9/size' }),
    ]);
    expect(find(f, 'client-warning').message).toMatch(/^INVALID_MESSAGE: .*this line is not JSON/);
    expect(find(f, 'tool-error')).toMatchObject({ name: 'fails-tool', path: '/isError' });
    // The prompt that needs its completion's value ("alpha") was got without a failure.
    expect(f.some((x) => x.name === 'needs-arg')).toBe(false);
  });

  it('reports what it walked', () => {
    expect(report.server).toMatchObject({
      transport: 'stdio',
      era: '2026-07-28',
      serverInfo: { name: 'broken-server' },
    });
    expect(report.walked).toMatchObject({
      tools: 4,
      prompts: 3,
      resources: 11,
      reads: 9,
      links: 7,
      calls: 1,
    });
  });

  it('--block-budget raised over both embedded blocks: no embed-over-budget', async () => {
    const { report } = await auditJson(['--block-budget', '2MiB', ...STDIO]);
    expect(only(report.findings, 'embed-over-budget')).toEqual([]);
    expect(report.walked).toMatchObject({ prompts: 3 });
  });

  it('the terminal form: grouped by severity, escaped, the budget spent before the links', async () => {
    const text = await runCli(['audit', ...STDIO]);
    expect(text.code).toBe(1);
    const out = text.stdout;
    // Nothing the server sent reaches the terminal raw: no ESC, BEL or bidi override.
    expect(out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(out).toContain('broken://ctl/\\x1b[31mred\\u202e');
    const errors = out.indexOf('\nErrors (');
    const warnings = out.indexOf('\nWarnings (');
    const info = out.indexOf('\nInfo (');
    expect(errors).toBeGreaterThan(0);
    expect(warnings).toBeGreaterThan(errors);
    expect(info).toBeGreaterThan(warnings);
    expect(out).toMatch(/not read: the budget is spent \(--budget 4194304\)/);
    expect(out).toMatch(/\n\d+ errors, \d+ warnings, \d+ info\n$/);
  });
});

describe('mcpkit audit: the broken server over HTTP', () => {
  let server: ListeningServer;

  beforeAll(async () => {
    server = await ListeningServer.start([BROKEN, '--http']);
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('without --fetch-urls: over the cap is a warning, no link is fetched, a hang times out', async () => {
    const { run, report } = await auditJson([
      ...BUDGET,
      '--call',
      'hangs',
      '--timeout',
      '3',
      server.url,
    ]);
    expect(
      only(report.findings, 'request-failed').find((f) => f.name === 'hangs')?.message,
    ).toMatch(/REQUEST_TIMEOUT/);
    expect(run.code).toBe(1);
    const over = only(report.findings, 'result-over-cap');
    expect(over.map((f) => [f.uri, f.severity])).toEqual([
      ['broken://huge', 'warning'],
      ['broken://big', 'warning'],
    ]);
    expect(only(report.findings, 'link-not-checked').map((f) => f.uri)).toEqual([
      'broken://doc/huge',
      'http://127.0.0.1:9/internal',
      'http://169.254.169.254/latest/meta-data/',
      `${server.url.replace(/\/mcp$/, '')}/redirect`,
    ]);
    expect(only(report.findings, 'client-warning')).toEqual([]);
    expect(server.stderr).not.toContain('fetched');
  });

  it('with --fetch-urls: loopback, metadata and a redirect into 127.0.0.2 are refused by the guard', async () => {
    const base = server.url.replace(/\/mcp$/, '');
    const { report } = await auditJson([
      ...BUDGET,
      '--fetch-urls',
      '--allow-address',
      '127.0.0.1',
      '--timeout',
      '5',
      server.url,
    ]);
    const unresolved = only(report.findings, 'link-unresolved');
    const message = (uri: string): string => find(unresolved, 'link-unresolved', uri).message;
    expect(message('http://169.254.169.254/latest/meta-data/')).toMatch(
      /GUARD_BLOCKED: .*169\.254\.169\.254 is metadata/,
    );
    expect(message(`${base}/redirect`)).toMatch(/GUARD_BLOCKED: .*127\.0\.0\.2 is loopback/);
    expect(only(report.findings, 'link-not-checked').map((f) => f.uri)).toEqual([
      'broken://doc/huge',
    ]);
    // The allowed hop was fetched; the redirect's target never was.
    expect(server.stderr).toContain('fetched 127.0.0.1 /redirect');
    expect(server.stderr).not.toContain('127.0.0.2');
    // Without the allow-list, loopback is refused before any connection.
    const strict = await auditJson([...BUDGET, '--fetch-urls', server.url]);
    expect(find(strict.report.findings, 'link-unresolved', `${base}/redirect`).message).toMatch(
      /GUARD_BLOCKED: .*127\.0\.0\.1 is loopback/,
    );
    expect(server.stderr.match(/fetched/g)).toHaveLength(1);
  });
});

describe('mcpkit audit: a slow or silent server', () => {
  const slow = (...flags: string[]): string[] => ['--', process.execPath, SLOW, ...flags];

  it('stops after 3 timeouts in a row with walk-stopped, and shows progress on stderr', async () => {
    // 10 reads and 10 completions that never answer: 20 s at --timeout 1 without the bound.
    const started = Date.now();
    const { run, report } = await auditJson([
      '--timeout',
      '1',
      ...slow('--hang-reads', '--hang-completions'),
    ]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run.code).toBe(1);
    expect(report.findings.map((f) => [f.code, f.severity, f.uri])).toEqual([
      ['request-failed', 'error', 'slow://r/0'],
      ['request-failed', 'error', 'slow://r/1'],
      ['walk-stopped', 'error', 'slow://r/2'],
    ]);
    expect(find(report.findings, 'walk-stopped').message).toBe(
      '3 requests in a row got no answer within --timeout (1 s), the last a resources/read; the walk stopped while reading resources (3 of 10): nothing after that was walked',
    );
    expect(report.walked).toMatchObject({ resources: 10, reads: 0, prompts: 1 });
    expect(run.stderr).toMatch(/^mcpkit audit: reading resources \d+\/10…$/m);
  });

  it('shows progress in the completion loop and the --call loop', async () => {
    // Each loop takes over 2 s, the interval between two progress lines off a terminal.
    const calls = Array.from({ length: 8 }, () => ['--call', 'slow']).flat();
    const [completing, calling] = await Promise.all([
      // 10 completions of 250 ms each; 8 calls of 300 ms each.
      auditJson(slow('--complete-ms', '250')),
      auditJson([...calls, ...slow('--call-ms', '300')]),
    ]);
    for (const { run, report } of [completing, calling]) {
      expect(report.findings).toEqual([]);
      expect(run.code).toBe(0);
    }
    expect(completing.run.stderr).toMatch(/^mcpkit audit: completing prompt arguments \d+\/10…$/m);
    expect(calling.run.stderr).toMatch(/^mcpkit audit: calling tools \d+\/8…$/m);
    expect(calling.report.walked).toMatchObject({ calls: 8 });
  });
});
