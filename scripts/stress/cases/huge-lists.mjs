// 12. The client against lists too large to keep (issue 26, item 2): a hostile stdio server
// lists without end, hands out 20 MB cursors, pages 10 MB of entries, or hands out a fresh
// 60 KB cursor forever. Each walk (McpClient.listTools(), the tools() iterator, and
// `mcpkit inspect --json` and `mcpkit audit --json` through the built CLI) must stop with the
// error (audit: the finding) naming the bound that stopped it, and each client process's peak
// RSS stay under 400 MiB; meanwhile a second client in the library client's process lists a
// well-behaved server every 50 ms (slowest ms). The hostile server is that of the e2e tests.
import { fileURLToPath } from 'node:url';
import { startClient } from '../lib/client-process.mjs';
import { runCli } from '../lib/measured-cli.mjs';
import { MiB, mib } from '../lib/rss.mjs';
import { stopServer } from '../lib/server.mjs';

const SERVER = fileURLToPath(
  new URL('../../../test/e2e/hostile/huge-lists-server.mjs', import.meta.url),
);
const CLIENT = fileURLToPath(new URL('../lib/list-client.mjs', import.meta.url));
const PEAK_BELOW = 400 * MiB;
const TIMEOUT_MS = 30_000;

/**
 * What each walk must end with: the error code, the option named by the library's message and
 * by the CLI's, and how many entries the iterator yields before it (the pages that fit).
 */
const SCENARIOS = [
  {
    label: '12a client: 800,000 tools',
    scale: '800,000 tools in pages of 5,000 (the default maxListItems is 50,000)',
    args: ['--tools', '800000', '--page', '5000'],
    code: 'LIST_TOO_LARGE',
    option: 'maxListItems',
    flag: '--max-list-items',
    finding: 'list-too-large',
    seen: 50_000,
  },
  {
    label: '12b client: 20 MB cursors',
    scale: 'an endless list of one tool a page, each page handing out a 20,000,000-byte cursor',
    args: ['--endless-tools', '--page', '1', '--cursor-bytes', '20000000'],
    code: 'LIST_TOO_LARGE',
    option: 'maxCursorBytes',
    flag: '--max-cursor-bytes',
    finding: 'list-too-large',
    seen: 1,
  },
  {
    label: '12c client: 10 MB pages',
    scale:
      'an endless list of 100 tools a page, each with a 100,000-byte description (10 MB a page; the default maxListBytes is 64 MiB)',
    args: ['--endless-tools', '--page', '100', '--description-bytes', '100000'],
    code: 'LIST_TOO_LARGE',
    option: 'maxListBytes',
    flag: '--max-list-bytes',
    finding: 'list-too-large',
    seen: 600,
  },
  {
    label: '12d client: endless 60 KB cursors',
    scale:
      'an endless list of one tool a page, each page handing out a fresh 60,000-byte cursor (under maxCursorBytes; the walk stops at the 1,000-page limit)',
    args: ['--endless-tools', '--page', '1', '--cursor-bytes', '60000'],
    code: 'PAGE_LIMIT',
    option: 'maxPages',
    // the CLI has no flag for the page limit: its message says where it stopped
    flag: 'still more pages after 1000',
    finding: 'pagination-loop',
    seen: 1000,
  },
];

export const name = 'huge-lists';
export const scale = `${SCENARIOS.length} hostile stdio servers whose tools/list is too large to keep; each walked by listTools(), the tools() iterator (a well-behaved server listed meanwhile), mcpkit inspect --json and mcpkit audit --json`;

/** A library walk's outcome against the scenario, into the tally; returns the note. */
function judgeWalk(tally, s, what, got, seen) {
  tally.requests++;
  const named = got.code === s.code && got.message.includes(`(${s.option}`);
  if (!named) tally.bad(`${what} ended ${got.code}: ${got.message.slice(0, 160)}`);
  else if (seen !== undefined && seen !== s.seen)
    tally.bad(`${what} yielded ${seen} entries before its error, not ${s.seen}`);
  else tally.answer();
  const count = seen === undefined ? '' : ` after ${seen} entries`;
  return `${what}: ${got.code}${count} in ${Math.round(got.ms)} ms: ${got.message.slice(0, 140)}`;
}

function judgeInspect(tally, s, run) {
  tally.requests++;
  const line = run.stderr.split('\n').find((l) => l.startsWith('mcpkit inspect:')) ?? run.stderr;
  const ok =
    run.code === 1 && run.stdoutBytes === 0 && line.includes(`${s.code}:`) && line.includes(s.flag);
  if (!ok)
    tally.bad(
      `inspect exited ${run.code ?? run.signal} with ${run.stdoutBytes} bytes on stdout: ${line.slice(0, 200)}`,
    );
  else tally.answer();
  return `mcpkit inspect --json: exit ${run.code ?? run.signal} in ${Math.round(run.ms)} ms, peak RSS ${mib(run.peak)} MiB: ${line.trim().slice(0, 160)}`;
}

/** audit --json: exit 1, `complete: false`, and the finding naming the bound. */
function judgeAudit(tally, s, run) {
  tally.requests++;
  let report = null;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    // judged below: no report is a wrong answer
  }
  const finding = report?.findings?.find((f) => f.code === s.finding && f.message.includes(s.flag));
  const ok = run.code === 1 && report?.complete === false && finding !== undefined;
  const said = finding?.message ?? `no ${s.finding} finding naming ${s.flag}`;
  if (!ok)
    tally.bad(
      `audit exited ${run.code ?? run.signal}, complete ${report?.complete}: ${said.slice(0, 160)}; ${run.stderr.slice(-200)}`,
    );
  else tally.answer();
  return `mcpkit audit --json: exit ${run.code ?? run.signal} in ${Math.round(run.ms)} ms, peak RSS ${mib(run.peak)} MiB, ${report?.walked?.tools ?? '?'} tools walked: ${s.finding}: ${said.slice(0, 140)}`;
}

const cli = (command, s) =>
  runCli([command, '--json', '--', process.execPath, SERVER, ...s.args], {
    timeoutMs: 90_000,
    keepStdout: command === 'audit',
  });

async function scenario(ctx, s) {
  const inspected = await cli('inspect', s);
  const audited = await cli('audit', s);
  const client = startClient(CLIENT, {
    command: process.execPath,
    args: [SERVER, ...s.args],
    timeoutMs: TIMEOUT_MS,
    healthy: { command: process.execPath, args: [SERVER, '--tools', '3'] },
  });
  ctx.defer(() => stopServer(client));
  await client.next(15_000);
  const before = await ctx.baseline(client);
  ctx.loadStarts();
  client.child.stdin.write('go\n');
  const { listTools, iterator, healthy } = JSON.parse(await client.next(3 * TIMEOUT_MS));
  const tally = ctx.tally();
  tally.requests += healthy.calls;
  tally.answers += healthy.calls - healthy.failed;
  for (let i = 0; i < healthy.failed; i++) tally.bad('a call to the well-behaved server failed');
  const notes = [
    `meanwhile ${healthy.calls} tools/list of a well-behaved server from the library client's process, the slowest ${Math.round(healthy.slowestMs)} ms (slowest ms)`,
    judgeWalk(tally, s, 'listTools()', listTools),
    judgeWalk(tally, s, 'tools() iterator', iterator, iterator.seen),
    judgeInspect(tally, s, inspected),
    judgeAudit(tally, s, audited),
  ];
  const row = await ctx.figure({
    label: s.label,
    scale: s.scale,
    server: client,
    tally,
    before,
    slowestMs: healthy.slowestMs,
    notes,
    rss: { peakBelow: PEAK_BELOW },
  });
  // The row's peak is the largest of the three client processes'; before, after and held are
  // the library client's (the CLI runs have exited by then). A CLI run with no peak fails it.
  const peaks = [row.peak, inspected.peak, audited.peak];
  row.peak = peaks.includes(null) ? null : Math.max(...peaks);
  row.notes.unshift(
    `peak RSS: library client ${mib(peaks[0])} MiB (listTools() then the iterator), mcpkit inspect ${mib(peaks[1])} MiB, mcpkit audit ${mib(peaks[2])} MiB`,
  );
  await stopServer(client);
  return row;
}

export async function run(ctx) {
  const rows = [];
  for (const s of SCENARIOS) rows.push(await scenario(ctx, s));
  return rows;
}
