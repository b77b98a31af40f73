// Targets, the printed table and docs/reliability.md.
import os from 'node:os';
import { MiB, mib } from './rss.mjs';

export const SLOWEST_MS = 1000;

/**
 * A row's memory target, any of: `peakBelow` (its peak RSS under that many bytes: the issue's
 * bound for a client process or a flood), `growthBelow` (peak minus RSS before the load under
 * that), `settle` (RSS back within `withinBytes` of before at most `ms` after the load left).
 * The server cases' default is the settle-back below.
 */
export const DEFAULT_RSS_TARGET = Object.freeze({
  settle: Object.freeze({ withinBytes: 50 * MiB, ms: 6000 }),
});

/** The target as the table shows it, e.g. "peak < 600 MiB, after ≤ +100 MiB in 20 s". */
export function rssTargetText(target = DEFAULT_RSS_TARGET) {
  const parts = [];
  if (target.peakBelow !== undefined) parts.push(`peak < ${target.peakBelow / MiB} MiB`);
  if (target.growthBelow !== undefined) parts.push(`peak ≤ +${target.growthBelow / MiB} MiB`);
  if (target.settle !== undefined)
    parts.push(`after ≤ +${target.settle.withinBytes / MiB} MiB in ${target.settle.ms / 1000} s`);
  return parts.join(', ');
}

function rssVerdict(row) {
  const target = row.rss ?? DEFAULT_RSS_TARGET;
  const { before, peak, after } = row;
  const met = [
    target.peakBelow === undefined || (peak !== null && peak < target.peakBelow),
    target.growthBelow === undefined ||
      (peak !== null && before !== null && peak - before <= target.growthBelow),
    target.settle === undefined ||
      (after !== null && before !== null && after - before <= target.settle.withinBytes),
  ];
  return met.every(Boolean) ? 'PASS' : 'FAIL';
}

/** PASS/FAIL per target; latency is 'n/a' where the case has no separate well-behaved client. */
export function verdicts(row) {
  if (row.failed) return { wrong: 'FAIL', rss: 'FAIL', latency: 'FAIL' };
  return {
    wrong: row.wrong === 0 && row.lost === 0 && row.alive ? 'PASS' : 'FAIL',
    rss: rssVerdict(row),
    latency: row.slowestMs === null ? 'n/a' : row.slowestMs <= SLOWEST_MS ? 'PASS' : 'FAIL',
  };
}

export const passed = (row) => !Object.values(verdicts(row)).includes('FAIL');

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    load: os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' '),
    date: new Date().toISOString(),
  };
}

const COLUMNS = [
  ['case', (r) => r.label],
  ['checked', (r) => r.requests],
  ['answers', (r) => r.answers],
  ['errors', (r) => r.errors],
  ['wrong', (r) => r.wrong],
  ['lost', (r) => r.lost],
  ['RSS before MiB', (r) => mib(r.before)],
  ['peak MiB', (r) => mib(r.peak)],
  ['after MiB', (r) => mib(r.after)],
  ['after GC MiB', (r) => mib(r.afterGc)],
  ['held MiB', (r) => `${mib(r.heapBefore)}→${mib(r.heapAfter)}`],
  ['slowest ms', (r) => (r.slowestMs === null ? 'n/a' : Math.round(r.slowestMs))],
  ['0 wrong', (r) => verdicts(r).wrong],
  ['RSS target', (r) => rssTargetText(r.rss)],
  ['RSS', (r) => verdicts(r).rss],
  ['< 1 s', (r) => verdicts(r).latency],
];

/** One line per case for the console, as it finishes. */
export function consoleLine(row) {
  return COLUMNS.map(([name, get]) => `${name}=${get(row)}`).join('  ');
}

function markdownTable(rows) {
  const head = `| ${COLUMNS.map(([name]) => name).join(' | ')} |`;
  const rule = `| ${COLUMNS.map(() => '---').join(' | ')} |`;
  const body = rows.map((r) => `| ${COLUMNS.map(([, get]) => get(r)).join(' | ')} |`);
  return [head, rule, ...body].join('\n');
}

/** Aligned plain-text table for the end of the run. */
export function textTable(rows) {
  const cells = [
    COLUMNS.map(([name]) => name),
    ...rows.map((r) => COLUMNS.map(([, g]) => String(g(r)))),
  ];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((c) => c[i].length)));
  return cells.map((c) => c.map((v, i) => v.padEnd(widths[i])).join('  ')).join('\n');
}

const escapeCell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function markdown(rows, info, seconds) {
  const m = info;
  const details = rows.map((r) => {
    const options = r.options?.length ? r.options.join(', ') : 'defaults';
    const unlisted = r.unlisted?.length
      ? ` (not in --help, so not passed: ${r.unlisted.join(', ')})`
      : '';
    const notes = r.notes.map((n) => `\n  - ${escapeCell(n)}`).join('');
    return `- **${r.label}**: ${r.scale}. Options: ${options}${unlisted}.${notes}`;
  });
  return `# Reliability: npm run stress

Load and fault cases against a real \`mcpkit serve\` process (the built CLI), and client cases
where the built client (\`McpClient\`, \`mcpkit inspect\`, \`mcpkit audit\`) faces a hostile
server; on 127.0.0.1 only. Each server case starts its own server, a well-behaved client checks
every answer it gets while the hostile clients run, and the server's memory is read from
\`/proc/<pid>/status\` (VmRSS before the load and after the clients left, VmHWM for the peak).
Regenerate with \`npm run stress\` (\`node scripts/stress/run.mjs --only NAME,...\` for some
cases, \`--no-write\` to leave this file).

Targets per case: **0 wrong** (no wrong answer, no request left unanswered, the server alive),
**RSS** (PASS when the row meets every part of its **RSS target**), **< 1 s** (no request of the
well-behaved client slower than 1 s while the hostile one runs; n/a where the case has a single
channel). An RSS target is one or more of:

- *after ≤ +N MiB in T s*: RSS back within N MiB of *RSS before* at most T s after the hostile
  clients left (*after* is the lowest VmRSS sampled every 250 ms until it is within N MiB or T s
  have passed). The default target: +50 MiB in 6 s.
- *peak < N MiB*: the measured process's VmHWM under N MiB (the issue's bound for a client process
  under a hostile server, and for \`serve\` under the part flood).
- *peak ≤ +N MiB*: VmHWM minus *RSS before* at most N MiB (the issue's growth bound for listen
  streams that never read).

In the client cases (10, 12) the measured process is the mcpkit client itself (a library client,
or \`mcpkit inspect\` and \`mcpkit audit\`, whose peak is their own \`getrusage\` at exit), and the
hostile party is the server. *answers* are correct answers (including expected errors), *errors*
clear errors that are not wrong answers (busy, timeouts answered by the server), *lost* requests
that got no answer at all; *checked* counts requests and listen frames checked.

*after GC* and *held* are diagnostics, never targets: once the figure is taken, the run asks the
server for a full GC through its inspector (servers start with \`--inspect=127.0.0.1:0\`; \`--no-inspect\`
turns that off) and reads VmRSS again; *held* is what its JavaScript still holds after a full GC
(its main thread's V8 heap used plus external memory, before the load → after; worker threads,
such as the read workers and the search index, are not in it). A RSS that fails the target while
*after GC* and *held* are back near the start is garbage not yet collected or memory the allocator
keeps, not a leak.

Machine: ${m.cpu}, ${m.cores} cores, ${m.memory}, Node ${m.node}, ${m.os}; load average
${m.load} at the start. Run: ${m.date}, ${seconds.toFixed(0)} s.

${markdownTable(rows)}

## Cases (scaled down to run in minutes on this machine)

${details.join('\n')}
`;
}
