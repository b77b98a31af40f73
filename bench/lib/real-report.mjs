// The issue-25 cells in the report: cold-real (median req/s of the rounds per target, spread, server
// CPU per answer, ratios to the bare worker and the SDK), slow-file and search-load (p99 latencies),
// each with its target and verdict. One table, printed and written into docs/benchmarks.md.
import { median, num, TRANSPORT } from './serve-report.mjs';

export const COLD_GOAL = 0.9;
export const P99_GOAL_MS = 50;

/** Per-round ratios a/b (rounds ran side by side): median, min, max. */
function ratio(a, b) {
  const n = Math.min(a?.rounds?.length ?? 0, b?.rounds?.length ?? 0);
  if (n === 0) return null;
  const each = Array.from({ length: n }, (_, i) => a.rounds[i].reqPerSec / b.rounds[i].reqPerSec);
  return { median: median(each), min: Math.min(...each), max: Math.max(...each) };
}

/** The cold-real case from runColdReal's output: per transport, figures per target and verdict. */
export function coldRealCase(out, fx, opts) {
  const rows = Object.entries(out).map(([transport, res]) => {
    const targets = {};
    for (const [name, t] of Object.entries(res)) {
      if (!t.rounds) {
        targets[name] = t;
        continue;
      }
      const rps = t.rounds.map((r) => r.reqPerSec);
      const cpu = t.rounds.map((r) => r.cpuUsPerReq).filter((v) => v !== null);
      targets[name] = {
        reqPerSec: median(rps),
        min: Math.min(...rps),
        max: Math.max(...rps),
        cpuMsPerAnswer: cpu.length ? median(cpu) / 1000 : null,
        loaderCpu: Math.max(...t.rounds.map((r) => r.loaderCpu ?? 0)),
        rounds: t.rounds,
      };
    }
    const vsWorker = ratio(targets.mcpkit, targets.worker);
    const vsGuarded = ratio(targets.mcpkit, targets.guarded);
    const vsSdk = ratio(targets.mcpkit, targets.sdk);
    const failed = Boolean(targets.mcpkit?.error || targets.worker?.error);
    const verdict = failed
      ? 'FAILED'
      : !vsWorker
        ? 'not measured'
        : vsWorker.median >= COLD_GOAL && (!vsSdk || vsSdk.median > 1)
          ? 'met'
          : 'missed';
    return { transport, targets, vsWorker, vsGuarded, vsSdk, verdict };
  });
  return {
    kind: 'real',
    cell: 'cold-real',
    files: { texts: fx.texts.length, binaries: fx.binaries.length },
    rounds: opts.repeat,
    rows,
  };
}

const rpsCell = (t) =>
  !t
    ? '-'
    : t.skipped
      ? 'skipped'
      : t.error
        ? 'FAILED'
        : `${num(t.reqPerSec)} (${num(t.min)}-${num(t.max)})` +
          (t.cpuMsPerAnswer === null ? '' : `, ${num(t.cpuMsPerAnswer, 3)} ms`);
const spread = (r) =>
  r ? `${r.median.toFixed(2)}x (${r.min.toFixed(2)}-${r.max.toFixed(2)})` : '-';
const ms = (v) => `${num(v, v < 10 ? 1 : 0)} ms`;

/** The issue-25 tables: `cold` (throughput) and `latency`, each { head, body } or undefined. */
export function realCells(cases) {
  const cold = cases['cold-real'];
  const coldCells = cold && {
    head: [
      'transport',
      'worker',
      'guarded worker',
      'bare replay',
      'sdk',
      'mcpkit',
      'mcpkit/worker',
      'mcpkit/guarded',
      'mcpkit/sdk',
      'target',
      'verdict',
    ],
    body: cold.rows.map((r) => [
      TRANSPORT[r.transport],
      rpsCell(r.targets.worker),
      rpsCell(r.targets.guarded),
      rpsCell(r.targets.bare),
      rpsCell(r.targets.sdk),
      rpsCell(r.targets.mcpkit),
      spread(r.vsWorker),
      spread(r.vsGuarded),
      spread(r.vsSdk),
      `>= ${COLD_GOAL}x worker, > 1x sdk`,
      r.verdict,
    ]),
  };
  const rows = ['slow-file', 'search-load'].flatMap((name) => cases[name]?.rows ?? []);
  const latency = rows.length
    ? {
        head: ['cell', 'mcpkit', 'each round', 'target', 'verdict'],
        body: rows.map((row) => [row.label, row.value, row.spread ?? '-', row.goal, row.verdict]),
      }
    : undefined;
  return { cold: coldCells, latency };
}

/** How many issue-25 targets were met, and which were not. */
export function realSummary(cells) {
  const rows = [
    ...(cells.cold?.body ?? []).map((r) => [`${r[0]} cold reads`, r.at(-1)]),
    ...(cells.latency?.body ?? []).map((r) => [r[0], r.at(-1)]),
  ];
  const missed = rows.filter(([, v]) => v !== 'met').map(([label, v]) => `${label} (${v})`);
  return (
    `${rows.length - missed.length}/${rows.length} issue-25 targets met` +
    (missed.length ? `; missed or not measured: ${missed.join('; ')}` : '')
  );
}

/** p99 of `ms` (a list of latencies in ms). */
export function p99(list) {
  if (list.length === 0) return NaN;
  const s = [...list].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.99 * s.length) - 1)];
}

/** A latency row: p99 over all rounds against the 50 ms goal, per-round p99s as the spread. */
export function latencyRow(label, perRound, extraOk = true, why = '') {
  const all = perRound.flat();
  if (all.length === 0)
    return { label, value: 'not measured', goal: `p99 <= ${P99_GOAL_MS} ms`, verdict: 'FAILED' };
  const value = p99(all);
  return {
    label,
    value: `p99 ${ms(value)} (${all.length} requests)`,
    spread: perRound.map((r) => ms(p99(r))).join(', '),
    goal: `p99 <= ${P99_GOAL_MS} ms${why}`,
    verdict: value <= P99_GOAL_MS && extraOk ? 'met' : 'missed',
    p99: value,
  };
}

/** The method text of the issue-25 cells (docs/benchmarks.md). */
export function realNotes(results) {
  const cold = results.cases['cold-real'];
  const notes = [];
  if (cold)
    notes.push(
      `**cold-real**: a generated folder of ${num(cold.files.texts)} distinct texts of 1-8 KiB and ` +
        `${num(cold.files.binaries)} binaries of 16-256 KiB (random bytes, read as base64 blobs; ` +
        'bench/lib/real-fixture.mjs). Each round reads every file once, in a new shuffled order, on ' +
        'a fresh server process per target (started, then left until idle: mcpkit indexes the ' +
        'folder; no warm-up, so the round includes JIT warm-up as a freshly started server does), ' +
        'over HTTP (wrk, 32 connections; the round ends at the last answer) and stdio (pipelined). ' +
        'Cells: the median req/s of the rounds, their min-max, and the median server CPU per answer ' +
        '(user+system time of the server process over the round, from /proc, divided by answers). ' +
        '**worker** (bench/servers/serve-worker.mjs) is the naive floor of the same work: node:http ' +
        'or a readline loop doing fs.promises.readFile, base64 for binaries and JSON.stringify of ' +
        "`contents: [{uri, mimeType, text|blob}]` plus mcpkit's top-level result fields, no cache " +
        'and no checks. **guarded worker** is the same server making, per read, the syscalls and ' +
        'checks of a guarded read as mcpkit makes them, as fs.promises calls on the main thread ' +
        "(realpath, stat, open with O_NOFOLLOW | O_NONBLOCK, fstat, the descriptor's path, read, " +
        'fstat, close; refusing what leaves the folder, hidden names, special files and a file that ' +
        'changed while read; strict UTF-8): the floor of the same work with the checks, shown beside ' +
        "the target, which is against the worker. **bare replay** sends mcpkit's captured answers " +
        '(the ceiling). Every target ' +
        'first answers every read once, checked in full against the bytes written; in the rounds ' +
        'every answer must be HTTP 200 (stdio: its id) with a verified length for its request, and ' +
        `the rounds interleave the targets. Ratios are the median of per-round ratios. ${cold.rounds} rounds.`,
    );
  if (results.cases['slow-file']) notes.push(results.cases['slow-file'].note);
  if (results.cases['search-load']) notes.push(results.cases['search-load'].note);
  return notes;
}
