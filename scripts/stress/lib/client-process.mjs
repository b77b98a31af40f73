// A client-side case's measured process: a Node script (an McpClient of dist/) that reports on
// stdout one JSON line at a time, and stays alive until its stdin ends so that its memory can
// be read after the load.
import { createInterface } from 'node:readline';
import { spawnMeasured } from './server.mjs';

/** Reads a stream's lines one at a time: `next(ms)` resolves with the next, or rejects after ms. */
export function lineReader(stream) {
  const lines = createInterface({ input: stream });
  const queue = [];
  const waiting = [];
  lines.on('line', (line) => (waiting.length > 0 ? waiting.shift()(line) : queue.push(line)));
  return (ms) =>
    queue.length > 0
      ? Promise.resolve(queue.shift())
      : new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no line within ${ms} ms`)), ms);
          waiting.push((line) => {
            clearTimeout(timer);
            resolve(line);
          });
        });
}

/**
 * `node SCRIPT JSON(spec)`, shaped as the figure's `server` (the process measured): `next(ms)`
 * reads its next stdout line; with an inspector for the after-GC diagnostic unless disabled.
 */
export function startClient(script, spec) {
  const child = spawnMeasured([script, JSON.stringify(spec)]);
  return {
    child,
    pid: child.pid,
    flags: { used: [], missing: [] },
    next: lineReader(child.stdout),
  };
}
