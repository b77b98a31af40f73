/**
 * The package as users get it: packed (`npm pack`), checked by publint and by
 * @arethetypeswrong/cli, then installed into an empty project where `import ... from 'mcpkit'`
 * works and the README's first server runs over stdio.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modern } from '../../src/testing/messages.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const bin = (pkg: string, file: string) => join(ROOT, 'node_modules', pkg, file);
const run = (cmd: string, args: string[], cwd: string) =>
  spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 120_000 });

let work: string;
let tarball: string;
let files: string[];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'mcpkit-pack-'));
  // dist/ is built already (test/setup/build-dist.ts): no second build through `prepare`.
  const packed = run(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
    ROOT,
  );
  expect(packed.status, packed.stderr).toBe(0);
  const [info] = JSON.parse(packed.stdout) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  tarball = join(work, info!.filename);
  files = info!.files.map((f) => f.path);
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds the build, the license, the changelog and the bundled example, and no tests', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/index.d.ts',
        'LICENSE',
        'CHANGELOG.md',
        'README.md',
        'examples/docs/README.md',
      ]),
    );
    expect(files.filter((f) => /\.test\.|(^|\/)testing\//.test(f))).toEqual([]);
    // The 1.2 MB generated CSV of the example stays in the repository, out of the package.
    expect(files).not.toContain('examples/docs/data/requests.csv');
  });

  it('ships source maps that carry their sources (src/ is not shipped)', () => {
    const maps = files.filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(50);
    const missing = maps.filter((f) => {
      const map = JSON.parse(readFileSync(join(ROOT, f), 'utf8')) as { sourcesContent?: unknown[] };
      return (
        !Array.isArray(map.sourcesContent) || map.sourcesContent.some((s) => typeof s !== 'string')
      );
    });
    expect(missing).toEqual([]);
  });

  it('publint reports nothing, suggestions included', () => {
    const r = run(
      process.execPath,
      [bin('publint', 'src/cli.js'), 'run', tarball, '--strict'],
      work,
    );
    expect(r.stdout + r.stderr).not.toMatch(/Suggestions|Warnings|Errors/);
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it('@arethetypeswrong/cli finds every entry typed (an ESM-only package)', () => {
    const r = run(
      process.execPath,
      [
        bin('@arethetypeswrong/cli', 'dist/index.js'),
        tarball,
        '--profile',
        'esm-only',
        '--format',
        'table-flipped',
      ],
      work,
    );
    // It exits 1 on any problem the profile does not ignore; every entry is listed.
    expect(r.status, r.stdout + r.stderr).toBe(0);
    for (const entry of ['"mcpkit"', '"mcpkit/server"', '"mcpkit/node"'])
      expect(r.stdout).toContain(entry);
  });

  it('installs into an empty project: the front door imports, the README server runs', async () => {
    const app = join(work, 'app');
    run('mkdir', ['-p', app], work);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'app', private: true, type: 'module' }),
    );
    // Its dependencies come from npm's cache when they are there (CI ran npm ci just before).
    const install = run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball],
      app,
    );
    expect(install.status, install.stderr).toBe(0);
    writeFileSync(
      join(app, 'front.mjs'),
      "import { createServer, serveStdio, serveHttp, text, resourceLink } from 'mcpkit';\n" +
        'console.log([createServer, serveStdio, serveHttp, text, resourceLink].map((f) => typeof f).join());\n',
    );
    const front = run(process.execPath, ['front.mjs'], app);
    expect(front.stdout.trim(), front.stderr).toBe('function,function,function,function,function');
    // ioredis is an optional peer: not installed, and --redis says what to install.
    expect(existsSync(join(app, 'node_modules', 'ioredis'))).toBe(false);
    const cli = join(app, 'node_modules', 'mcpkit', 'dist', 'cli', 'main.js');
    const redis = run(
      process.execPath,
      [cli, 'serve', join(app, 'node_modules', 'mcpkit', 'examples', 'docs'), '--stdio'].concat([
        '--redis',
        'redis://127.0.0.1:9',
      ]),
      app,
    );
    expect(redis.status, redis.stderr).toBe(1);
    expect(redis.stderr).toContain('npm install ioredis@6');
    // The README's first TypeScript block, as printed.
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toContain('serveStdio(server)');
    writeFileSync(join(app, 'server.ts'), block as string);
    const tsx = import.meta.resolve('tsx');
    const child = spawn(process.execPath, ['--import', tsx, 'server.ts'], {
      cwd: app,
      stdio: 'pipe',
    });
    try {
      const answers: Array<Record<string, unknown>> = [];
      let buffer = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        buffer += d;
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          answers.push(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
          buffer = buffer.slice(nl + 1);
        }
      });
      const call = modern('tools/call', { name: 'shout', arguments: { text: 'it works' } });
      const read = modern('resources/read', { uri: 'note://hello' });
      child.stdin.write(`${JSON.stringify(call)}\n${JSON.stringify(read)}\n`);
      const deadline = Date.now() + 30_000;
      while (answers.length < 2 && Date.now() < deadline && child.exitCode === null)
        await new Promise((r) => setTimeout(r, 20));
      expect(answers.find((a) => a['id'] === call.id)).toMatchObject({
        result: { content: [{ type: 'text', text: 'IT WORKS' }] },
      });
      expect(answers.find((a) => a['id'] === read.id)).toMatchObject({
        result: { contents: [{ uri: 'note://hello', text: '# Hello\n' }] },
      });
    } finally {
      child.kill('SIGKILL');
    }
  }, 180_000);
});
