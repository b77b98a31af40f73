#!/usr/bin/env node
// Runs the official MCP conformance suite against mcpkit, once per revision with --requirements:
// the server suite against the fixture server, then the client suite against mcpkit's client
// (test/conformance/client-launch.mjs → client-entry.ts). Prints one line per scenario and
// `Total: N passed, N failed, N expected failures` (scored scenarios of both suites, plus the
// not-scored client scenarios in REQUIRED_NOT_SCORED, which must pass too). The other
// not-scored scenarios are run and shown as `NOT SCORED` with why (or `PASS … (not scored)`):
// they never fail the run. Every auth/*
// client scenario must pass, except the extension scenarios in UNSUPPORTED (README, "Signing
// in"): those are expected failures, and one that passes fails the run, as does any other failure.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
// --bridge: the server suite only, against `mcpkit bridge --profile passthrough` (dist/, built)
// fronting the fixture server; `--bridge-era ERA` (or CONFORMANCE_BRIDGE_ERA) sets the bridge's
// upstream --era (default auto).
const viaBridge = process.argv.includes('--bridge');
const eraAt = process.argv.indexOf('--bridge-era');
const bridgeEra =
  (eraAt > 0 ? process.argv[eraAt + 1] : undefined) ?? process.env.CONFORMANCE_BRIDGE_ERA ?? 'auto';

const confDir = join(root, '.conformance');
/** Extension auth scenarios mcpkit's client does not implement, with the reason. */
const UNSUPPORTED = new Map([
  ['auth/dpop', 'DPoP sender-constrained tokens (RFC 9449, SEP-1932) not implemented'],
  ['auth/dpop-nonce', 'DPoP sender-constrained tokens (RFC 9449, SEP-1932) not implemented'],
  [
    'auth/enterprise-managed-authorization',
    'token exchange + JWT bearer grant (SEP-990) not implemented',
  ],
  ['auth/wif-jwt-bearer', 'JWT bearer grant for workload identity (SEP-1933) not implemented'],
]);
/** Not scored at either revision, but the client must pass it. */
const REQUIRED_NOT_SCORED = new Set([
  'json-schema-2020-12-preservation',
  'auth/client-credentials-basic',
  'auth/client-credentials-jwt',
]);
const CLIENT_COMMAND = 'node test/conformance/client-launch.mjs';

// Node 20 lacks fs.globSync, which the suite imports at load time: give it a shim (see
// ../shared/spec/conformance.md §1), and keep any listen() it makes on 127.0.0.1.
function writePreload() {
  const dir = confDir;
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
  // The client suite gets the fs shim only: its mock servers read server.address() right after
  // listen(0), which a host argument would make asynchronous (they listen on all interfaces).
  writeFileSync(
    join(dir, 'client-register.mjs'),
    `import fs from 'node:fs';
import { register } from 'node:module';
if (typeof fs.globSync !== 'function') register('./hooks.mjs', import.meta.url);
`,
  );
  return { server: join(dir, 'register.mjs'), client: join(dir, 'client-register.mjs') };
}

/** The fixture server on a port of its own choosing (port 0); resolves with the child and its URL. */
function startFixture() {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'test/conformance/fixture-server.ts')],
    {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  let out = '';
  child.stderr.on('data', (d) => (log += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fixture did not start:\n${log}`)), 30_000);
    child.stdout.on('data', (d) => {
      out += d;
      const found = /^listening (\S+)$/m.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve({ child, url: found[1] });
      }
    });
    child.once('exit', (code) => reject(new Error(`fixture exited (${code}):\n${log}`)));
  });
}

/** `mcpkit bridge` over HTTP in front of `upstreamUrl`; resolves with the child and its URL. */
function startBridge(upstreamUrl) {
  const era = bridgeEra;
  const child = spawn(
    process.execPath,
    [
      join(root, 'dist/cli/main.js'),
      'bridge',
      '--profile',
      'passthrough',
      '--forward-input',
      '--era',
      era,
      '--url',
      upstreamUrl,
      '--http',
      '127.0.0.1:0',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  let out = '';
  child.stderr.on('data', (d) => (log += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bridge did not start:\n${log}`)), 30_000);
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        clearTimeout(timer);
        resolve({ child, url: line.trim() });
      }
    });
    child.once('exit', (code) => reject(new Error(`bridge exited (${code}):\n${log}`)));
  });
}

function runSuite(args, preload) {
  const bin = join(suiteDir, 'dist', 'index.js');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: `--import ${preload}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** `✓|✗ name: P passed, F failed` lines of the suite summary. */
function summaryLines(out) {
  const summary = out.split(/=== (?:SUITE )?SUMMARY ===/)[1] ?? '';
  const lines = [];
  for (const line of summary.split('\n')) {
    const m = line.match(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed/);
    if (m) lines.push({ ok: m[1] === '✓', name: m[2], passed: Number(m[3]), failed: Number(m[4]) });
  }
  return lines;
}

function requirements(revision) {
  return YAML.parse(readFileSync(join(suiteDir, 'requirements', `${revision}.yaml`), 'utf8'));
}

/** Why mcpkit does not pass a not-scored scenario, by name prefix (shown on its line). */
const NOT_IMPLEMENTED = [
  ['tasks-', 'the tasks extension (SEP-2663) is not implemented (README, "Not supported: tasks")'],
];

/**
 * The line of a scenario the revision does not score: `PASS … (not scored)` when it passes,
 * else `NOT SCORED …` with the suite's reason (extension, pending…) and, where known, why
 * mcpkit does not pass it; never `FAIL`, as it is no failure of the run.
 */
function notScoredLine(ok, where, name, checks, reqs) {
  if (ok) return `PASS ${where} ${name} ${checks} (not scored)`;
  const reason = (reqs.not_scored ?? []).find((e) => e.scenario === name)?.reason ?? 'not listed';
  const ours = NOT_IMPLEMENTED.find(([prefix]) => name.startsWith(prefix))?.[1];
  return `NOT SCORED ${where} ${name} ${checks}: ${reason}${ours ? `; ${ours}` : ''}`;
}

/** The baseline: the UNSUPPORTED scenarios the revision runs (scored or not). */
function writeExpectedFailures(revision, reqs) {
  const names = [
    ...(reqs.client ?? []),
    ...(reqs.not_scored ?? []).filter((e) => e.leg === 'client').map((e) => e.scenario),
  ].filter((n) => UNSUPPORTED.has(n));
  const file = join(confDir, `client-expected-failures-${revision}.yml`);
  writeFileSync(
    file,
    `# Generated by scripts/conformance.mjs: extensions mcpkit does not implement.\nclient:\n${names.map((n) => `  - ${n} # ${UNSUPPORTED.get(n)}\n`).join('')}`,
  );
  return { file, names: new Set(names) };
}

/** The failing checks of one client scenario, from the suite's -o results. */
function failingChecks(resultsDir, name) {
  const base = join(resultsDir, dirname(name));
  if (!existsSync(base)) return [];
  const leaf = name.split('/').pop();
  const out = [];
  for (const d of readdirSync(base)) {
    if (!d.startsWith(`${leaf}-`) || !existsSync(join(base, d, 'checks.json'))) continue;
    for (const c of JSON.parse(readFileSync(join(base, d, 'checks.json'), 'utf8'))) {
      if (c.status === 'FAILURE' || c.status === 'WARNING') {
        out.push(`    ${c.status} ${c.id}: ${c.errorMessage ?? c.description ?? ''}`);
      }
    }
  }
  return out;
}

const preload = writePreload();
let passed = 0;
let failed = 0;
let expected = 0;
let notScored = 0;

const { child: fixture, url: fixtureUrl } = await startFixture();
// Through the bridge, a fresh one per revision: calls one revision's scenarios leave waiting for
// input (they never retry) must not make the next revision's input requests ambiguous.
let bridge;
try {
  for (const revision of revisions) {
    bridge?.child.kill('SIGTERM');
    bridge = viaBridge ? await startBridge(fixtureUrl) : undefined;
    const url = bridge?.url ?? fixtureUrl;
    if (bridge)
      console.log(
        `server ${revision} through mcpkit bridge (upstream era ${bridgeEra}) at ${url} (fixture at ${fixtureUrl})`,
      );
    const reqs = requirements(revision);
    const scored = new Set(reqs.server ?? []);
    const { code, out } = await runSuite(
      ['server', '--url', url, '--requirements', revision],
      preload.server,
    );
    if (verbose) console.log(out);
    const seen = new Set();
    for (const { ok, name, passed: p, failed: f } of summaryLines(out)) {
      seen.add(name);
      const checks = `(${p}/${p + f} checks)`;
      if (!scored.has(name)) {
        console.log(notScoredLine(ok, `server ${revision}`, name, checks, reqs));
        notScored++;
        continue;
      }
      console.log(`${ok ? 'PASS' : 'FAIL'} server ${revision} ${name} ${checks}`);
      if (ok) passed++;
      else failed++;
    }
    for (const name of scored) {
      if (!seen.has(name)) {
        console.log(`FAIL server ${revision} ${name} (did not run)`);
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
    console.log(`server ${revision}: suite exit ${code}`);
  }
} finally {
  bridge?.child.kill('SIGTERM');
  fixture.kill('SIGTERM');
}

if (viaBridge) {
  console.log(
    `Total: ${passed} passed, ${failed} failed (${notScored} not scored, run for information)`,
  );
  process.exit(failed === 0 ? 0 : 1);
}

for (const revision of revisions) {
  const reqs = requirements(revision);
  const baseline = writeExpectedFailures(revision, reqs);
  const judged = new Set([...(reqs.client ?? []), ...REQUIRED_NOT_SCORED]);
  const resultsDir = join(confDir, 'client-results', revision);
  rmSync(resultsDir, { recursive: true, force: true });
  const { code, out } = await runSuite(
    [
      'client',
      '--command',
      CLIENT_COMMAND,
      '--requirements',
      revision,
      '--expected-failures',
      baseline.file,
      '-o',
      resultsDir,
    ],
    preload.client,
  );
  if (verbose) console.log(out);
  const seen = new Set();
  let revisionFailed = false;
  for (const { ok, name, passed: p, failed: f } of summaryLines(out)) {
    seen.add(name);
    const checks = `(${p}/${p + f} checks)`;
    const tag = judged.has(name) ? '' : ' (not scored)';
    if (baseline.names.has(name)) {
      if (ok) {
        console.log(
          `FAIL client ${revision} ${name} ${checks} passed but is listed as an expected failure (${UNSUPPORTED.get(name)})${tag}`,
        );
        failed++;
        revisionFailed = true;
      } else {
        console.log(`XFAIL client ${revision} ${name} (${UNSUPPORTED.get(name)})${tag}`);
        expected++;
      }
      continue;
    }
    if (!judged.has(name)) {
      console.log(notScoredLine(ok, `client ${revision}`, name, checks, reqs));
      notScored++;
      continue;
    }
    console.log(`${ok ? 'PASS' : 'FAIL'} client ${revision} ${name} ${checks}`);
    if (ok) passed++;
    else {
      failed++;
      revisionFailed = true;
      console.log(failingChecks(resultsDir, name).slice(0, 20).join('\n'));
    }
  }
  for (const name of judged) {
    if (!seen.has(name)) {
      console.log(`FAIL client ${revision} ${name} (did not run)`);
      failed++;
      revisionFailed = true;
    }
  }
  // The suite judges the baseline too (unexpected failures, stale entries).
  if (code !== 0 && !revisionFailed) {
    console.log(
      out
        .split('\n')
        .filter((l) => /baseline|stale|unexpected/i.test(l))
        .slice(0, 20)
        .join('\n'),
    );
    failed++;
  }
  console.log(`client ${revision}: suite exit ${code}`);
}
console.log(
  `Total: ${passed} passed, ${failed} failed, ${expected} expected failures (${notScored} not scored, run for information)`,
);
process.exit(failed === 0 ? 0 : 1);
