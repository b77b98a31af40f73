// Case B: newline-delimited JSON-RPC over a child's stdin/stdout, pipelined with a window of in-flight ids.
import { performance } from 'node:perf_hooks';
import { checkReply, quickReplyId, requestLine } from './payload.mjs';
import { cpuPerRequest, cpuSeconds, startChild, stopChild } from './children.mjs';

/** Checks one reply line; a sample is parsed and checked in full. Returns [id, problem]. */
function inspect(text, fullCheck) {
  if (!fullCheck) {
    const id = quickReplyId(text);
    return id === null ? [null, 'not a complete 1 KiB text result'] : [id, null];
  }
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    return [null, 'not JSON'];
  }
  return [msg.id, checkReply(msg, msg.id)];
}

/**
 * Sends ids [from, from + n) keeping up to `window` in flight; resolves with per-request latencies
 * (ms) and the elapsed time. Every reply is checked cheaply, one in `n / 20` fully.
 */
function pump(child, from, n, window, timeoutMs) {
  const sentAt = new Float64Array(n);
  const latency = new Float64Array(n);
  const sampleEvery = Math.max(1, Math.floor(n / 20));
  let next = 0;
  let done = 0;
  let pending = '';
  let started = 0;

  return new Promise((resolve, reject) => {
    const finish = (err) => {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('close', onClose);
      if (err) reject(err);
      else resolve({ latency, ms: performance.now() - started });
    };
    const fail = (why) =>
      finish(new Error(`${why} (after ${done}/${n} replies)\n${child.stderrTail}`));
    const onClose = (code, sig) => fail(`child exited (code ${code}, signal ${sig})`);
    const timer = setTimeout(() => fail(`timed out after ${timeoutMs} ms`), timeoutMs);
    const topUp = () => {
      const end = Math.min(n, done + window);
      if (next >= end) return;
      let batch = '';
      for (let i = next; i < end; i++) batch += requestLine(from + i);
      const now = performance.now();
      for (let i = next; i < end; i++) sentAt[i] = now;
      child.stdin.write(batch);
      next = end;
    };
    const onData = (chunk) => {
      const now = performance.now();
      pending += chunk;
      let start = 0;
      let nl;
      while ((nl = pending.indexOf('\n', start)) >= 0) {
        const text = pending.slice(start, nl);
        start = nl + 1;
        if (text.trim() === '') continue;
        const [id, problem] = inspect(text, done % sampleEvery === 0);
        const i = id - from;
        if (problem)
          return fail(
            `wrong reply${id === null ? '' : ` to id ${id}`}: ${problem}\n${text.slice(0, 2000)}`,
          );
        if (!Number.isInteger(i) || i < 0 || i >= next || latency[i] !== 0) {
          return fail(`unexpected or duplicate reply: ${text.slice(0, 2000)}`);
        }
        latency[i] = now - sentAt[i] || Number.MIN_VALUE;
        done++;
      }
      pending = pending.slice(start);
      if (done === n) return finish();
      topUp();
    };
    child.stdout.on('data', onData);
    child.once('close', onClose);
    started = performance.now();
    topUp();
  });
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * Starts `file`, checks one request fully and warms it up. The handle's `measure()` runs one round
 * of `opts.n` pipelined requests; `stop()` ends the child.
 */
export async function startStdioTarget(file, opts) {
  const child = startChild(file);
  child.stdout.setEncoding('utf8');
  try {
    await pump(child, 1, 1, 1, 10_000); // the first message pins the era; it is checked in full
    await pump(child, 2, opts.warmupN, opts.window, 60_000);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  let round = 0;
  const measure = async () => {
    const from = 10_000_000 + round++ * opts.n; // ids stay distinct over the whole session
    const cpuBefore = cpuSeconds(child);
    const { latency, ms } = await pump(child, from, opts.n, opts.window, 120_000);
    const cpuAfter = cpuSeconds(child);
    const sorted = latency.sort();
    return {
      reqPerSec: (opts.n / ms) * 1000,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      cpuUsPerReq: cpuPerRequest(cpuBefore, cpuAfter, opts.n),
      requests: opts.n,
      seconds: ms / 1000,
    };
  };
  return { measure, stop: () => stopChild(child) };
}
