// A client-side case's measured process: a Node script (an McpClient of dist/) that reports on
// stdout one JSON line at a time, and stays alive until its stdin ends so that its memory can
// be read after the load.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { inspectorUrl } from './inspector.mjs';
import { inspect, trackChild } from './server.mjs';

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
  const node = inspect.enabled ? ['--inspect=127.0.0.1:0'] : [];
  const child = spawn(process.execPath, [...node, script, JSON.stringify(spec)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  child.stderrTail = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s) => {
    child.stderrTail = (child.stderrTail + s).slice(-4096);
    child.inspector ??= inspectorUrl(child.stderrTail);
  });
  child.stdin.on('error', () => {});
  trackChild(child);
  return {
    child,
    pid: child.pid,
    flags: { used: [], missing: [] },
    next: lineReader(child.stdout),
  };
}
