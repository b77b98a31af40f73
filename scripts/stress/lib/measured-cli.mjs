// A run of the built CLI as a measured client process (`mcpkit inspect`, `mcpkit audit`): its
// exit code, stdout's size, stderr, and its peak RSS. The peak is getrusage's at its exit (written
// by max-rss-preload.mjs; Node >= 20.6) or, if it died first, the highest VmHWM sampled from
// /proc meanwhile.
import { spawn } from 'node:child_process';
import { memOf } from './rss.mjs';
import { CLI, trackChild } from './server.mjs';

const PRELOAD = new URL('./max-rss-preload.mjs', import.meta.url).href;

/**
 * Resolves { code, signal, stdoutBytes, stdout, stderr, peak, ms }; killed after timeoutMs.
 * stdout is kept whole only with `keepStdout` (else its first 200 characters).
 */
export function runCli(args, { timeoutMs = 60_000, keepStdout = false } = {}) {
  const t0 = performance.now();
  const child = trackChild(
    spawn(process.execPath, ['--import', PRELOAD, CLI, ...args], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    }),
  );
  let stdoutBytes = 0;
  const kept = [];
  let stderr = '';
  let report = '';
  let sampled = 0;
  child.stdout.on('data', (chunk) => {
    stdoutBytes += chunk.length;
    if (keepStdout || kept.length === 0) kept.push(chunk);
  });
  child.stderr.setEncoding('utf8').on('data', (s) => (stderr = (stderr + s).slice(-8192)));
  child.stdio[3].setEncoding('utf8').on('data', (s) => (report += s));
  // A zombie's status has no VmHWM (NaN): only real readings count.
  const sample = setInterval(() => {
    const hwm = memOf(child.pid)?.hwm;
    if (hwm > 0) sampled = Math.max(sampled, hwm);
  }, 25);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearInterval(sample);
      clearTimeout(timer);
      let maxRss = 0;
      try {
        maxRss = JSON.parse(report).maxRss;
      } catch {
        // died before its exit hook: the sampled peak is all there is
      }
      resolve({
        code,
        signal,
        stdoutBytes,
        stdout: keepStdout
          ? Buffer.concat(kept).toString('utf8')
          : (kept[0]?.toString('utf8', 0, 200) ?? ''),
        stderr,
        peak: Math.max(maxRss, sampled) || null,
        ms: performance.now() - t0,
      });
    });
  });
}
