/**
 * `mcpkit audit` end to end, the built CLI as a process, against servers that should pass:
 * `mcpkit serve` on examples/docs (stdio and HTTP) and on folders that once made it fail (a
 * first completed file too large to embed, files over 10 MiB, UTF-16 and BOM text),
 * `@modelcontextprotocol/server-everything` (stdio, 2025-11-25) and a server written with the
 * official SDK v2 (stdio and HTTP, 2026-07-28); then a server that cannot be reached, and bad
 * usage.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, MiB } from './serve-harness.js';
import {
  EVERYTHING,
  ListeningServer,
  SDK_SERVER,
  auditJson,
  codesOf,
  only,
  runCli,
} from './host/audit-harness.js';

const SERVE_STDIO = ['--', process.execPath, CLI, 'serve', 'examples/docs', '--stdio'];
const serveStdio = (dir: string): string[] => [
  '--',
  process.execPath,
  CLI,
  'serve',
  dir,
  '--stdio',
];

describe('mcpkit audit: servers that pass', () => {
  let serve: ListeningServer;
  let sdk: ListeningServer;

  beforeAll(async () => {
    [serve, sdk] = await Promise.all([
      ListeningServer.start([CLI, 'serve', 'examples/docs', '--http', '127.0.0.1:0', '--quiet']),
      ListeningServer.start(['--import', 'tsx', SDK_SERVER, '--http']),
    ]);
  });

  afterAll(async () => {
    await Promise.all([serve?.stop(), sdk?.stop()]);
  });

  it('mcpkit serve over stdio: no findings, exit 0, calls included', async () => {
    const { run, report } = await auditJson([
      '--call',
      'search={"query":"mcpkit"}',
      '--call',
      'read={"path":"README.md"}',
      ...SERVE_STDIO,
    ]);
    expect(report.findings).toEqual([]);
    expect(run.code).toBe(0);
    expect(report.server).toMatchObject({
      transport: 'stdio',
      era: '2026-07-28',
      serverInfo: { name: 'mcpkit-serve' },
    });
    expect(report.walked).toMatchObject({ tools: 2, prompts: 2, calls: 2 });
    expect(report.walked?.reads).toBe(report.walked?.resources);
    expect(report.walked?.linksRead).toBe(report.walked?.links);
  });

  it('mcpkit serve over HTTP, 2025-11-25 pinned: the terminal form says "no findings"', async () => {
    const run = await runCli(['audit', serve.url, '--era', '2025-11-25']);
    expect(run.stdout).toMatch(/^mcpkit audit: mcpkit-serve \S+ \(2025-11-25, http: http:/);
    expect(run.stdout).toMatch(/\n\nno findings\n$/);
    expect(run.code).toBe(0);
  });

  it('server-everything over stdio (2025-11-25): no findings', async () => {
    const { run, report } = await auditJson([
      '--call',
      'get-resource-links={"count":3}',
      '--call',
      'get-resource-reference={"resourceType":"Blob","resourceId":2}',
      '--call',
      'get-tiny-image',
      '--',
      process.execPath,
      EVERYTHING,
      'stdio',
    ]);
    expect(codesOf(report.findings)).toEqual([]);
    expect(run.code).toBe(0);
    expect(report.server).toMatchObject({
      era: '2025-11-25',
      serverInfo: { name: 'mcp-servers/everything' },
    });
    expect(report.walked).toMatchObject({ resources: 7, prompts: 4, links: 3, linksRead: 3 });
  });

  it('the SDK v2 server over stdio and HTTP (2026-07-28): no findings', async () => {
    const calls = ['--call', 'link={"target":"blob"}', '--call', 'doc-link={"name":"intro"}'];
    const [stdio, http] = await Promise.all([
      auditJson([...calls, '--', process.execPath, '--import', 'tsx', SDK_SERVER, '--stdio']),
      auditJson([...calls, sdk.url]),
    ]);
    for (const { run, report } of [stdio, http]) {
      expect(report.findings).toEqual([]);
      expect(run.code).toBe(0);
      expect(report.server).toMatchObject({
        era: '2026-07-28',
        serverInfo: { name: 'interop-sdk-v2' },
      });
      expect(report.walked).toMatchObject({ links: 2, linksRead: 2 });
    }
  });
});

describe('mcpkit audit: mcpkit serve on folders that caught bugs', () => {
  let root: string;
  const folder = (name: string): string => join(root, name);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mcpkit-audit-'));
    const files: Array<[string, Buffer]> = [
      // review-file's completion offers a.bin first: too large to embed, so serve refuses it.
      ['first-large/a.bin', Buffer.alloc(5 * MiB, 7)],
      ['first-large/b.md', Buffer.from('# b\n')],
      // Over the 10 MiB a whole read may take: serve points at its parts template instead.
      ['over-cap/big.bin', Buffer.alloc(10.5 * MiB, 7)],
      ['over-cap/big.txt', Buffer.alloc(16 * MiB, 'a')],
      // "hi" in UTF-16LE (file-type calls FF FE… audio/mpeg), and UTF-8 with a BOM.
      ['text/u16.txt', Buffer.from([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00])],
      ['text/bom.txt', Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('hello')])],
    ];
    for (const [path, bytes] of files) {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), bytes);
    }
  });

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('a first completed file too large to embed: the next value is tried, no findings, exit 0', async () => {
    const { run, report } = await auditJson(serveStdio(folder('first-large')));
    // a.bin (5 MiB) is over the default --budget of 4 MiB: left unread, which is info.
    expect(codesOf(report.findings)).toEqual(['budget-spent info']);
    expect(run.code).toBe(0);
  });

  it('every completed file too large to embed: a warning (the values were guesses), exit 0', async () => {
    const { run, report } = await auditJson(serveStdio(folder('over-cap')));
    expect(report.summary.error).toBe(0);
    expect(run.code).toBe(0);
    const failed = only(report.findings, 'request-failed');
    expect(failed).toEqual([
      expect.objectContaining({ severity: 'warning', method: 'prompts/get', name: 'review-file' }),
    ]);
    expect(failed[0]?.message).toMatch(
      /with guessed arguments \(2 tries: "path" "big\.bin", "big\.txt"/,
    );
  });

  it('files over 10 MiB with a --budget that fits them: read through their first part, exit 0', async () => {
    const { run, report } = await auditJson([
      '--budget',
      '64MiB',
      ...serveStdio(folder('over-cap')),
    ]);
    expect(report.summary.error).toBe(0);
    expect(run.code).toBe(0);
    expect(codesOf(report.findings)).toEqual(['request-failed warning']);
    expect(report.walked).toMatchObject({ resources: 2, reads: 2 });
    // Two first parts of at most 1 MiB each, not 26.5 MiB of whole reads.
    expect(report.walked?.bytesRead).toBeGreaterThan(0);
    expect(report.walked?.bytesRead).toBeLessThanOrEqual(2 * MiB);
  });

  it('UTF-16LE text and UTF-8 text with a BOM: no mime-mismatch, no size-mismatch', async () => {
    const { run, report } = await auditJson(serveStdio(folder('text')));
    expect(report.findings).toEqual([]);
    expect(run.code).toBe(0);
    expect(report.walked).toMatchObject({ resources: 2, reads: 2 });
  });

  it('--block-budget: an embedded resource over it is a warning, exit 0', async () => {
    const { run, report } = await auditJson([
      '--block-budget',
      '1k',
      '--call',
      'read={"path":"README.md"}',
      ...SERVE_STDIO,
    ]);
    expect(run.code).toBe(0);
    const over = only(report.findings, 'embed-over-budget', 'warning');
    expect(over.map((f) => [f.method, f.name, f.uri])).toEqual([
      ['prompts/get', 'review-file', 'file:///README.md'],
      ['tools/call', 'read', 'file:///README.md'],
    ]);
    expect(over[0]?.message).toMatch(/over the block budget of 1024 \(--block-budget\)/);
    expect(codesOf(report.findings)).toEqual(['embed-over-budget warning']);
  });
});

describe('mcpkit audit: unreachable servers and bad usage', () => {
  it('a closed port is the error finding "unreachable", exit 1', async () => {
    const { run, report } = await auditJson(['http://127.0.0.1:9/mcp', '--timeout', '5']);
    expect(run.code).toBe(1);
    expect(report.findings).toEqual([
      expect.objectContaining({
        code: 'unreachable',
        severity: 'error',
        message: expect.stringMatching(/127\.0\.0\.1:9/),
      }),
    ]);
    expect(report.summary).toEqual({ error: 1, warning: 0, info: 0 });
    expect(report.walked).toBeUndefined();
  });

  it('a command that does not exist, and one that exits at once, in the terminal form', async () => {
    const missing = await runCli(['audit', '--', 'mcpkit-no-such-command-7f3a']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/Errors \(1\)\n {2}unreachable/);
    const exits = await runCli(['audit', '--', process.execPath, '-e', 'process.exit(3)']);
    expect(exits.code).toBe(1);
    expect(exits.stdout).toMatch(/unreachable/);
  });

  it('bad usage exits 2 with one line on stderr, nothing on stdout', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['audit'], /audit needs a server/],
      [['audit', 'http://127.0.0.1:9/mcp', 'read'], /audit takes no verb/],
      [
        ['audit', 'http://127.0.0.1:9/mcp', '--resolve', 'all'],
        /--resolve applies to mcpkit inspect only/,
      ],
      [
        ['audit', 'http://127.0.0.1:9/mcp', '--call', 'x={'],
        /--call x: the arguments are not JSON/,
      ],
      [
        ['audit', 'http://127.0.0.1:9/mcp', '--allow-address', '0x7f000001'],
        /--allow-address expects/,
      ],
    ];
    const runs = await Promise.all(cases.map(([argv]) => runCli(argv)));
    runs.forEach((run, i) => {
      expect(run.code, String(cases[i]?.[0])).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(cases[i]?.[1] as RegExp);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  });

  it('--help prints the audit usage', async () => {
    const run = await runCli(['audit', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^mcpkit audit: walk an MCP server/);
    expect(run.stdout).toContain('--call NAME=JSON');
  });
});
