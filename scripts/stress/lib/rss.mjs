// Server memory from /proc/<pid>/status: VmRSS (now) and VmHWM (the peak so far).
import { readFileSync } from 'node:fs';
import { sleep } from './time.mjs';

export const MiB = 1024 * 1024;

/** { rss, hwm } in bytes and its threads, or null once the process is gone. */
export function memOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
    const threads = Number(/^Threads:\s+(\d+)/m.exec(status)?.[1]);
    return { rss: kib('VmRSS'), hwm: kib('VmHWM'), threads };
  } catch {
    return null;
  }
}

/**
 * After the clients left: samples VmRSS every `everyMs` for at most `maxMs`, stopping early once
 * it is within `withinBytes` of `before`. Returns the lowest reading (null if the process died).
 * Nothing is forced: the server gets no signal and no GC hint.
 */
export async function settledRss(
  pid,
  before,
  { withinBytes = 50 * MiB, maxMs = 6000, everyMs = 250 } = {},
) {
  const deadline = Date.now() + maxMs;
  let lowest = null;
  for (;;) {
    const mem = memOf(pid);
    if (mem === null) return lowest;
    lowest = lowest === null ? mem.rss : Math.min(lowest, mem.rss);
    if (lowest - before <= withinBytes || Date.now() >= deadline) return lowest;
    await sleep(everyMs);
  }
}

export const mib = (bytes) =>
  bytes === null || bytes === undefined ? 'n/a' : (bytes / MiB).toFixed(1);
