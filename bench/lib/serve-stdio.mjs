// stdio side of the serve cases: a session on a server child's stdin/stdout that can make single
// calls (capture, verification) and pump a workload pipelined, a window of requests in flight,
// for a fixed time. Replies are split on newlines without copying; each one's length must equal
// the verified answer's for its request (id digits adjusted), and a sample is parsed and checked.
import { performance } from 'node:perf_hooks';
import { checkAnswer, requestParts, requestText } from './serve-requests.mjs';
import { cpuPerRequest, cpuSeconds, startChild, stopChild } from './children.mjs';

const EDGE = 96; // bytes kept from each end of a line: the id is near one end
const ID = /"id":(-?\d+|"(?:[^"\\]|\\.)*")/;

/** The id of a reply from its first or last bytes (mcpkit writes it first, the SDK last). */
function idOf(head, tail) {
  const m = ID.exec(head) ?? ID.exec(tail);
  return m ? JSON.parse(m[1]) : undefined;
}

/** Starts `file args` and returns a session: `call(item, id)`, `pump(...)`, `stop()`. */
export function stdioSession(file, args) {
  const child = startChild(file, args);
  let parts = [];
  let length = 0;
  let onLine = () => {};
  child.stdout.on('data', (chunk) => {
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(10, pos);
      const end = nl < 0 ? chunk.length : nl;
      if (end > pos) {
        parts.push(chunk.subarray(pos, end));
        length += end - pos;
      }
      if (nl < 0) break;
      pos = nl + 1;
      const line = parts;
      const n = length;
      parts = [];
      length = 0;
      if (n > 0) onLine(line, n);
    }
  });
  const edges = (line) => {
    const whole = line.length === 1 ? line[0] : null;
    const all = () => whole ?? Buffer.concat(line);
    const b = whole ?? (line[0].length >= EDGE && line.at(-1).length >= EDGE ? null : all());
    const head = (b ?? line[0]).subarray(0, EDGE).toString('latin1');
    const last = b ?? line.at(-1);
    return { head, tail: last.subarray(Math.max(0, last.length - EDGE)).toString('latin1'), all };
  };
  const waiting = new Map();
  const dispatch = (line) => {
    const e = edges(line);
    const id = idOf(e.head, e.tail);
    const w = waiting.get(id);
    if (w) {
      waiting.delete(id);
      w.resolve(e.all().toString('utf8'));
    }
  };
  onLine = dispatch;
  child.once('close', (code, sig) => {
    for (const w of waiting.values())
      w.reject(new Error(`child exited (code ${code}, signal ${sig})\n${child.stderrTail}`));
    waiting.clear();
  });

  /** Sends one request; resolves with the raw reply line (no newline). */
  const call = (it, id, timeoutMs = 30_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`no reply to ${id} within ${timeoutMs} ms\n${child.stderrTail}`));
      }, timeoutMs);
      waiting.set(id, {
        resolve: (text) => (clearTimeout(timer), resolve(text)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      child.stdin.write(requestText(it, id) + '\n');
    });

  /**
   * Sends `order` (indices into `items`, cycled) from id `from` on for `seconds`, then waits for
   * what is still in flight. In flight: up to `window`, and no more than ~100 ms of work at the
   * rate seen so far (at least 8), so that a slow target (a search at 20/s) stays busy but does
   * not leave 256 requests, many seconds of work, to drain after the round. With `once`, `order` is
   * sent once and the round ends at its last answer (`seconds` is then only a cap). `expected[i]` is the verified length
   * of item i's answer for an id of `refDigits[i]` digits. Resolves with the round's figures; rejects on a wrong reply.
   */
  const pump = ({ items, order, from, seconds, window, expected, refDigits, once = false }) => {
    const limit = once ? order.length : Infinity;
    const parts = items.map(requestParts);
    // ASCII requests (all of the fixture's) are cheaper to write as latin1.
    const enc = parts.every((p) => /^[\x00-\x7f]*$/.test(p[0] + p[1])) ? 'latin1' : 'utf8';
    let cap = 1 << 16;
    let sentAt = new Float64Array(cap);
    let itemOf = new Int32Array(cap);
    let latency = new Float64Array(cap);
    let next = 0;
    let done = 0;
    let stopAt = Infinity;
    let started = 0;
    let last = 0;
    const cpuBefore = cpuSeconds(child);
    const ownBefore = process.cpuUsage();
    let inFlight = 8;
    let inFlightMax = 8;
    return new Promise((resolve, reject) => {
      const finish = (err) => {
        clearTimeout(guard);
        child.off('close', onClose);
        onLine = dispatch;
        if (err) return reject(err);
        const ms = last - started;
        const own = process.cpuUsage(ownBefore);
        const sorted = latency.subarray(0, done).sort();
        const pct = (p) => sorted[Math.min(done - 1, Math.ceil((p / 100) * done) - 1)];
        resolve({
          reqPerSec: (done / ms) * 1000,
          p50: pct(50),
          p99: pct(99),
          cpuUsPerReq: cpuPerRequest(cpuBefore, cpuSeconds(child), done),
          requests: done,
          seconds: ms / 1000,
          loaderCpu: (own.user + own.system) / 1000 / ms, // this process: writes, reads, checks
          window: inFlightMax,
        });
      };
      const fail = (why) =>
        finish(new Error(`${why} (after ${done} replies)\n${child.stderrTail}`));
      const onClose = (code, sig) => fail(`child exited (code ${code}, signal ${sig})`);
      const guard = setTimeout(
        () => fail('no end within the round + 60 s'),
        seconds * 1000 + 60_000,
      );
      const grow = () => {
        cap *= 2;
        const g = (a, Type) => {
          const b = new Type(cap);
          b.set(a);
          return b;
        };
        sentAt = g(sentAt, Float64Array);
        itemOf = g(itemOf, Int32Array);
        latency = g(latency, Float64Array);
      };
      const topUp = (now) => {
        if (now >= stopAt) return;
        let batch = '';
        while (next - done < inFlight && next < limit) {
          if (next === cap) grow();
          const i = order[next % order.length];
          itemOf[next] = i;
          sentAt[next] = now;
          batch += parts[i][0] + (from + next) + parts[i][1];
          next++;
        }
        if (batch) child.stdin.write(batch, enc);
      };
      onLine = (line, n) => {
        const now = performance.now();
        const e = edges(line);
        const id = idOf(e.head, e.tail);
        const k = id - from;
        if (!Number.isInteger(k) || k < 0 || k >= next || latency[k] !== 0)
          return fail(`unexpected or duplicate reply: ${e.head}...${e.tail}`);
        const it = itemOf[k];
        const want = expected[it] - refDigits[it] + String(id).length;
        if (n !== want) {
          const shown = e.all().toString('utf8').slice(0, 1500);
          return fail(
            `reply to ${id} (${items[it].key.slice(0, 100)}) is ${n} bytes, expected ${want}:\n${shown}`,
          );
        }
        if (done % 64 === 0) {
          const problem = checkAnswer(JSON.parse(e.all().toString('utf8')), id, items[it]);
          if (problem) return fail(`wrong reply to ${id}: ${problem}`);
        }
        latency[k] = now - sentAt[k] || Number.MIN_VALUE;
        done++;
        last = now;
        inFlight = Math.min(window, Math.max(8, Math.ceil((done / (now - started)) * 100)));
        if (inFlight > inFlightMax) inFlightMax = inFlight;
        if ((now >= stopAt || next >= limit) && done === next) return finish();
        topUp(now);
      };
      child.once('close', onClose);
      started = performance.now();
      stopAt = started + seconds * 1000;
      topUp(started);
    });
  };
  return { child, call, pump, stop: () => stopChild(child) };
}
