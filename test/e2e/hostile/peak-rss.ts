/**
 * Runs the built CLI as a child process and samples its resident set from /proc while it runs:
 * the peak is a generous bound check for the hostile-list tests (undefined off Linux).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { CLI, ROOT } from '../serve-harness.js';

export interface MeasuredRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Highest VmHWM/VmRSS seen, in bytes (undefined without /proc). */
  peakRss?: number;
  ms: number;
}

function rssOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmHWM:\s+(\d+) kB/.exec(status) ?? /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** `node dist/cli/main.js ...args`, killed after `timeoutMs`. */
export function runMeasured(args: readonly string[], timeoutMs = 90_000): Promise<MeasuredRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: 'pipe',
    });
    const out: Buffer[] = [];
    let stderr = '';
    let peak: number | undefined;
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const proc = existsSync('/proc/self/status');
    const sample = setInterval(() => {
      const rss = proc && child.pid !== undefined ? rssOf(child.pid) : undefined;
      if (rss !== undefined) peak = Math.max(peak ?? 0, rss);
    }, 50);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      clearInterval(sample);
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr,
        ms: Date.now() - started,
        ...(peak === undefined ? {} : { peakRss: peak }),
      });
    });
    child.stdin.end();
  });
}
