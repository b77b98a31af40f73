/** Progress of indexing a folder, on stderr: only when it takes a while, throttled. */
import type { IndexProgress } from '../providers/filesystem/index.js';

export interface ProgressOptions {
  write: (text: string) => void;
  /** Rewrite one line in place (a terminal) instead of printing lines. */
  tty: boolean;
  label: string;
  /** Say nothing for walks shorter than this (default 300 ms). */
  delayMs?: number;
  /** Least time between two reports (default 250 ms on a terminal, 2 s otherwise). */
  intervalMs?: number;
  now?: () => number;
}

export interface ProgressReporter {
  update(progress: IndexProgress): void;
}

/** Reports walks of the folder; the final line says how many files and how long, if anything was shown. */
export function createProgressReporter(options: ProgressOptions): ProgressReporter {
  const now = options.now ?? Date.now;
  const delay = options.delayMs ?? 300;
  const interval = options.intervalMs ?? (options.tty ? 250 : 2000);
  let started: number | undefined;
  let last = -Infinity;
  let shown = false;
  const count = (n: number): string => n.toLocaleString('en-US');
  return {
    update(p) {
      const t = now();
      started ??= t;
      if (p.done) {
        if (shown) {
          const secs = ((t - started) / 1000).toFixed(1);
          options.write(
            `${options.tty ? '\r\x1b[K' : ''}${options.label}: ${count(p.files)} files in ${count(p.directories)} folders, ${secs} s\n`,
          );
        }
        started = undefined;
        shown = false;
        last = -Infinity;
        return;
      }
      if (t - started < delay || t - last < interval) return;
      last = t;
      shown = true;
      const line = `${options.label}: ${count(p.files)} files in ${count(p.directories)} folders so far…`;
      options.write(options.tty ? `\r\x1b[K${line}` : `${line}\n`);
    },
  };
}
