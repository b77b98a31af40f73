// mcpkit benchmark. The default run times what users run, `mcpkit serve DIR` on a generated
// folder (bench/lib/serve-case.mjs): 1 KiB read, 256 KiB blob, review-file, search, and a cold,
// varied case, over Streamable HTTP and stdio, side by side with the official SDK v2 server and a
// bare server replaying mcpkit's own captured answers; then the memory of large resources (case C:
// 50 concurrent 4 MiB reads vs the SDK, a 1 GiB file walked in parts); then the issue-25 cells
// on real work: cold-real (20,000 texts and 500 binaries, each read once per round on fresh
// processes, against a bare worker reading the file per request, the SDK and the bare replay;
// bench/lib/cold-real-case.mjs), slow-file (a FUSE mount with 1 s opens and reads;
// bench/lib/slow-file-case.mjs) and search-load (discover latency under 4 searches and a part
// walk; bench/lib/search-load-case.mjs). It prints the tables and writes docs/benchmarks.md (a
// full run only) and bench/results/latest.json.
// The older cases run on request: A (http) and B (stdio), a toy 1 KiB in-memory resource against
// the SDK and a bare server; D (client), the client's CPU per request against the SDK client.
// Usage: node bench/run.mjs [--only serve|serve-http|serve-stdio|large|real|cold-real|slow-file|
//          search-load|repo-scale|bridge|http|stdio|client|all] [--repofiles n] [--duration s] [--warmup s] [--connections c]
//          [--n count] [--window inflight] [--repeat rounds] [--targets bare,sdk,mcpkit]
//          [--loader auto|wrk|autocannon] [--files texts]
// Each option can also come from the environment: BENCH_DURATION, BENCH_N, BENCH_ONLY, ...
// BENCH_NODE_FLAGS adds node flags to every server child (e.g. '--cpu-prof --cpu-prof-dir=DIR').
// Serve cases: --duration s per target and workload, split over --repeat rounds; half of --warmup
// per target and workload (all of it for each fresh process of a cold round); HTTP load from wrk when installed, else autocannon child processes.
// Issue-25 cells: --repeat rounds each (cold-real: every file once per round, 32 HTTP connections
// and --window in flight over stdio, whatever --duration says); --files scales the folder down
// for a smoke run (binaries: one per 40 texts); the bare and guarded workers always run in cold-real.
// Case A/B: targets are measured in interleaved rounds (bare, sdk, mcpkit, bare, ...) and each keeps
// its fastest round, so a burst of unrelated load on this small machine does not decide a ratio.
// Case D (client) uses --duration per client and transport (split over rounds and both modes),
// --warmup per client and transport, --connections as its window in flight, --targets sdk,mcpkit.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { stopAll } from './lib/children.mjs';
import { startHttpTarget } from './lib/http-case.mjs';
import { LARGE, runLargeCase } from './lib/large-case.mjs';
import { CLIENT, runClientCase } from './lib/client-case.mjs';
import { startStdioTarget } from './lib/stdio-case.mjs';
import { makeServeFolder } from './lib/serve-fixture.mjs';
import { workloads } from './lib/serve-requests.mjs';
import { runServeCase } from './lib/serve-case.mjs';
import { makeRealFolder } from './lib/real-fixture.mjs';
import { runColdReal } from './lib/cold-real-case.mjs';
import { runSearchLoad } from './lib/search-load-case.mjs';
import { runSlowFile } from './lib/slow-file-case.mjs';
import { bridgeTable, runBridgeLatency } from './lib/bridge-case.mjs';
import { coldRealCase, realCells, realNotes, realSummary } from './lib/real-report.mjs';
import { repoScaleMarkdown, runRepoScale } from './lib/repo-scale-case.mjs';
import { chooseLoader, describeLoader } from './lib/load-http.mjs';
import {
  benchmarksDoc,
  consoleTable,
  rssRow,
  serveRows,
  summary,
  tableCells,
} from './lib/serve-report.mjs';
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
  loader: 'auto', // serve cases' HTTP load: wrk when installed, else autocannon workers
  files: 20000, // texts of the issue-25 folder (binaries: one per 40 texts); smaller for a smoke run
  repofiles: 100000, // files of the issue-27 repository folder (repo-scale); smaller for a smoke run
};
const REAL = ['cold-real', 'slow-file', 'search-load'];
const DEFAULT = ['serve-http', 'serve-stdio', 'large', ...REAL, 'repo-scale', 'bridge'];
const ONLY = [
  '',
  'serve',
  'serve-http',
  'serve-stdio',
  'large',
  'real',
  ...REAL,
  'repo-scale',
  'bridge',
];
const OLDER = ['http', 'stdio', 'client', 'all'];
/** Whether case `name` runs: by default the serve cases, C and the issue-25 cells; `all` adds A, B, D. */
const runs = (opts, name) =>
  opts.only === name ||
  opts.only === 'all' ||
  (opts.only === '' && DEFAULT.includes(name)) ||
  (opts.only === 'real' && REAL.includes(name)) ||
  (opts.only === 'serve' && name.startsWith('serve-'));

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
  for (const key of [
    'duration',
    'warmup',
    'connections',
    'n',
    'window',
    'repeat',
    'files',
    'repofiles',
  ]) {
    opts[key] = Number(opts[key]);
    if (!(opts[key] > 0)) throw new Error(`--${key} must be a positive number`);
  }
  if (![...ONLY, ...OLDER].includes(opts.only))
    throw new Error(`--only must be one of ${[...ONLY.slice(1), ...OLDER].join(', ')}`);
  if (!['auto', 'wrk', 'autocannon'].includes(opts.loader))
    throw new Error('--loader must be auto, wrk or autocannon');
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
    needs: ['server/index.js', 'transports/stdio/server/index.js'],
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

/** The serve cases: one generated folder for both transports, and the load generator. */
async function runServe(opts, results) {
  const fx = makeServeFolder();
  const wl = workloads(fx);
  const loader = chooseLoader(opts.loader);
  results.loader = describeLoader(loader);
  console.log(`[serve] folders under ${fx.root}; HTTP load: ${results.loader}`);
  const gone = missing('cli/main.js');
  try {
    for (const transport of ['http', 'stdio']) {
      if (!runs(opts, `serve-${transport}`)) continue;
      const out = await runServeCase(transport, opts, { fx, wl, loader }, gone);
      const rows = serveRows(
        transport,
        out,
        wl.filter((w) => !w.warm),
      );
      results.cases[`serve-${transport}`] = { kind: 'serve', transport, rows };
    }
  } finally {
    rmSync(fx.root, { recursive: true, force: true });
  }
}

/** The issue-25 cells: cold-real and search-load on one generated folder, slow-file on FUSE. */
async function runReal(opts, results) {
  const gone = missing('cli/main.js');
  if (runs(opts, 'cold-real') || runs(opts, 'search-load')) {
    const fx = makeRealFolder(opts.files);
    const drop = () => rmSync(fx.root, { recursive: true, force: true });
    process.on('exit', drop); // also on ctrl-C (children.mjs exits on signals)
    console.log(
      `[real] ${fx.texts.length} texts and ${fx.binaries.length} binaries under ${fx.dir}`,
    );
    try {
      if (runs(opts, 'cold-real')) {
        const loader = chooseLoader(opts.loader);
        results.loader ??= describeLoader(loader);
        const out = await runColdReal(opts, fx, loader, gone);
        results.cases['cold-real'] = coldRealCase(out, fx, opts);
      }
      if (runs(opts, 'search-load'))
        results.cases['search-load'] = await runSearchLoad(opts, fx, gone);
    } finally {
      drop();
      process.off('exit', drop);
    }
  }
  if (runs(opts, 'slow-file')) results.cases['slow-file'] = await runSlowFile(opts, gone);
}

/** What docs/benchmarks.md says of the method, below the table. */
function serveNotes(results) {
  const cold = Object.values(results.cases)
    .filter((c) => c.kind === 'serve')
    .flatMap((c) => c.rows)
    .map((r) => r.targets.mcpkit?.passes)
    .filter((p) => p > 0);
  const passes = cold.length
    ? `${Math.min(...cold).toFixed(1)}-${Math.max(...cold).toFixed(1)}`
    : '';
  return [
    'The folders are generated at run time (bench/lib/serve-fixture.mjs). main: a 1 KiB text, a ' +
      '256 KiB PNG (a base64 blob) and 200 texts of ~3 KiB, which search scans (`quasar` matches 5, ' +
      'each of the 100 cold queries 1-4). cold: 1,000 distinct 1 KiB texts (and 2,000 more for warm-ups).',
    '**mcpkit**: the real CLI, `node dist/cli/bin.cjs serve DIR --http 127.0.0.1:0 --quiet` or ' +
      '`--stdio --quiet`, default options (watching the folder). **sdk**: the official SDK v2 ' +
      'server (bench/servers/serve-sdk.mjs) on the same folder: a `file:///{+path}` template read ' +
      'from disk per request, a review-file prompt embedding the file, a search tool reading every ' +
      'text file per call. **bare**: node:http or a readline loop (bench/servers/serve-bare-*.mjs) ' +
      "answering each request with mcpkit's own captured answer bytes for its method and params, " +
      'the id spliced in: the payloads are identical.',
    'Before timing, each target answers every distinct request once and each answer is checked in ' +
      "full (HTTP 200 and JSON, the right id, the file's bytes, the embedded resource, the links " +
      "to the expected files); bare must send mcpkit's exact bytes. During timing every answer " +
      'must be HTTP 200 (stdio: the right id) with the length of a verified answer (with wrk, ' +
      'answers over 64 KiB are not copied into Lua: their statuses and the total bytes read are ' +
      'checked), and a sample of stdio answers is parsed and checked again.',
    `HTTP: ${results.loader}, ${results.options.connections} connections, one JSON POST per request ` +
      '(2026-07-28, no session). stdio: requests pipelined on one pipe, up to ' +
      `${results.options.window} in flight but no more than ~100 ms of work at the rate seen so far ` +
      '(at least 8, so a slow search leaves little to drain after a round); every answer is read ' +
      'by the bench process.',
    'Hot workloads repeat one request on instances that were verified and warmed up; rounds ' +
      'interleave the targets, their order rotated each round. Cold workloads start fresh ' +
      'processes every round, warmed up on distinct requests outside the measured set (2,000 ' +
      'reads; 99 reviews and 200 searches for absent words), so that the uncached path is ' +
      'compiled as in a server that has run a while; then they send the ' +
      'distinct requests in a shuffled order, cycled: the first pass misses every cache of the ' +
      'server' +
      (passes ? ` (mcpkit went through them ${passes} times a round).` : '.'),
    'The RSS row is case C (bench/lib/large-case.mjs): peak RSS over idle RSS of the server for ' +
      '50 concurrent HTTP reads of one 4 MiB file, the worst of the bursts.',
  ];
}

async function main() {
  const opts = options(process.argv.slice(2));
  const started = Date.now();
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
  if (runs(opts, 'serve-http') || runs(opts, 'serve-stdio')) await runServe(opts, results);
  if (REAL.some((name) => runs(opts, name))) await runReal(opts, results);
  if (runs(opts, 'repo-scale')) {
    missing('cli/main.js');
    results.cases['repo-scale'] = await runRepoScale(opts);
    console.log(repoScaleMarkdown(results.cases['repo-scale']));
  }
  if (runs(opts, 'bridge')) {
    const gone = missing('cli/main.js', 'client/index.js', 'transports/stdio/client/index.js');
    if (gone.length) throw new Error(`bridge cell: ${gone.join(', ')} missing (run npm run build)`);
    results.cases.bridge = await runBridgeLatency({ rounds: opts.repeat });
  }
  for (const name of Object.keys(CASES)) {
    if (runs(opts, name)) results.cases[name] = await runCase(name, opts);
  }
  if (runs(opts, 'large')) {
    const gone = missing('cli/main.js', 'providers/filesystem/index.js');
    const large = await runLargeCase(opts, gone);
    large.verdicts = largeVerdicts(large, LARGE);
    results.cases.large = large;
  }
  if (runs(opts, 'client')) {
    const gone = missing(
      'cli/main.js',
      'server/transport.js',
      'client/index.js',
      'transports/http/client/index.js',
      'transports/stdio/client/index.js',
    );
    const client = await runClientCase(opts, gone);
    client.pairs = clientPairs(client, CLIENT, opts);
    client.verdict = clientVerdict(client, client.pairs, CLIENT.cpuGoal);
    results.cases.client = client;
  }
  results.loadavgEnd = os.loadavg()[0];
  results.seconds = (Date.now() - started) / 1000;
  console.log('');
  for (const c of Object.values(results.cases)) {
    if (c.kind === 'serve' || c.kind === 'real' || c.kind === 'scale') continue;
    if (c.kind === 'bridge') {
      console.log(bridgeTable(c) + '\n');
      continue;
    }
    const block =
      c.kind === 'large'
        ? largeTable(c, LARGE)
        : c.kind === 'client'
          ? clientTable(c, CLIENT, opts)
          : table(c.title, c.targets, c.ratios, c.verdict);
    console.log(block + '\n');
  }
  const serveCases = Object.values(results.cases).filter((c) => c.kind === 'serve');
  const realCases = Object.values(results.cases).filter((c) => c.kind === 'real');
  const real = realCases.length ? realCells(results.cases) : undefined;
  if (real?.cold) {
    const { texts, binaries } = results.cases['cold-real'].files;
    console.log(
      `cold-real (issue 25): ${texts} texts + ${binaries} binaries read once each per round; ` +
        'median req/s (min-max of rounds), median server CPU ms per answer:',
    );
    console.log(consoleTable(real.cold, [1, 2, 3, 4]) + '\n');
  }
  if (real?.latency) console.log(consoleTable(real.latency, []) + '\n');
  if (real) console.log(`${realSummary(real)}\n`);
  if (serveCases.length) {
    const rows = serveCases.flatMap((c) => c.rows);
    const rss = results.cases.large ? rssRow(results.cases.large, LARGE) : undefined;
    const cells = tableCells(rows, rss);
    results.summary = summary(rows, rss);
    console.log(
      `mcpkit serve (issue 12), ${results.loader}; median req/s, ratio median (min-max of rounds):`,
    );
    console.log(consoleTable(cells) + '\n');
    console.log(`${results.summary}\n`);
    // Only a full run rewrites the document the README links to.
    if (serveCases.length === 2 && rss && realCases.length === REAL.length) {
      writeFileSync(
        new URL('../docs/benchmarks.md', import.meta.url),
        benchmarksDoc(results, cells, results.summary, serveNotes(results), {
          cells: real,
          notes: realNotes(results),
          summary: realSummary(real),
        }) +
          (results.cases['repo-scale'] ? repoScaleMarkdown(results.cases['repo-scale']) : '') +
          `\n${readFileSync(new URL('cold-read-profile.md', import.meta.url), 'utf8')}`,
      );
      console.log('table written to docs/benchmarks.md');
    } else
      console.log(
        'docs/benchmarks.md not rewritten (only a full run does: every serve case, C and the issue-25 cells)',
      );
  }
  const dir = new URL('results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  writeFileSync(new URL('latest.json', dir), JSON.stringify(results, null, 2) + '\n');
  console.log(
    `results written to bench/results/latest.json; ${(results.seconds / 60).toFixed(1)} min`,
  );
  const failed = (c) =>
    c.kind === 'scale'
      ? false
      : c.kind === 'bridge'
        ? c.verdict === 'FAILED'
        : c.kind === 'real'
          ? c.rows.some((r) => r.verdict === 'FAILED')
          : c.kind === 'serve'
            ? c.rows.some((r) => Object.values(r.targets).some((t) => t.error))
            : Object.values(c.targets).some((t) => t.error);
  return Object.values(results.cases).some(failed) ? 1 : 0;
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
