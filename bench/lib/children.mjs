// Starts the server children and guarantees they all die with the bench, even on failure.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const live = new Set();
const SERVERS = new URL('../servers/', import.meta.url);
// BENCH_NODE_FLAGS: node flags for every server child, to profile one ('--cpu-prof ...').
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);

/**
 * Spawns `node bench/servers/<file> ...args` (`file` may also be a URL of any script, such as
 * the CLI); stderr is kept (last 4 KiB) for error messages. `ipc: true` adds a message channel.
 */
export function startChild(file, args = [], { ipc = false } = {}) {
  const child = spawn(
    process.execPath,
    [...NODE_FLAGS, fileURLToPath(new URL(file, SERVERS)), ...args],
    {
      stdio: ['pipe', 'pipe', 'pipe', ...(ipc ? ['ipc'] : [])],
    },
  );
  child.stderrTail = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s) => (child.stderrTail = (child.stderrTail + s).slice(-4096)));
  child.stdin.on('error', () => {}); // EPIPE if it dies; reported via 'exit'
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** The port of a server's first line: a port, or a URL (as `mcpkit serve` prints it). */
function portOf(line) {
  if (/^\d+$/.test(line)) return Number(line);
  try {
    return Number(new URL(line).port);
  } catch {
    return NaN;
  }
}

/** Starts an HTTP server child and resolves with its port (the first line it prints). */
export function startHttpChild(file, timeoutMs = 10_000, args = []) {
  const child = startChild(file, args);
  return new Promise((resolve, reject) => {
    let out = '';
    const onExit = (code, sig) => fail(`exited early (code ${code}, signal ${sig})`);
    const fail = (why) => {
      clearTimeout(timer);
      child.off('close', onExit);
      stopChild(child);
      reject(new Error(`${file}: ${why}\n${child.stderrTail}`));
    };
    const timer = setTimeout(() => fail(`no port printed within ${timeoutMs} ms`), timeoutMs);
    child.once('close', onExit);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', function onData(s) {
      out += s;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      child.stdout.off('data', onData);
      child.stdout.resume(); // keep draining whatever else it prints
      const port = portOf(out.slice(0, nl).trim());
      if (!Number.isInteger(port) || port <= 0)
        return fail(`printed ${JSON.stringify(out.slice(0, nl))}, not a port`);
      clearTimeout(timer);
      child.off('close', onExit);
      resolve({ child, port });
    });
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the child is gone. */
export function stopChild(child, graceMs = 1000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export const stopAll = () => Promise.all([...live].map((c) => stopChild(c)));

// Last line of defence: synchronous kill on any exit path of the bench itself.
process.on('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    for (const c of live) c.kill('SIGKILL');
    process.exit(130);
  });
}

/** CPU seconds (user + system, all threads) a child has used so far; null where /proc is absent. */
export function cpuSeconds(child) {
  try {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, USER_HZ = 100 on Linux
  } catch {
    return null;
  }
}

/** Server CPU microseconds per request between two cpuSeconds() readings. */
export const cpuPerRequest = (before, after, requests) =>
  before === null || after === null ? null : ((after - before) * 1e6) / requests;
