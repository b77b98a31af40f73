// Runs inside a client child (bench/clients/*.mjs): takes orders from the bench over IPC, reads
// the 1 KiB resource sequentially or with a window in flight, and measures its own CPU
// (process.cpuUsage: user + system of every thread of this process) per completed request.
import { performance } from 'node:perf_hooks';
import { TEXT_1K } from './payload.mjs';

const percentile = (sorted, p) =>
  sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * Reads until `seconds` have passed, `inflight` requests at a time (1: one after the other).
 * Every answer must carry the 1 KiB text; any failure is counted and the first one kept.
 */
async function readFor(conn, seconds, inflight) {
  let latencies = new Float64Array(1 << 16);
  let done = 0;
  let failed = 0;
  let firstError;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline && failed === 0) {
      const t0 = performance.now();
      try {
        const text = await conn.read();
        if (text !== TEXT_1K) throw new Error(`wrong text: ${JSON.stringify(text)?.slice(0, 200)}`);
      } catch (err) {
        failed++;
        firstError ??= err;
        continue;
      }
      if (done === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[done++] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: inflight }, worker));
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const sorted = latencies.subarray(0, done).sort();
  return {
    requests: done,
    failed,
    error: firstError ? String(firstError.stack ?? firstError) : undefined,
    seconds: ms / 1000,
    reqPerSec: (done / ms) * 1000,
    cpuUs: cpu.user + cpu.system,
    cpuUsPerReq: done ? (cpu.user + cpu.system) / done : null,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

/**
 * `kind.open(spec)` connects (spec: { transport: 'http', url } or { transport: 'stdio', command,
 * args }) and resolves with { read(): Promise<text>, count?(): Promise<number>, describe, close() }.
 * `count` (stdio, where the client owns its server) asks that server how many reads it answered.
 */
export function serveDriver(kind) {
  let conn;
  const ops = {
    async open(msg) {
      conn = await kind.open(msg.spec);
      const text = await conn.read();
      if (text !== TEXT_1K) throw new Error(`first read: wrong text ${String(text).slice(0, 200)}`);
      return { describe: conn.describe };
    },
    run: (msg) => readFor(conn, msg.seconds, msg.inflight),
    count: async () => ({ answered: conn.count ? await conn.count() : null }),
    async close() {
      await conn?.close();
      conn = undefined;
      return {};
    },
  };
  process.on('message', async (msg) => {
    let reply;
    try {
      reply = { id: msg.id, ok: true, ...(await ops[msg.op](msg)) };
    } catch (err) {
      reply = { id: msg.id, ok: false, error: String(err?.stack ?? err) };
    }
    process.send(reply);
  });
  process.on('disconnect', () => process.exit(0)); // the bench went away
  process.send({ ready: true });
}
