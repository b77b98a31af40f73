// mcpkit benchmark: bare node vs official SDK v2 vs mcpkit, same 1 KiB resources/read (2026-07-28),
// the memory of large resources (mcpkit serve vs the SDK: a 4 MiB file, a 1 GiB one in parts),
// and the client side (the mcpkit client vs the SDK v2 client against mcpkit serve, CPU per request).
// Usage: node bench/run.mjs [--only http|stdio|large|client] [--duration s] [--warmup s] [--connections c]
//          [--n count] [--window inflight] [--repeat rounds] [--targets bare,sdk,mcpkit]
// Each option can also come from the environment: BENCH_DURATION, BENCH_N, BENCH_ONLY, ...
// Targets are measured in interleaved rounds (bare, sdk, mcpkit, bare, ...) and each keeps its
// fastest round, so a burst of unrelated load on this small machine does not decide a ratio.
// Case D (client) uses --duration per client and transport (split over rounds and both modes),
// --warmup per client and transport, --connections as its window in flight, --targets sdk,mcpkit.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { stopAll } from './lib/children.mjs';
import { startHttpTarget } from './lib/http-case.mjs';
import { LARGE, runLargeCase } from './lib/large-case.mjs';
import { CLIENT, runClientCase } from './lib/client-case.mjs';
import { startStdioTarget } from './lib/stdio-case.mjs';
import {
  clientPairs,
  clientTable,
  clientVerdict,
  largeTable,
  largeVerdicts,
  ratios,
  table,
  verdict,
} from './lib/report.mjs';

const DEFAULTS = {
  duration: 6, // HTTP seconds per target, split over the rounds
  warmup: 2, // HTTP warm-up seconds per target
  connections: 50,
  n: 50000, // stdio requests per round (20k lasts < 0.2 s against bare)
  window: 256, // stdio requests in flight
  repeat: 3, // rounds
  only: '',
  targets: 'bare,sdk,mcpkit',
};

function options(argv) {
  const opts = {};
  for (const key of Object.keys(DEFAULTS))
    opts[key] = process.env[`BENCH_${key.toUpperCase()}`] ?? DEFAULTS[key];
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m || !(m[1] in DEFAULTS)) {
      throw new Error(`unknown argument ${argv[i]}; options: ${Object.keys(DEFAULTS).join(', ')}`);
    }
    opts[m[1]] = m[2] ?? argv[++i];
  }
  for (const key of ['duration', 'warmup', 'connections', 'n', 'window', 'repeat']) {
    opts[key] = Number(opts[key]);
    if (!(opts[key] > 0)) throw new Error(`--${key} must be a positive number`);
  }
  if (!['', 'http', 'stdio', 'large', 'client'].includes(opts.only))
    throw new Error('--only must be http, stdio, large or client');
  opts.targets = String(opts.targets).split(',').filter(Boolean);
  opts.warmupN = Math.min(opts.n, 5000);
  return opts;
}

const DIST = new URL('../dist/', import.meta.url);
const missing = (...files) =>
  files.filter((f) => !existsSync(new URL(f, DIST))).map((f) => `dist/${f}`);

const CASES = {
  http: {
    title: (o) =>
      `A. Streamable HTTP: ${o.connections} connections, ${o.duration} s per target ` +
      `(best of ${o.repeat} rounds of ${(o.duration / o.repeat).toFixed(1)} s) after ${o.warmup} s warm-up`,
    goal: 0.5,
    start: startHttpTarget,
    files: { bare: 'http-bare.mjs', sdk: 'http-sdk.mjs', mcpkit: 'http-mcpkit.mjs' },
    needs: ['server/index.js', 'transports/node.js'],
  },
  stdio: {
    title: (o) =>
      `B. stdio, pipelined: ${o.n} requests, up to ${o.window} in flight ` +
      `(best of ${o.repeat} rounds) after ${o.warmupN} warm-up requests`,
    goal: 0.6,
    start: startStdioTarget,
    files: { bare: 'stdio-bare.mjs', sdk: 'stdio-sdk.mjs', mcpkit: 'stdio-mcpkit.mjs' },
    needs: ['server/index.js', 'transports/stdio/index.js'],
  },
};

const indent = (text) => '  ' + text.replace(/\n/g, '\n  ');

async function runCase(name, opts) {
  const spec = CASES[name];
  const targets = {};
  const live = new Map();
  try {
    for (const target of opts.targets) {
      const gone = target === 'mcpkit' ? missing(...spec.needs) : [];
      if (gone.length) {
        targets[target] = { skipped: `${gone.join(', ')} missing (run npm run build)` };
        console.log(`[${name}] ${target}: skipped, ${targets[target].skipped}`);
        continue;
      }
      console.log(`[${name}] ${target}: starting, verifying, warming up`);
      try {
        live.set(target, await spec.start(spec.files[target], opts));
      } catch (err) {
        targets[target] = { error: err.message };
        console.log(`[${name}] ${target}: FAILED\n${indent(err.message)}`);
      }
    }
    for (let round = 1; round <= opts.repeat; round++) {
      const line = [];
      for (const [target, handle] of live) {
        try {
          const r = await handle.measure();
          const rounds = [...(targets[target]?.rounds ?? []), Math.round(r.reqPerSec)];
          if (!(targets[target]?.reqPerSec >= r.reqPerSec)) targets[target] = r;
          targets[target].rounds = rounds;
          line.push(`${target} ${Math.round(r.reqPerSec)}`);
        } catch (err) {
          targets[target] = { error: err.message };
          console.log(`[${name}] ${target}: FAILED in round ${round}\n${indent(err.message)}`);
          live.delete(target);
          await handle.stop();
        }
      }
      console.log(`[${name}] round ${round}/${opts.repeat}: ${line.join(', ')} req/s`);
    }
  } finally {
    await Promise.all([...live.values()].map((h) => h.stop()));
  }
  const ordered = Object.fromEntries(opts.targets.map((t) => [t, targets[t]]));
  const r = ratios(ordered);
  return {
    title: spec.title(opts),
    targets: ordered,
    ratios: r,
    verdict: verdict(ordered, r, spec.goal),
  };
}

async function main() {
  const opts = options(process.argv.slice(2));
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadavgStart: os.loadavg()[0],
    options: opts,
    cases: {},
  };
  if (results.loadavgStart > 0.5) {
    console.log(
      `note: 1-min load average is ${results.loadavgStart.toFixed(2)} on ${results.cpus} CPUs; ` +
        'other processes will add noise',
    );
  }
  for (const name of Object.keys(CASES)) {
    if (opts.only && opts.only !== name) continue;
    results.cases[name] = await runCase(name, opts);
  }
  if (!opts.only || opts.only === 'large') {
    const gone = missing('cli/main.js', 'providers/filesystem/index.js');
    const large = await runLargeCase(opts, gone);
    large.verdicts = largeVerdicts(large, LARGE);
    results.cases.large = large;
  }
  if (!opts.only || opts.only === 'client') {
    const gone = missing(
      'cli/main.js',
      'server/transport.js',
      'client/index.js',
      'transports/http/index.js',
      'transports/stdio/index.js',
    );
    const client = await runClientCase(opts, gone);
    client.pairs = clientPairs(client, CLIENT, opts);
    client.verdict = clientVerdict(client, client.pairs, CLIENT.cpuGoal);
    results.cases.client = client;
  }
  results.loadavgEnd = os.loadavg()[0];
  console.log('');
  for (const c of Object.values(results.cases)) {
    const block =
      c.kind === 'large'
        ? largeTable(c, LARGE)
        : c.kind === 'client'
          ? clientTable(c, CLIENT, opts)
          : table(c.title, c.targets, c.ratios, c.verdict);
    console.log(block + '\n');
  }
  const dir = new URL('results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  writeFileSync(new URL('latest.json', dir), JSON.stringify(results, null, 2) + '\n');
  console.log('results written to bench/results/latest.json');
  const cases = Object.values(results.cases);
  return cases.some((c) => Object.values(c.targets).some((t) => t.error)) ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(err);
} finally {
  await stopAll();
}
process.exit(code);
