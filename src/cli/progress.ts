/**
 * Progress of background work on stderr (the folder's walk, its index build): one line with a
 * counter per task, rewritten in place on a terminal, plain lines at most every few seconds
 * otherwise. Nothing is shown for work that ends quickly.
 */
import { formatBytes } from '../providers/filesystem/index.js';

export interface ProgressOptions {
  write: (text: string) => void;
  /** Rewrite one line in place (a terminal) instead of printing lines. */
  tty: boolean;
  /** What the line is about, e.g. the folder: `${label}: walked 41,200 files …`. */
  label: string;
  /** Say nothing for work shorter than this (default 300 ms). */
  delayMs?: number;
  /** Least time between two lines (default 250 ms on a terminal, 3 s otherwise). */
  intervalMs?: number;
  /**
   * How often the line is redrawn without news (default `intervalMs`; 0: only on updates): a
   * task stuck on a slow disk still shows where it stands and its falling rate.
   */
  tickMs?: number;
  now?: () => number;
}

/** How a counter shows its rate: items per second, or bytes per second. */
export type RateUnit = 'items' | 'bytes';

export interface CounterOptions {
  /** The verb of the counter: `walked`, `indexed`. */
  verb: string;
  /** What is counted (default `files`). */
  noun?: string;
  /** The rate shown (default `items`: `8,240 files/s`; `bytes`: `35.1 MiB/s`). */
  rate?: RateUnit;
}

/** Where a counter stands. */
export interface CounterState {
  /** Items done so far. */
  count: number;
  /** Bytes done so far (needed for a `bytes` rate). */
  bytes?: number;
  /** Items to do in all, once known: shown as `of N` with an ETA. */
  total?: number;
}

/** One task's counter on the progress line. */
export interface ProgressCounter {
  update(state: CounterState): void;
  /**
   * The task is done. When its progress was shown, one last line says so: `summary` (e.g. `in
   * 3,500 folders`) follows the count, then the time taken.
   */
  finish(state: CounterState, summary?: string): void;
}

export interface ProgressReporter {
  /** A new counter, shown after those added before it until it finishes. */
  counter(options: CounterOptions): ProgressCounter;
  /** Writes a line of its own (a warning), above the progress line on a terminal. */
  log(line: string): void;
}

interface Task {
  options: CounterOptions;
  state: CounterState;
  started: number;
  shown: boolean;
}

const count = (n: number): string => Math.round(n).toLocaleString('en-US');

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** `walked 41,200 files (8,240 files/s)`; with a total, `of N` and an ETA. */
function describe(task: Task, now: number): string {
  const { verb, noun = 'files', rate = 'items' } = task.options;
  const { count: done, bytes, total } = task.state;
  const secs = (now - task.started) / 1000;
  const parts: string[] = [];
  if (secs > 0) {
    if (rate === 'bytes' && bytes !== undefined) parts.push(`${formatBytes(bytes / secs)}/s`);
    else parts.push(`${count(done / secs)} ${noun}/s`);
    if (total !== undefined && done > 0 && total > done)
      parts.push(`ETA ${duration(((total - done) / done) * secs * 1000)}`);
  }
  const of = total !== undefined ? ` of ${count(total)}` : '';
  return `${verb} ${count(done)}${of} ${noun}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

/**
 * One progress line for several tasks.
 *
 * @example
 * const progress = createProgressReporter({ write: (t) => process.stderr.write(t), tty: false, label: dir });
 * const walked = progress.counter({ verb: 'walked' });
 * walked.update({ count: 41_200 });
 * walked.finish({ count: 100_000, bytes }, 'in 3,500 folders');
 */
export function createProgressReporter(options: ProgressOptions): ProgressReporter {
  const now = options.now ?? Date.now;
  const delay = options.delayMs ?? 300;
  const interval = options.intervalMs ?? (options.tty ? 250 : 3000);
  const tasks: Task[] = [];
  const tick = options.tickMs ?? interval;
  let timer: ReturnType<typeof setInterval> | undefined;
  let last = -Infinity;
  const clear = options.tty ? '\r\x1b[K' : '';

  const draw = (t: number, force: boolean): void => {
    const due = tasks.filter((task) => t - task.started >= delay && task.state.count > 0);
    if (due.length === 0 || (!force && t - last < interval)) return;
    last = t;
    for (const task of due) task.shown = true;
    const line = `${options.label}: ${due.map((task) => describe(task, t)).join(' · ')}`;
    options.write(options.tty ? `${clear}${line}` : `${line}\n`);
  };

  const redraw = (): void => {
    if (options.tty && tasks.some((task) => task.shown)) draw(now(), true);
  };

  return {
    log(line) {
      options.write(`${clear}${line}\n`);
      redraw();
    },
    counter(counterOptions) {
      const task: Task = {
        options: counterOptions,
        state: { count: 0 },
        started: now(),
        shown: false,
      };
      tasks.push(task);
      if (tick > 0 && timer === undefined) {
        timer = setInterval(() => draw(now(), false), tick);
        timer.unref?.();
      }
      return {
        update(state) {
          task.state = state;
          draw(now(), false);
        },
        finish(state, summary) {
          const at = tasks.indexOf(task);
          if (at < 0) return;
          tasks.splice(at, 1);
          if (tasks.length === 0) {
            clearInterval(timer);
            timer = undefined;
          }
          if (!task.shown) return;
          const { verb, noun = 'files' } = task.options;
          const size = state.bytes !== undefined ? ` (${formatBytes(state.bytes)})` : '';
          const more = summary !== undefined ? ` ${summary}` : '';
          const took = ((now() - task.started) / 1000).toFixed(1);
          options.write(
            `${clear}${options.label}: ${verb} ${count(state.count)} ${noun}${size}${more}, ${took} s\n`,
          );
          // The tasks still running get their line back at once.
          redraw();
        },
      };
    },
  };
}
