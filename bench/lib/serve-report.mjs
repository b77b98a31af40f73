// The serve cases' report: per workload and target the median req/s of the rounds, the ratios
// mcpkit/bare and mcpkit/sdk as the median of the per-round ratios (each round's targets ran side
// by side, so a burst of outside load hits both sides of a ratio) with their min-max spread, and
// each issue-12 target marked met or missed. Printed, and written as docs/benchmarks.md.
import os from 'node:os';

export const num = (v, d = 0) =>
  v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const TRANSPORT = { http: 'HTTP', stdio: 'stdio' };

/** Median, min, max and per-round values of a/b over the rounds both have. */
function ratio(a, b) {
  if (!a?.rounds || !b?.rounds) return null;
  const n = Math.min(a.rounds.length, b.rounds.length);
  if (n === 0) return null;
  const each = Array.from({ length: n }, (_, i) => a.rounds[i].reqPerSec / b.rounds[i].reqPerSec);
  return { median: median(each), min: Math.min(...each), max: Math.max(...each), rounds: each };
}

/** The rows of one transport's case: figures per target, ratios, goal and verdict. */
export function serveRows(transport, out, wl) {
  return wl.map((w) => {
    const targets = {};
    for (const [name, t] of Object.entries(out[w.name])) {
      if (!t.rounds) {
        targets[name] = t;
        continue;
      }
      const pick = (k) =>
        median(t.rounds.map((r) => r[k]).filter((v) => v !== null && v !== undefined));
      targets[name] = {
        reqPerSec: pick('reqPerSec'),
        p50: pick('p50'),
        p99: pick('p99'),
        cpuUsPerReq: pick('cpuUsPerReq'),
        loaderCpu: Math.max(...t.rounds.map((r) => r.loaderCpu ?? 0)),
        passes: w.cold ? pick('requests') / w.items.length : undefined,
        rounds: t.rounds,
      };
    }
    const vsBare = ratio(targets.mcpkit, targets.bare);
    const vsSdk = ratio(targets.mcpkit, targets.sdk);
    const goal = w.goal[transport];
    const failed = Boolean(targets.mcpkit?.error || targets.bare?.error); // the SDK is context
    const verdict =
      goal === undefined
        ? 'no target'
        : w.retired
          ? 'retired'
          : failed
            ? 'FAILED'
            : vsBare === null
              ? 'not measured'
              : vsBare.median >= goal
                ? 'met'
                : 'missed';
    const { name: workload, label, retired } = w;
    return { transport, workload, label, targets, vsBare, vsSdk, goal, retired, verdict };
  });
}

/** The RSS row of the large-resources case (its peak over idle against the +30 MiB target). */
export function rssRow(large, goals) {
  const m = large?.targets?.mcpkit;
  const sdk = large?.targets?.sdk;
  const mib = (b) => `${b >= 0 ? '+' : ''}${num(b / 2 ** 20, 1)} MiB`;
  const ok = m && m.overIdle !== undefined;
  return {
    label: `HTTP: peak RSS over idle, ${large?.burst ?? 50} concurrent reads of one 4 MiB file`,
    mcpkit: ok ? mib(m.overIdle) : m?.error ? 'FAILED' : 'not measured',
    sdk: sdk?.overIdle !== undefined ? mib(sdk.overIdle) : '-',
    spread: ok ? m.rounds.map((r) => mib(r.overIdle)).join(', ') : '',
    goal: `<= +${goals.peakGoal / 2 ** 20} MiB`,
    verdict: ok ? (m.overIdle <= goals.peakGoal ? 'met' : 'missed') : 'not measured',
  };
}

/** A load generator above this share of one core may have been the limit, not the server. */
export const LOADER_BUSY = 0.9;
export const LOADER_NOTE =
  '\\* the load generator (wrk, autocannon, or for stdio the bench process reading the answers) ' +
  `used more than ${LOADER_BUSY * 100}% of a core in one of the rounds: that figure may be its limit.`;
const starred = (cells) => cells.body.some((r) => r.some((c) => c.endsWith('*')));
const cell = (t) =>
  !t
    ? '-'
    : t.skipped
      ? 'skipped'
      : t.error
        ? 'FAILED'
        : num(t.reqPerSec) + (t.loaderCpu > LOADER_BUSY ? '*' : '');
const spread = (r) =>
  r ? `${r.median.toFixed(2)}x (${r.min.toFixed(2)}-${r.max.toFixed(2)})` : '-';

/** Header and body cells of the table (shared by the console and the Markdown). */
export function tableCells(rows, rss) {
  const head = [
    'transport',
    'workload',
    'bare req/s',
    'sdk req/s',
    'mcpkit req/s',
    'mcpkit/bare (min-max)',
    'mcpkit/sdk (min-max)',
    'target',
    'verdict',
  ];
  const body = rows.map((r) => [
    TRANSPORT[r.transport],
    r.label,
    cell(r.targets.bare),
    cell(r.targets.sdk),
    cell(r.targets.mcpkit),
    spread(r.vsBare),
    spread(r.vsSdk),
    r.goal === undefined ? '-' : `>= ${r.goal}x bare`,
    r.verdict,
  ]);
  if (rss)
    body.push([
      'HTTP',
      'RSS: 50 x 4 MiB reads, peak over idle',
      '-',
      rss.sdk,
      rss.mcpkit,
      rss.spread,
      '-',
      rss.goal,
      rss.verdict,
    ]);
  return { head, body };
}

/** The table as aligned text for the console (with the loader footnote when it applies). */
export function consoleTable(cells, rightCols = [2, 3, 4]) {
  const { head, body } = cells;
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const right = (i) => rightCols.includes(i);
  const line = (cells) =>
    cells
      .map((c, i) => (right(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const note = starred(cells) ? `\n${LOADER_NOTE.replace('\\*', '*')}` : '';
  return [line(head), ...body.map(line)].join('\n') + note;
}

/** The table in Markdown, padded as Prettier pads it (so `npm run lint` leaves it alone). */
export function markdownTable({ head, body }, rightCols = [2, 3, 4]) {
  const esc = (c) => c.replace(/\|/g, '\\|');
  const rows = [head, ...body].map((r) => r.map(esc));
  const widths = head.map((_, i) => Math.max(3, ...rows.map((r) => r[i].length)));
  const right = (i) => rightCols.includes(i);
  const line = (r) =>
    `| ${r.map((c, i) => (right(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  const sep = `| ${widths.map((w, i) => (right(i) ? '-'.repeat(w - 1) + ':' : '-'.repeat(w))).join(' | ')} |`;
  return [line(rows[0]), sep, ...rows.slice(1).map(line)].join('\n');
}

/** The verdict summary: how many issue-12 targets still in force were met. */
export function summary(rows, rss) {
  const judged = [...rows.filter((r) => r.goal !== undefined && !r.retired), ...(rss ? [rss] : [])];
  const met = judged.filter((r) => r.verdict === 'met').length;
  const missed = judged
    .filter((r) => r.verdict !== 'met')
    .map((r) => `${r.transport ? TRANSPORT[r.transport] + ' ' : ''}${r.label}`);
  return `${met}/${judged.length} targets met${missed.length ? `; missed or not measured: ${missed.join('; ')}` : ''}`;
}

/** The issue-25 section of docs/benchmarks.md: its table and method notes. */
const realSection = ({ cells, notes, summary }) => `
## Real work: cold reads, a slow file, searches under load (issue 25)

${cells.cold ? markdownTable(cells.cold, [1, 2, 3, 4]) : 'cold-real did not run.'}

Each throughput cell: the median req/s of the rounds (lowest-highest round), then the median
server CPU per answer; ratios are the median of the per-round ratios (lowest-highest).

${cells.latency ? markdownTable(cells.latency, []) : 'slow-file and search-load did not run.'}

Latency cells: p99 over every round's requests, and each round's p99.

${summary}.

${notes.map((n) => `- ${n}`).join('\n')}
`;

/** docs/benchmarks.md: how it was measured, on what, and the table. */
export function benchmarksDoc(results, cells, verdictLine, notes, real) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const o = results.options;
  return `# Benchmarks

Written by \`npm run bench\` (\`node bench/run.mjs\`) on ${results.date.slice(0, 10)}; do not edit by hand.
Benchmarks, not tests: every figure comes from one run, the targets side by side, and only ratios
between them are compared (see [bench/run.mjs](../bench/run.mjs) for the method and the options).

- Machine: ${os.cpus().length} × ${cpu}, ${num(os.totalmem() / 2 ** 30, 0)} GiB, ${os.type()} ${os.release()}
- Node ${results.node}; 1-minute load average ${results.loadavgStart.toFixed(2)} at the start, ${results.loadavgEnd.toFixed(2)} at the end
- HTTP load generator: ${results.loader}; ${o.connections} connections. stdio: pipelined, ${o.window} requests in flight
- ${o.repeat} rounds of ${num(o.duration / o.repeat, 1)} s per target and workload, after ${num(o.warmup / 2, 1)} s of warm-up (a fresh cold-round process: ${num(o.warmup, 1)} s on other requests); the whole run took ${num(results.seconds / 60, 1)} min

## mcpkit serve against the official SDK and a bare replay (issue 12)

${markdownTable(cells)}

${verdictLine}.

req/s are the median of the rounds; a ratio is the median of the per-round ratios, with the
lowest and highest round in brackets. A target marked retired is one issue 12 set and issue 25
gave up (repeated prompts and tool calls were answered from a result memo, now removed): shown
beside the figures, not counted.${starred(cells) ? `\n\n${LOADER_NOTE}` : ''}

${notes.map((n) => `- ${n}`).join('\n')}
${real ? realSection(real) : ''}`;
}
