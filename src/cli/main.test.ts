/** The CLI as a process (through tsx, no build needed): exit codes, one-line errors, clean stdout. */
import { spawn } from 'node:child_process';
import { link, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modern } from '../testing/messages.js';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const BUILT = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], input?: string, script = MAIN): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
  });
}

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-cli-'));
  await writeFile(join(dir, 'a.md'), '# A\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('mcpkit (process)', () => {
  it.each([
    [['serve', '--bogus'], /^mcpkit: unknown option "--bogus" \(see 'mcpkit --help'\)\n$/],
    [['serve', '--http', 'nope:99999'], /^mcpkit: --http expects HOST:PORT or PORT/],
    [
      ['serve', '--http', 'notaport'],
      /^mcpkit: --http expects HOST:PORT or PORT \(e\.g\. 127\.0\.0\.1:3333, \[::1\]:3333, 3333\), got "notaport" \(and no folder/,
    ],
    [['serve', 'examples/docs', '--http', 'notaport'], /^mcpkit: --http expects HOST:PORT or PORT/],
    [['serve', '--block-budget', 'x'], /^mcpkit: --block-budget expects a size/],
    [
      ['serve', '--stdio', '--max-line-bytes', '1024'],
      /^mcpkit: --max-line-bytes must be at least 64k/,
    ],
    [
      ['serve', '--allow-host', 'docs.internal:8080'],
      /^mcpkit: --allow-host expects a host name without a port/,
    ],
    [
      ['serve', join(tmpdir(), 'mcpkit-cli-no-such-dir-5f2a')],
      /^mcpkit: cannot serve ".*no-such-dir-5f2a": no such directory/,
    ],
    [['serve', MAIN], /^mcpkit: cannot serve ".*main\.ts": not a directory/],
    [['example'], /^mcpkit: unknown command "example"/],
    [['serve', '--read-workers', '-1'], /^mcpkit: --read-workers expects a whole number from 0/],
  ])('%j exits 2 with one line on stderr and nothing on stdout', async (args, message) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('documents every option in --help', async () => {
    const { code, stdout } = await run(['serve', '--help']);
    expect(code).toBe(0);
    for (const option of [
      '--stdio',
      '--http',
      '--block-budget',
      '--result-budget',
      '--page-size',
      '--max-line-bytes',
      '--max-body-bytes',
      '--allow-host',
      '--no-legacy',
      '--quiet',
      '--cache-bytes',
      '--no-watch',
      '--no-hard-links',
      '--no-idle-gc',
      '--max-depth',
      '--read-workers',
      '512k',
    ]) {
      expect(stdout).toContain(option);
    }
  });

  it('serves a folder over stdio: protocol only on stdout, the banner on stderr, exit 0 at EOF', async () => {
    const list = modern('resources/list');
    const read = modern('resources/read', { uri: 'file:///a.md' });
    const { code, stdout, stderr } = await run(
      ['serve', dir, '--stdio'],
      `${JSON.stringify(list)}\n${JSON.stringify(read)}\n`,
    );
    expect(code).toBe(0);
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line['jsonrpc']).toBe('2.0');
    expect(lines.find((l) => l['id'] === list.id)).toMatchObject({
      result: {
        resources: [{ uri: 'file:///a.md', name: 'a.md', mimeType: 'text/markdown', size: 4 }],
      },
    });
    expect(lines.find((l) => l['id'] === read.id)).toMatchObject({
      result: { contents: [{ uri: 'file:///a.md', text: '# A\n' }] },
    });
    expect(stderr).toContain('Serving over stdio');
    expect(stderr).toContain('"mcpServers"');
    // Inspector 2.x, or 0.15.0 pinned on a Node older than 22.19 (banner.test.ts has both).
    expect(stderr).toMatch(/npx @modelcontextprotocol\/inspector(@0\.15\.0)? -- /);
  });

  it('prints the whole banner even when the client closes stdin at once, the folder still being walked', async () => {
    const big = await mkdtemp(join(tmpdir(), 'mcpkit-cli-banner-'));
    try {
      for (let d = 0; d < 40; d++) {
        await mkdir(join(big, `d${d}`));
        await Promise.all(
          Array.from({ length: 100 }, (_, f) => writeFile(join(big, `d${d}`, `f${f}.md`), 'x\n')),
        );
      }
      const { code, stderr } = await run(['serve', big, '--stdio'], '');
      expect(code).toBe(0);
      expect(stderr).toContain('Serving over stdio');
      const start = stderr.indexOf('{\n  "mcpServers"');
      expect(start).toBeGreaterThanOrEqual(0);
      const end = stderr.indexOf('\n}\n', start);
      expect(end).toBeGreaterThan(start);
      expect(JSON.parse(stderr.slice(start, end + 2))).toHaveProperty('mcpServers');
    } finally {
      await rm(big, { recursive: true, force: true });
    }
  });

  it('prints a configuration naming the CLI file itself when run through a link (as npx does)', async () => {
    const bin = await mkdtemp(join(tmpdir(), 'mcpkit-cli-link-'));
    try {
      const linked = join(bin, 'mcpkit.ts');
      await symlink(MAIN, linked);
      const { code, stderr } = await run(['serve', dir, '--stdio'], '', linked);
      expect(code).toBe(0);
      const start = stderr.indexOf('{\n  "mcpServers"');
      const config = JSON.parse(stderr.slice(start, stderr.indexOf('\n}\n', start) + 2)) as {
        mcpServers: Record<string, { args: string[] }>;
      };
      const [entry] = Object.values(config.mcpServers);
      expect(entry?.args).toContain(MAIN);
      expect(entry?.args).not.toContain(linked);
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });

  it('hands the stdio limits to the server: --max-depth and --search-max-file-bytes take effect', async () => {
    let deep: unknown = {};
    for (let i = 0; i < 9; i++) deep = { d: deep };
    const tooDeep = modern('tools/call', { name: 'search', arguments: { query: 'a', x: deep } });
    const search = modern('tools/call', { name: 'search', arguments: { query: 'text' } });
    const three = await mkdtemp(join(tmpdir(), 'mcpkit-cli-limits-'));
    for (const name of ['a.md', 'b.md', 'c.md']) await writeFile(join(three, name), 'text\n');
    const { code, stdout, stderr } = await run(
      ['serve', three, '--stdio', '--max-depth', '8', '--search-max-file-bytes', '4'],
      `${JSON.stringify(tooDeep)}\n${JSON.stringify(search)}\n`,
    ).finally(() => rm(three, { recursive: true, force: true }));
    expect(code).toBe(0);
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            id: unknown;
            error?: unknown;
            result?: { content: Array<{ text?: string }> };
          },
      );
    expect(lines.find((l) => l.id === tooDeep.id)).toMatchObject({
      error: { code: -32602, data: { limit: 8, reason: 'too-deep' } },
    });
    const text = lines.find((l) => l.id === search.id)?.result?.content[0]?.text ?? '';
    // Every file is larger than 4 bytes: found by name only, and no name says "text".
    expect(text).toMatch(/^No file name or text matches "text" \(3 files searched\)/);
    // The pasted stdio configuration keeps the limits.
    expect(stderr).toContain('"--max-depth"');
    expect(stderr).toContain('"--search-max-file-bytes"');
  });

  it('--no-hard-links refuses a file with several hard links, and keeps the flag in the pasted configuration', async () => {
    const linked = await mkdtemp(join(tmpdir(), 'mcpkit-cli-links-'));
    try {
      await writeFile(join(linked, 'one.md'), 'one link');
      await writeFile(join(linked, 'outside.md'), 'two links');
      await link(join(linked, 'outside.md'), join(linked, 'twin.md'));
      const reads = ['one.md', 'twin.md'].map((f) =>
        modern('resources/read', { uri: `file:///${f}` }),
      );
      const { code, stdout, stderr } = await run(
        ['serve', linked, '--stdio', '--no-hard-links'],
        reads.map((r) => `${JSON.stringify(r)}\n`).join(''),
      );
      expect(code).toBe(0);
      const lines = stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.find((l) => l['id'] === reads[0]?.id)).toMatchObject({
        result: { contents: [{ text: 'one link' }] },
      });
      expect(lines.find((l) => l['id'] === reads[1]?.id)).toMatchObject({
        error: { code: -32602, message: expect.stringMatching(/more than one hard link/) },
      });
      expect(stderr).toContain('"--no-hard-links"');
    } finally {
      await rm(linked, { recursive: true, force: true });
    }
  });

  it.each([['2'], ['0']])(
    '--read-workers %s serves reads, and stays in the pasted configuration',
    async (n) => {
      const read = modern('resources/read', { uri: 'file:///a.md' });
      const { code, stdout, stderr } = await run(
        ['serve', dir, '--stdio', '--read-workers', n],
        `${JSON.stringify(read)}\n`,
      );
      expect(code).toBe(0);
      expect(JSON.parse(stdout.trimEnd().split('\n')[0] ?? '')).toMatchObject({
        id: read.id,
        result: { contents: [{ text: '# A\n' }] },
      });
      expect(stderr.replace(/\s+/g, '')).toContain(`"--read-workers","${n}"`);
    },
  );

  it('serves over HTTP: the URL first on stdout, then the banner; exit 0 on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', MAIN, 'serve', dir, '--http', '127.0.0.1:0'],
      { stdio: 'pipe' },
    );
    try {
      let out = '';
      child.stdout.setEncoding('utf8');
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: string) => {
          out += d;
          if (out.includes('npx @modelcontextprotocol/inspector'))
            resolve(out.split('\n')[0] as string);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(out).toMatch(
        new RegExp(
          `npx @modelcontextprotocol/inspector\\S* .*(--server-url|URL) ${url.replace(/[.]/g, '\\.')}`,
        ),
      );
      const body = modern('tools/list');
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/list',
        },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      const json = (await res.json()) as { result: { tools: Array<{ name: string }> } };
      expect(json.result.tools.map((t) => t.name).sort()).toEqual(['read', 'search']);
      const exited = new Promise<number | null>((resolve) =>
        child.once('exit', (code) => resolve(code)),
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  // Loaded before the entry: reports on stderr when a SIGTERM listener is added (node itself
  // catches the signal natively from the start, so /proc cannot tell when a listener exists).
  const PROBE =
    'data:text/javascript,' +
    encodeURIComponent(
      "const once = process.once.bind(process); process.once = (e, f) => { const r = once(e, f); if (e === 'SIGTERM') process.stderr.write('probe: listening\\n'); return r; };",
    );

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'a %s in the first moments of start-up (the command still loading) exits 0',
    async (signal) => {
      // The built entry: a loader (tsx) would catch the signals itself before the entry runs.
      const child = spawn(
        process.execPath,
        ['--import', PROBE, BUILT, 'serve', dir, '--http', '127.0.0.1:0'],
        { stdio: 'pipe' },
      );
      let out = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (d: string) => (out += d));
      const exited = new Promise<[number | null, string | null]>((resolve) =>
        child.once('exit', (code, sig) => resolve([code, sig])),
      );
      try {
        // The first moment the entry listens: the rest of the command is still loading.
        await new Promise<void>((resolve, reject) => {
          let err = '';
          child.stderr.setEncoding('utf8');
          child.stderr.on('data', (d: string) => {
            err += d;
            if (err.includes('probe: listening')) resolve();
          });
          child.once('exit', () => reject(new Error(`exited before listening: ${err}`)));
        });
        child.kill(signal);
        expect(await exited).toEqual([0, null]);
        // Stopped before it listened: nothing printed (the URL is the first line once it does).
        expect(out).toBe('');
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    },
  );

  it('a second signal of the other kind ends it at once (the default), during a slow stop', async () => {
    // process.exit delayed by 3 s: a stop that takes its time.
    const slowExit =
      'data:text/javascript,' +
      encodeURIComponent(
        'const exit = process.exit.bind(process); process.exit = (c) => void setTimeout(() => exit(c), 3000);',
      );
    const child = spawn(
      process.execPath,
      ['--import', slowExit, BUILT, 'serve', dir, '--http', '127.0.0.1:0', '--quiet'],
      { stdio: 'pipe' },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const started = Date.now();
      const exited = new Promise<[number | null, string | null]>((resolve) =>
        child.once('exit', (code, sig) => resolve([code, sig])),
      );
      child.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 100));
      child.kill('SIGTERM');
      expect(await exited).toEqual([null, 'SIGTERM']);
      expect(Date.now() - started).toBeLessThan(2500);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
