// Starts real `mcpkit serve` processes (the built CLI) and guarantees they die with the run.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inspectorUrl } from './inspector.mjs';

export const CLI = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));
const live = new Set();
let helpFlags;

/** The options `mcpkit --help` lists right now (the flags being added appear when documented). */
export function listedFlags() {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  helpFlags ??= new Set(
    execFileSync(process.execPath, [CLI, '--help'], { encoding: 'utf8', timeout: 10_000 }).match(
      /--[a-z][a-z-]*/g,
    ),
  );
  return helpFlags;
}

/** Splits wanted options into the arguments to pass (listed in --help) and those left out. */
export function pickFlags(wanted = {}) {
  const listed = listedFlags();
  const args = [];
  const used = [];
  const missing = [];
  for (const [flag, value] of Object.entries(wanted)) {
    if (!listed.has(flag)) {
      missing.push(flag);
      continue;
    }
    args.push(flag, String(value));
    used.push(`${flag} ${value}`);
  }
  return { args, used, missing };
}

/** Whether servers start with an inspector on 127.0.0.1 (for the after-GC diagnostic only). */
export const inspect = { enabled: true };

/** Any other child of the run (a writer process): killed with the servers on every exit path. */
export function trackChild(child) {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

function spawnServe(dir, args) {
  return spawnMeasured([CLI, 'serve', dir, '--quiet', ...args]);
}

/**
 * `node ...args`, a measured process of the run: piped stdio, its stderr's tail kept, with an
 * inspector for the after-GC diagnostic unless disabled; killed with the servers.
 */
export function spawnMeasured(args) {
  const node = inspect.enabled ? ['--inspect=127.0.0.1:0'] : [];
  const child = spawn(process.execPath, [...node, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  child.stderrTail = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s) => {
    child.stderrTail = (child.stderrTail + s).slice(-4096);
    child.inspector ??= inspectorUrl(child.stderrTail);
  });
  child.stdin.on('error', () => {}); // EPIPE when it dies: reported through 'exit'
  return trackChild(child);
}

/**
 * `mcpkit serve DIR --http 127.0.0.1:0`; resolves once it printed its URL (its first stdout
 * line). `flags` maps option to value; only those --help lists are passed.
 */
export function startHttpServer(dir, flags = {}, timeoutMs = 15_000) {
  const picked = pickFlags(flags);
  const child = spawnServe(dir, ['--http', '127.0.0.1:0', ...picked.args]);
  return new Promise((resolve, reject) => {
    let out = '';
    const fail = (why) => {
      clearTimeout(timer);
      stopServer({ child });
      reject(new Error(`mcpkit serve: ${why}\n${child.stderrTail}`));
    };
    const onExit = (code, signal) => fail(`exited early (code ${code}, signal ${signal})`);
    const timer = setTimeout(() => fail(`no URL printed within ${timeoutMs} ms`), timeoutMs);
    child.once('exit', onExit);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', function onData(s) {
      out += s;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      clearTimeout(timer);
      child.off('exit', onExit);
      const url = new URL(out.slice(0, nl).trim());
      if (url.hostname !== '127.0.0.1') return fail(`printed ${url}, not a 127.0.0.1 URL`);
      resolve({ child, pid: child.pid, url, flags: picked });
    });
  });
}

/** `mcpkit serve DIR --stdio`: the caller owns child.stdin and child.stdout. */
export function startStdioServer(dir, flags = {}) {
  const picked = pickFlags(flags);
  const child = spawnServe(dir, ['--stdio', ...picked.args]);
  return { child, pid: child.pid, flags: picked };
}

export const isRunning = ({ child }) => child.exitCode === null && child.signalCode === null;

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
export function stopServer({ child }, graceMs = 2000) {
  if (!isRunning({ child })) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export const stopAllServers = () => Promise.all([...live].map((child) => stopServer({ child })));

// Last line of defence: whatever way the run ends, no server outlives it.
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});
