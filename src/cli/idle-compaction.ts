/**
 * Gives memory back when `mcpkit serve` goes idle after a burst. V8 collects garbage when it
 * allocates, so a server whose clients have gone keeps the garbage of their last burst (tens to
 * hundreds of MiB) for as long as nobody calls it. Once the event loop has been idle for a
 * while and the heap has grown since the last collection, one full collection returns it.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface IdleCompactionOptions {
  /** How often to look (default 1 s). */
  everyMs?: number;
  /** Idle means the event loop was busy less than this share of the last look (default 2%). */
  idleUtilization?: number;
  /** Collect only when heap and external memory grew this much since the last collection (default 16 MiB). */
  minGrowthBytes?: number;
  /** Seams for tests. */
  utilization?: () => number;
  heapUsed?: () => number;
  collect?: () => void;
}

/** A full collection, from V8 itself (`--expose-gc` set at run time; no flag to pass to node). */
export function v8Collect(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Event-loop utilization since the previous call (0 to 1). */
function utilizationSinceLast(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(now, last);
    last = now;
    return delta.utilization;
  };
}

/** Starts looking; returns the function that stops. */
export function startIdleCompaction(options: IdleCompactionOptions = {}): () => void {
  const utilization = options.utilization ?? utilizationSinceLast();
  // External memory counts too: request bodies and encoded files are Buffers off the heap.
  const heapUsed =
    options.heapUsed ??
    (() => {
      const m = process.memoryUsage();
      return m.heapUsed + m.external;
    });
  const collect = options.collect ?? v8Collect();
  const idle = options.idleUtilization ?? 0.02;
  const growth = options.minGrowthBytes ?? 16 * 1024 * 1024;
  let floor = heapUsed();
  const timer = setInterval(() => {
    const busy = utilization();
    const used = heapUsed();
    if (used < floor) floor = used;
    if (busy >= idle || used - floor < growth) return;
    collect();
    floor = heapUsed();
  }, options.everyMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}
