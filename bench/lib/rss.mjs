// A server child's resident memory, from /proc (Linux): now, and its peak over a stretch of work.
import { readFileSync, writeFileSync } from 'node:fs';

const MiB = 1024 * 1024;

/** VmRSS and VmHWM of `pid` in bytes (null where /proc is absent). */
export function memoryOf(pid) {
  let status;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') * 1024, hwm: kib('VmHWM') * 1024 };
}

/** Resets the peak (VmHWM) of `pid` to its RSS now; false when that is not permitted. */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Watches the peak RSS of `pid` from now until `stop()`, which returns it in bytes: the kernel's
 * high-water mark when it can be reset, and in any case the largest of VmRSS samples taken every
 * `everyMs` (which can miss a short peak while this process is busy).
 */
export function watchPeak(pid, everyMs = 5) {
  const exact = resetPeak(pid);
  let sampled = memoryOf(pid)?.rss ?? 0;
  const timer = setInterval(() => {
    const now = memoryOf(pid)?.rss ?? 0;
    if (now > sampled) sampled = now;
  }, everyMs);
  return {
    exact,
    stop() {
      clearInterval(timer);
      const m = memoryOf(pid);
      return Math.max(sampled, m?.rss ?? 0, exact ? (m?.hwm ?? 0) : 0);
    },
  };
}

/** The RSS of `pid` once it has been left alone for `quietMs`: the smallest of a few samples. */
export async function idleRss(pid, quietMs) {
  await new Promise((resolve) => setTimeout(resolve, quietMs));
  let least = Infinity;
  for (let i = 0; i < 5; i++) {
    least = Math.min(least, memoryOf(pid)?.rss ?? Infinity);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return least;
}

export const mib = (bytes) => bytes / MiB;
