// 10. The client under a server's request flood (issue 26): a hostile server stops reading its
// stdin (or answers every POST with more requests) and writes `ping` requests without end, while
// the client's calls wait. The target is the client process: its memory stays bounded and each
// pending call ends at its timeout. The hostile servers are those of the e2e tests.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MiB } from '../lib/rss.mjs';
import { lineReader, startClient } from '../lib/client-process.mjs';
import { stopServer, trackChild } from '../lib/server.mjs';

const CALLS = 5;
const TIMEOUT_MS = 2000;
/** A call that ends more than this past its timeout is late (a wrong answer). */
const LATE_MS = 1000;
const CLIENT = fileURLToPath(new URL('../lib/flood-client.mjs', import.meta.url));
const hostile = (name) =>
  fileURLToPath(new URL(`../../../test/e2e/hostile/${name}`, import.meta.url));
const STDIO_SERVER = hostile('request-flood-stdio-server.mjs');
const HTTP_SERVER = hostile('request-flood-http-server.mjs');

export const name = 'client-request-flood';
export const scale = `${CALLS} calls in a row with requestTimeoutMs ${TIMEOUT_MS} that the server never answers, flooding ping requests instead (stdio: reading nothing; HTTP: every POST answered with more); a second client in the same process calls a healthy server every 50 ms`;

async function httpServer(ctx, era) {
  const child = trackChild(
    spawn(process.execPath, [HTTP_SERVER, era], { stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  ctx.defer(() => stopServer({ child }));
  const next = lineReader(child.stdout);
  const { port, statsPort } = JSON.parse(await next(10_000));
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stats: async () => (await fetch(`http://127.0.0.1:${statsPort}/`)).json(),
  };
}

async function flood(ctx, label, spec, server) {
  const client = startClient(CLIENT, { ...spec, timeoutMs: TIMEOUT_MS, calls: CALLS });
  ctx.defer(() => stopServer(client));
  const hello = JSON.parse(await client.next(15_000));
  const before = await ctx.baseline(client);
  ctx.loadStarts();
  client.child.stdin.write('go\n');
  const report = JSON.parse(await client.next(CALLS * (TIMEOUT_MS + 5000)));
  const { results, warnings, healthy } = report;
  const tally = ctx.tally();
  tally.requests = CALLS + healthy.calls;
  let slowest = -Infinity;
  for (const { code, elapsedMs } of results) {
    const late = elapsedMs - TIMEOUT_MS;
    slowest = Math.max(slowest, late);
    if (code !== 'REQUEST_TIMEOUT') tally.bad(`a call ended with ${code}, not REQUEST_TIMEOUT`);
    else if (late > LATE_MS || late < -5)
      tally.bad(`a call timed out after ${Math.round(elapsedMs)} ms`);
    else tally.answer();
  }
  if (results.length < CALLS) tally.missing(`${CALLS - results.length} calls never ended`);
  tally.answers += healthy.calls - healthy.failed;
  for (let i = 0; i < healthy.failed; i++) tally.bad('a call to the healthy server failed');
  const codes = Object.entries(warnings).map(([c, n]) => `${c} x${n}`);
  const notes = [
    `era ${hello.era}; each flooded call ended REQUEST_TIMEOUT at most ${Math.round(slowest)} ms after its ${TIMEOUT_MS} ms`,
    `meanwhile ${healthy.calls} calls to a healthy server from the same process, the slowest ${Math.round(healthy.slowestMs)} ms (slowest ms)`,
    `client warnings: ${codes.join(', ') || 'none'} (one at the 1st, 10th, 100th… dropped request)`,
  ];
  if (server) {
    const stats = await server.stats();
    notes.push(
      `the server saw ${stats.posts} POSTs over at most ${stats.peak} connections at once (the pool's bound: 16)`,
    );
  }
  const slowestMs = healthy.slowestMs;
  // The bound for a client under a flood is its peak (< 300 MiB): an idle client
  // process is not collected, so the settle-back rule of the server cases does not apply.
  return ctx.figure({
    label,
    scale,
    server: client,
    tally,
    before,
    slowestMs,
    notes,
    rss: { peakBelow: 300 * MiB },
  });
}

export async function run(ctx) {
  const rows = [];
  for (const era of ['legacy', 'modern']) {
    const stdio = { transport: 'stdio', command: process.execPath, args: [STDIO_SERVER, era] };
    const version = era === 'legacy' ? '2025-11-25' : '2026-07-28';
    const label = `10${era === 'legacy' ? 'a' : 'b'} client: request flood, stdio, ${version}`;
    rows.push(await flood(ctx, label, { ...stdio, healthy: stdio }));
  }
  const server = await httpServer(ctx, 'legacy');
  const calm = await httpServer(ctx, 'legacy');
  const spec = {
    transport: 'http',
    url: server.url,
    healthy: { transport: 'http', url: calm.url },
  };
  rows.push(await flood(ctx, '10c client: request flood, HTTP, 2025-11-25', spec, server));
  return rows;
}
