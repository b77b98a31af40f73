#!/usr/bin/env node
// Runs the official MCP conformance suite (server side) against the fixture server, once per
// revision with --requirements, and prints one line per scenario and `Total: N passed, N failed`
// (scored scenarios). Exits non-zero on any scored failure. Loopback only.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const suiteDir = dirname(require.resolve('@modelcontextprotocol/conformance/package.json'));
const YAML = require(require.resolve('yaml', { paths: [suiteDir] }));
const revisions = (process.env.CONFORMANCE_REVISIONS ?? '2026-07-28 2025-11-25')
  .split(/\s+/)
  .filter(Boolean);
const verbose = process.argv.includes('--verbose');

// Node 20 lacks fs.globSync, which the suite imports at load time: give it a shim (see
// ../shared/spec/conformance.md §1), and keep any listen() it makes on 127.0.0.1.
function writePreload() {
  const dir = join(root, '.conformance');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'fs-shim.mjs'),
    `import fs from 'node:fs';
import path from 'node:path';
export * from 'node:fs';
export default fs;
export function globSync(pattern, opts = {}) {
  if (typeof fs.globSync === 'function') return fs.globSync(pattern, opts);
  const base = String(pattern).split('/').pop();
  const out = [];
  const walk = (dir, rel) => {
    let entries = [];
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
    for (const e of entries) {
      const r = rel ? rel + '/' + e.name : e.name;
      if (e.isDirectory()) walk(path.join(dir, e.name), r);
      else if (e.name === base) out.push(r);
    }
  };
  walk(opts.cwd || process.cwd(), '');
  return out;
}
`,
  );
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `const SHIM = new URL('./fs-shim.mjs', import.meta.url).href;
export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL &&
      context.parentURL.includes('/@modelcontextprotocol/conformance/dist/')) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}
`,
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    `import fs from 'node:fs';
import net from 'node:net';
import { register } from 'node:module';
if (typeof fs.globSync !== 'function') register('./hooks.mjs', import.meta.url);
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' && typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
  else if (args[0] && typeof args[0] === 'object' && args[0].host === undefined && args[0].path === undefined) args[0] = { ...args[0], host: '127.0.0.1' };
  return listen.apply(this, args);
};
`,
  );
  return join(dir, 'register.mjs');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function startFixture(port) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'test/conformance/fixture-server.ts')],
    {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stderr.on('data', (d) => (log += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fixture did not start:\n${log}`)), 30_000);
    child.stdout.on('data', (d) => {
      if (String(d).includes('listening')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`fixture exited (${code}):\n${log}`)));
  });
}

function runSuite(url, revision, preload) {
  const bin = join(suiteDir, 'dist', 'index.js');
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [bin, 'server', '--url', url, '--requirements', revision],
      {
        cwd: root,
        env: { ...process.env, NODE_OPTIONS: `--import ${preload}` },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const preload = writePreload();
const port = await freePort();
const fixture = await startFixture(port);
const url = `http://127.0.0.1:${port}/mcp`;
let passed = 0;
let failed = 0;
try {
  for (const revision of revisions) {
    const reqs = YAML.parse(
      readFileSync(join(suiteDir, 'requirements', `${revision}.yaml`), 'utf8'),
    );
    const scored = new Set(reqs.server ?? []);
    const { code, out } = await runSuite(url, revision, preload);
    if (verbose) console.log(out);
    const summary = out.split(/=== (?:SUITE )?SUMMARY ===/)[1] ?? '';
    const seen = new Set();
    for (const line of summary.split('\n')) {
      const m = line.match(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed/);
      if (!m) continue;
      seen.add(m[2]);
      const ok = m[1] === '✓';
      const isScored = scored.has(m[2]);
      console.log(
        `${ok ? 'PASS' : 'FAIL'} ${revision} ${m[2]} (${m[3]}/${Number(m[3]) + Number(m[4])} checks)${isScored ? '' : ' [not scored]'}`,
      );
      if (isScored && ok) passed++;
      else if (isScored) failed++;
    }
    for (const name of scored) {
      if (!seen.has(name)) {
        console.log(`FAIL ${revision} ${name} (did not run)`);
        failed++;
      }
    }
    if (code !== 0 && !verbose) {
      const failures = out
        .split('\n')
        .filter((l) => /FAILURE/.test(l))
        .slice(0, 20);
      if (failures.length) console.log(failures.join('\n'));
    }
    console.log(`${revision}: suite exit ${code}`);
  }
} finally {
  fixture.kill('SIGTERM');
}
console.log(`Total: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
