// `mcpkit inspect` through the built CLI, against real servers: `mcpkit serve` on the example
// folder over stdio and HTTP, and a hostile stdio server whose links point into loopback,
// metadata and private space (test/e2e/inspect/hostile-links-server.mjs). Every fetch the guard
// lets through goes to an HTTP server of this test on 127.0.0.1, which logs what it was asked.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, EXAMPLE_DIR, HttpServe } from './serve-harness.js';

const HOSTILE = fileURLToPath(new URL('./inspect/hostile-links-server.mjs', import.meta.url));
const SERVE = ['--', process.execPath, CLI, 'serve', EXAMPLE_DIR, '--stdio', '--quiet'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function inspect(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, 'inspect', ...args],
      { env: { ...process.env, ...env }, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: unknown }).code as number | null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
  });
}

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe('mcpkit inspect against mcpkit serve', () => {
  let http: HttpServe;
  beforeAll(async () => {
    http = await HttpServe.start(['--quiet']);
  }, 30_000);
  afterAll(async () => http?.stop());

  it('prints the overview as JSON over stdio and HTTP, every list in full', async () => {
    for (const target of [SERVE, [http.url]]) {
      const run = await inspect([
        ...(target[0] === '--' ? [] : target),
        '--json',
        ...(target[0] === '--' ? target : []),
      ]);
      expect(run.code, run.stderr).toBe(0);
      const data = JSON.parse(run.stdout);
      expect(Object.keys(data)).toEqual([
        'era',
        'server',
        'resources',
        'resourceTemplates',
        'prompts',
        'tools',
      ]);
      expect(data.era).toBe('2026-07-28');
      expect(data.server.supportedVersions).toContain('2026-07-28');
      expect(data.resources.map((r: { uri: string }) => r.uri)).toContain(
        'file:///images/mcpkit.png',
      );
      expect(data.resourceTemplates.length).toBeGreaterThan(0);
      expect(data.prompts.map((p: { name: string }) => p.name).sort()).toEqual([
        'review-file',
        'survey',
      ]);
      expect(data.tools.map((t: { name: string }) => t.name).sort()).toEqual(['read', 'search']);
    }
  });

  it('pins the 2025-11-25 era with --era', async () => {
    const run = await inspect(['--era', '2025-11-25', '--json', ...SERVE]);
    expect(run.code, run.stderr).toBe(0);
    const data = JSON.parse(run.stdout);
    expect(data.era).toBe('2025-11-25');
    expect(data.server.protocolVersion).toBe('2025-11-25');
  });

  it('reads a resource: the result as received, then bytes and sha256 of each contents', async () => {
    const png = readFileSync(join(EXAMPLE_DIR, 'images', 'mcpkit.png'));
    const run = await inspect([http.url, 'read', 'file:///images/mcpkit.png', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const data = JSON.parse(run.stdout);
    expect(data.result.contents[0].blob).toBe(png.toString('base64'));
    expect(data.contents).toEqual([
      {
        uri: 'file:///images/mcpkit.png',
        mimeType: 'image/png',
        bytes: png.length,
        sha256: sha(png),
      },
    ]);
    const human = await inspect([http.url, 'read', 'file:///notes/security.md']);
    expect(human.stdout).toContain('contents file:///notes/security.md  text/markdown');
    expect(human.stdout).toContain(
      `sha256 ${sha(readFileSync(join(EXAMPLE_DIR, 'notes', 'security.md')))}`,
    );
  });

  it('reads no link unless asked; --resolve all reads them within --budget', async () => {
    const call = ['call', 'search', '{"query":"embed"}', '--json'];
    const none = JSON.parse((await inspect([http.url, ...call])).stdout);
    const links = none.blocks.filter((b: { type: string }) => b.type === 'resource_link');
    expect(links.length).toBeGreaterThan(2);
    for (const l of links)
      expect(l.outcome).toEqual({
        status: 'skipped',
        reason: expect.stringMatching(/^not-requested: /),
      });

    const all = JSON.parse(
      (await inspect([http.url, ...call, '--resolve', 'all', '--budget', '2000'])).stdout,
    );
    const outcomes = all.blocks
      .filter((b: { type: string }) => b.type === 'resource_link')
      .map((b: { uri: string; size: number; outcome: unknown }) => b);
    const read = outcomes.filter(
      (b: { outcome: { status: string } }) => b.outcome.status === 'read',
    );
    expect(read).toHaveLength(1);
    const file = readFileSync(join(EXAMPLE_DIR, read[0].uri.slice('file:///'.length)));
    expect(read[0].outcome).toEqual({ status: 'read', bytes: file.length, sha256: sha(file) });
    expect(read[0].size).toBe(file.length);
    const big = outcomes.find((b: { uri: string }) => b.uri === 'file:///data/requests.csv');
    expect(big.outcome).toEqual({
      status: 'skipped',
      reason: expect.stringMatching(/^budget: the link declares 1250047 bytes/),
    });
    expect(
      outcomes.some(
        (b: { outcome: { status: string; reason: string } }) =>
          b.outcome.status === 'skipped' && b.outcome.reason.startsWith('budget: '),
      ),
    ).toBe(true);
  });

  it('gets a prompt with arguments; the embedded file is a snapshot with its size', async () => {
    const run = await inspect([
      ...['prompt', 'review-file', 'path=notes/security.md', '--json'],
      ...SERVE,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const data = JSON.parse(run.stdout);
    const size = readFileSync(join(EXAMPLE_DIR, 'notes', 'security.md')).length;
    expect(data.blocks[0]).toEqual({
      type: 'resource',
      uri: 'file:///notes/security.md',
      mimeType: 'text/markdown',
      size,
    });
    const human = await inspect(['prompt', 'review-file', 'path=notes/security.md', ...SERVE]);
    expect(human.stdout).toContain(
      `resource (embedded, snapshot) file:///notes/security.md  text/markdown  ${size} bytes`,
    );
  });

  it('exits 1 on a JSON-RPC error or an unreachable server, 2 on bad usage', async () => {
    const missing = await inspect([http.url, 'prompt', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^mcpkit inspect: unknown prompt "nope": the server lists no such prompt \(prompts\/list: "review-file", "survey"\); the server answered error -32602/,
    );
    const gone = await inspect(['http://127.0.0.1:9/mcp', '--timeout', '5']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/cannot connect to http:\/\/127\.0\.0\.1:9\/mcp/);
    for (const bad of [
      ['frobnicate'],
      ['call', 'search', '{not json'],
      ['call', 'search', '[1]'],
      ['read'],
    ]) {
      const run = await inspect([http.url, ...bad]);
      expect(run.code, `${bad.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(/^mcpkit: /);
    }
  });
});

describe('mcpkit inspect against a hostile server', () => {
  let web: Server;
  let base: string;
  const asked: string[] = [];
  beforeAll(async () => {
    web = createServer((req, res) => {
      asked.push(req.url ?? '');
      if (req.url === '/to-private') {
        res.writeHead(302, { location: 'http://10.1.2.3/secret' }).end();
      } else
        res
          .writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
          .end('fetched by the host');
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => web.close(() => r())));

  const log = join(mkdtempSync(join(tmpdir(), 'mcpkit-inspect-')), 'reads.log');
  const reads = (): string[] => {
    const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
    rmSync(log, { force: true });
    return text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as string);
  };
  const run = (args: string[]) =>
    inspect([...args, '--', process.execPath, HOSTILE], { LINK_BASE: base, READ_LOG: log });
  const byName = (data: { blocks: Array<{ name?: string; outcome?: unknown }> }) =>
    Object.fromEntries(data.blocks.filter((b) => b.name).map((b) => [b.name, b.outcome]));

  it('fetches only what the guard allows, and gives every link an outcome', async () => {
    asked.length = 0;
    const r = await run([
      'call',
      'links',
      '--json',
      '--resolve',
      'all',
      '--budget',
      '4096',
      '--fetch-urls',
      '--allow-address',
      '127.0.0.1',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const o = byName(JSON.parse(r.stdout));
    expect(o['ok over http']).toEqual({
      status: 'read',
      bytes: 19,
      sha256: sha('fetched by the host'),
    });
    expect(o['metadata']).toMatchObject({
      status: 'refused',
      reason: expect.stringMatching(/^guard: .*169\.254\.169\.254/),
    });
    expect(o['redirect into private space']).toMatchObject({
      status: 'refused',
      reason: expect.stringMatching(/^guard: .*10\.1\.2\.3/),
    });
    expect(o['loopback alias, odd spelling']).toMatchObject({
      status: 'refused',
      reason: expect.stringMatching(/^guard: .*127\.0\.0\.2/),
    });
    expect(o['claims 2 GiB']).toEqual({
      status: 'skipped',
      reason: expect.stringMatching(/^budget: the link declares 2147483648 bytes/),
    });
    expect(o['control characters']).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/^INVALID_URI: /),
    });
    expect(o['fine']).toEqual({ status: 'read', bytes: 4, sha256: sha('fine') });
    expect(JSON.parse(r.stdout).blocks[6]).toEqual({
      type: 'resource',
      uri: 'file:///bad.png',
      mimeType: 'image/png',
      outcome: { status: 'failed', reason: expect.stringMatching(/^INVALID_BASE64: /) },
    });
    expect(asked.sort()).toEqual(['/ok', '/to-private']);
    // The huge link was never read from the server either.
    expect(reads()).toEqual(['file:///ok']);
    const liar = await run(['call', 'liar', '--json', '--resolve', 'all', '--budget', '4096']);
    const lied = byName(JSON.parse(liar.stdout));
    // The size lied: the read is checked against the budget after it, with a digest of what came.
    expect(lied['claims 10 bytes']).toEqual({
      status: 'skipped',
      bytes: 5000,
      sha256: sha('L'.repeat(5000)),
      reason: expect.stringMatching(/^budget: the read brought 5000 bytes/),
    });
  });

  it('without --fetch-urls reads http(s) links through the server, never fetching them', async () => {
    asked.length = 0;
    const r = await run(['call', 'links', '--json', '--resolve', 'all']);
    const o = byName(JSON.parse(r.stdout));
    expect(o['metadata']).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/^JSONRPC_-32602: /),
    });
    expect(reads()).toContain('http://169.254.169.254/latest/meta-data/');
    expect(asked).toEqual([]);
  });

  it('--resolve ask with no terminal refuses every link; --resolve none reads nothing', async () => {
    reads();
    const ask = byName(
      JSON.parse((await run(['call', 'links', '--json', '--resolve', 'ask'])).stdout),
    );
    expect(ask['fine']).toEqual({
      status: 'refused',
      reason: expect.stringMatching(/^consent: no terminal/),
    });
    const none = await run(['call', 'links', '--json']);
    expect(
      Object.values(byName(JSON.parse(none.stdout))).filter(
        (x) => (x as { status: string }).status !== 'skipped',
      ),
    ).toEqual([{ status: 'failed', reason: expect.stringMatching(/^INVALID_URI/) }]);
    expect(reads()).toEqual([]);
  });

  it('never writes a control character the server sent to the terminal', async () => {
    const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    const call = await run(['call', 'links', '--resolve', 'all', '--budget', '4096']);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain('hello \\x1b[31mred\\x1b[0m \\x1b]0;title\\x07 done');
    expect(call.stdout).toContain('file:///ctl\\x1b]0;pwned\\x07');
    expect(call.stdout).toContain('INVALID: INVALID_BASE64');
    // The overview: instructions and a tool with escapes, C1 controls, bidi overrides, \r.
    const overview = await run([]);
    expect(overview.code, overview.stderr).toBe(0);
    // Instructions keep their line breaks (real newlines, indented), nothing else.
    expect(overview.stdout).toContain(
      'instructions:\n    be \\x1b[1mbold\\x1b[0m\\r\\x9b2J \\u202eevil\n    then a second line\n',
    );
    expect(overview.stdout).toContain('evil\\x1b[2J  \\x9b31m\\u202eoops\\r');
    for (const out of [call.stdout, call.stderr, overview.stdout, overview.stderr]) {
      expect(out).not.toMatch(raw);
    }
  });

  it('shows a list that breaks its schema as received, and exits 0 on a tool result with isError', async () => {
    const overview = await run(['--json']);
    expect(overview.code, overview.stderr).toBe(0);
    expect(JSON.parse(overview.stdout).tools.map((t: { name: string }) => t.name)).toEqual([
      'links',
      'fails',
      'liar',
      'evil\u001b[2J',
      'no-schema',
    ]);
    expect(overview.stderr).toMatch(
      /warning: tools\/list answered an invalid result: result\.tools\[4\]\.inputSchema is required/,
    );
    const fails = await run(['call', 'fails', '--json']);
    expect(fails.code, fails.stderr).toBe(0);
    expect(JSON.parse(fails.stdout).result.isError).toBe(true);
  });
});
