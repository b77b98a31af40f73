// Case A: Streamable HTTP, autocannon (in this process) against a server child.
import autocannon from 'autocannon';
import { HTTP_HEADERS, HTTP_PATH, checkReply, request } from './payload.mjs';
import { cpuPerRequest, cpuSeconds, startHttpChild, stopChild } from './children.mjs';

const BODY = JSON.stringify(request(1));

/** Sends one request with fetch; returns the raw body text or throws with what came back. */
async function verify(url, id) {
  const body = JSON.stringify(request(id));
  const signal = AbortSignal.timeout(10_000);
  const res = await fetch(url, { method: 'POST', headers: HTTP_HEADERS, body, signal });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const shown = `HTTP ${res.status} content-type: ${type}\n${text.slice(0, 2000)}`;
  if (res.status !== 200) throw new Error(`expected HTTP 200, got:\n${shown}`);
  if (!type.startsWith('application/json'))
    throw new Error(`expected application/json, got:\n${shown}`);
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    throw new Error(`body is not JSON:\n${shown}`);
  }
  const problem = checkReply(msg, id);
  if (problem) throw new Error(`${problem}\nfull reply:\n${shown}`);
  return text;
}

const cannon = (url, opts) =>
  autocannon({
    url,
    method: 'POST',
    headers: HTTP_HEADERS,
    body: BODY,
    connections: opts.connections,
    duration: opts.duration,
    expectBody: opts.expectBody, // every reply must be byte-identical to the verified one
  });

/**
 * Starts `file`, verifies its reply and warms it up. The handle's `measure()` runs one round of
 * `opts.duration / opts.repeat` seconds; `stop()` ends the child.
 */
export async function startHttpTarget(file, opts) {
  const { child, port } = await startHttpChild(file);
  const url = `http://127.0.0.1:${port}${HTTP_PATH}`;
  let expectBody;
  try {
    await verify(url, 'verify-7'); // the id must be echoed, not hard-coded
    expectBody = await verify(url, 1); // the exact body autocannon will send
    await cannon(url, { ...opts, duration: opts.warmup, expectBody });
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  const measure = async () => {
    const cpuBefore = cpuSeconds(child);
    const r = await cannon(url, { ...opts, duration: opts.duration / opts.repeat, expectBody });
    const cpuAfter = cpuSeconds(child);
    const bad = r.non2xx + r.errors + r.timeouts + r.mismatches;
    if (bad > 0 || r.requests.total === 0) {
      throw new Error(
        `unhealthy run: ${r.requests.total} requests, non2xx ${r.non2xx}, errors ${r.errors}, ` +
          `timeouts ${r.timeouts}, body mismatches ${r.mismatches}\n${child.stderrTail}`,
      );
    }
    return {
      reqPerSec: r.requests.total / r.duration,
      p50: r.latency.p50,
      p99: r.latency.p99,
      cpuUsPerReq: cpuPerRequest(cpuBefore, cpuAfter, r.requests.total),
      requests: r.requests.total,
      seconds: r.duration,
      replyBytes: Buffer.byteLength(expectBody),
    };
  };
  return { measure, stop: () => stopChild(child) };
}
