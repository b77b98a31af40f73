// The three targets of the serve cases, over HTTP or stdio, behind one handle:
//   mcpkit  the real CLI, `node dist/cli/bin.cjs serve DIR --http 127.0.0.1:0 | --stdio --quiet`
//   sdk     bench/servers/serve-sdk.mjs DIR (the official SDK v2 server, equivalent handlers)
//   bare    bench/servers/serve-bare-{http,stdio}.mjs TABLE (replays mcpkit's captured answers)
//   worker  bench/servers/serve-worker.mjs DIR EXTRAS (reads the file per request, no cache)
//   guarded the same with --guarded (a guarded read's syscalls and checks, on the main thread)
// handle.call(item, id) sends one request and returns the raw answer text (HTTP: after checking
// status 200 and a JSON content type); handle.measure(...) runs one timed round.
import { writeFileSync } from 'node:fs';
import { HTTP_PATH } from './payload.mjs';
import { cpuPerRequest, cpuSeconds, startHttpChild, stopChild } from './children.mjs';
import { httpRequest, load } from './load-http.mjs';
import { checkAnswer, requestText } from './serve-requests.mjs';
import { stdioSession } from './serve-stdio.mjs';

const CLI = new URL('../../dist/cli/bin.cjs', import.meta.url);

/** The command of `target` over `transport`: [file, args]. */
function command(target, transport, { dir, tableFile, extrasFile }) {
  if (target === 'mcpkit')
    return [
      CLI,
      [
        'serve',
        dir,
        ...(transport === 'http' ? ['--http', '127.0.0.1:0'] : ['--stdio']),
        '--quiet',
      ],
    ];
  if (target === 'sdk') return ['serve-sdk.mjs', [dir, `--${transport}`]];
  if (target === 'worker') return ['serve-worker.mjs', [dir, `--${transport}`, extrasFile]];
  if (target === 'guarded')
    return ['serve-worker.mjs', [dir, `--${transport}`, extrasFile, '--guarded']];
  return [`serve-bare-${transport}.mjs`, [tableFile]];
}

/**
 * Waits until `child` is idle (at most one 10 ms CPU tick in 100 ms), at most `capMs`: a round
 * cut off with requests still queued (a slow search) must not go on eating the CPU of the next.
 */
export async function quiet(child, capMs = 5000) {
  const end = Date.now() + capMs;
  let before = cpuSeconds(child);
  while (before !== null && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    const now = cpuSeconds(child);
    if (now === null || now - before <= 0.01) return;
    before = now;
  }
}

/** The id a workload's item `i` is sent with (verification and load alike). */
export const idFor = (i) => i + 1;

async function httpTarget(file, args, loader, opts) {
  const { child, port } = await startHttpChild(file, 15_000, args);
  const url = `http://127.0.0.1:${port}${HTTP_PATH}`;
  const call = async (it, id) => {
    const { headers, body } = httpRequest(it, id, requestText);
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    if (res.status !== 200 || !type.startsWith('application/json'))
      throw new Error(`HTTP ${res.status} ${type}: ${text.slice(0, 1000)}`);
    return text;
  };
  /**
   * One round: `order` (item indices) cycled; `lengths[i]` the verified length of item i. A
   * warm-up (`warm`) may complete nothing: 50 slow searches sharing one core can all outlast it.
   */
  const measure = async ({ items, order, seconds, lengths, warm = false, once, connections }) => {
    const requests = order.map((i) => httpRequest(items[i], idFor(i), requestText));
    const valid = new Set(order.map((i) => lengths[i]));
    const before = cpuSeconds(child);
    const r = await load(loader, {
      url,
      requests,
      lengths: valid,
      connections: connections ?? opts.connections,
      seconds,
      once,
    });
    const cpuUsPerReq = cpuPerRequest(before, cpuSeconds(child), r.requests);
    await quiet(child);
    if (r.requests === 0 && !warm)
      throw new Error(`no answer completed within the ${seconds} s round`);
    if (r.bad > 0)
      throw new Error(
        `${r.bad} bad answers of ${r.requests}; first: ${r.firstBad}\n${child.stderrTail}`,
      );
    return { ...r, cpuUsPerReq };
  };
  return { child, call, measure, stop: () => stopChild(child) };
}

async function stdioTarget(file, args, opts) {
  const s = stdioSession(file, args);
  let from = 10_000_000; // ids of the pumps stay distinct over the whole session
  const measure = async ({ items, order, seconds, lengths, once }) => {
    const refDigits = items.map((_, i) => String(idFor(i)).length);
    const r = await s.pump({
      items,
      order,
      from,
      seconds,
      window: opts.window,
      expected: lengths,
      refDigits,
      once,
    });
    from += r.requests + opts.window + 1;
    await quiet(s.child);
    return r;
  };
  return { child: s.child, call: (it, id) => s.call(it, id), measure, stop: s.stop };
}

/** Starts one target over `transport`; `ctx` holds dir, tableFile, extrasFile, loader. */
export function startTarget(target, transport, ctx, opts) {
  const [file, args] = command(target, transport, ctx);
  return transport === 'http'
    ? httpTarget(file, args, ctx.loader, opts)
    : stdioTarget(file, args, opts);
}

/** Runs `fn` over `list` with at most `width` at once. */
async function pool(list, width, fn) {
  const out = new Array(list.length);
  let next = 0;
  const lane = async () => {
    while (next < list.length) {
      const i = next++;
      out[i] = await fn(list[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, list.length) }, lane));
  return out;
}

/**
 * Sends every item of every workload once, item i with id idFor(i), and checks each answer in
 * full. Returns, per workload, the answer texts. `expectText(w, i)` when given returns the exact
 * text wanted (the bare replay must send mcpkit's bytes).
 */
export async function verifyAll(handle, wl, expectText) {
  const texts = {};
  // A string id too, once: the id must be echoed, not assumed.
  const probe = wl[0].items[0];
  const p = checkAnswer(JSON.parse(await handle.call(probe, 'verify-7')), 'verify-7', probe);
  if (p) throw new Error(`verify-7: ${p}`);
  for (const w of wl) {
    texts[w.name] = await pool(w.items, 8, async (it, i) => {
      const text = await handle.call(it, idFor(i));
      const problem = checkAnswer(JSON.parse(text), idFor(i), it);
      if (problem) throw new Error(`${w.name} ${it.key.slice(0, 120)}: ${problem}`);
      const want = expectText?.(w, i);
      if (want !== undefined && want !== text)
        throw new Error(`${w.name} ${it.key.slice(0, 120)}: not byte-identical to mcpkit's answer`);
      return text;
    });
  }
  return texts;
}

/** `[head, tail]` around the value of the single top-level `"id":<id>` of an answer text. */
export function cutAtId(text, id) {
  const mark = `"id":${JSON.stringify(id)}`;
  const at = text.indexOf(mark);
  if (at < 0 || text.indexOf(mark, at + 1) >= 0)
    throw new Error(`answer has not exactly one ${mark}`);
  return [text.slice(0, at + 5), text.slice(at + mark.length)];
}

/** Writes the bare replay table from mcpkit's verified answers: [[key, head, tail], ...]. */
export function writeTable(file, wl, texts) {
  const rows = [];
  for (const w of wl)
    w.items.forEach((it, i) => rows.push([it.key, ...cutAtId(texts[w.name][i], idFor(i))]));
  writeFileSync(file, JSON.stringify(rows));
}

/** Each workload's answer lengths in bytes (the load checks answers against them). */
export const lengthsOf = (texts) =>
  Object.fromEntries(
    Object.entries(texts).map(([k, v]) => [k, v.map((t) => Buffer.byteLength(t))]),
  );
