// The serve cases: what users run, `mcpkit serve DIR`, against the official SDK v2 server on the
// same folder and a bare server replaying mcpkit's own captured answer bytes, over one transport.
// 1. mcpkit starts on each folder and answers every distinct request once (checked in full):
//    those answers are the bare replay's table. The SDK and bare servers are then checked the
//    same way (bare must send mcpkit's exact bytes).
// 2. Hot workloads (one request repeated) on the verified main-folder instances: each target
//    warmed up, then `repeat` interleaved rounds, the order of targets rotated each round.
// 3. Cold, varied workloads: each round starts fresh processes (nothing of these requests cached),
//    warmed up on distinct requests outside the measured set (the uncached path compiled), then
//    the distinct requests in a shuffled order, cycled.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { shuffled } from './serve-fixture.mjs';
import { lengthsOf, startTarget, verifyAll, writeTable } from './serve-targets.mjs';

const indent = (text) => '  ' + String(text).replace(/\n/g, '\n  ');
const rotate = (list, r) => list.map((_, i) => list[(i + r) % list.length]);
const orderOf = (w, seed) =>
  w.items.length > 1
    ? shuffled(
        w.items.map((_, i) => i),
        seed,
      )
    : [0];
const FOLDERS = ['main', 'cold'];

/**
 * Runs the case over `transport` for the selected targets. `ctx`: { fx, wl, loader }. Returns
 * { [workload]: { [target]: { rounds: [...] } | { error } | { skipped } } }.
 */
export async function runServeCase(transport, opts, ctx, missing) {
  const t0 = Date.now();
  const log = (line) =>
    console.log(`[serve-${transport} ${Math.round((Date.now() - t0) / 1000)}s] ${line}`);
  const names = ['bare', 'sdk', 'mcpkit'].filter((t) => opts.targets.includes(t));
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mcpkit-bench-replay-'));
  const tableFile = path.join(tmp, `table-${transport}.json`);
  const env = (folder) => ({ dir: ctx.fx.dirs[folder], tableFile, loader: ctx.loader });
  const start = (target, folder) => startTarget(target, transport, env(folder), opts);
  const roundSeconds = opts.duration / opts.repeat;
  const warmSeconds = opts.warmup / 2;
  const shown = ctx.wl.filter((w) => !w.warm);
  const hot = shown.filter((w) => !w.cold);
  const warmOf = Object.fromEntries(
    FOLDERS.map((f) => [f, ctx.wl.find((w) => w.warm && w.folder === f)]),
  );
  const out = Object.fromEntries(shown.map((w) => [w.name, {}]));
  const failAll = (target, why) => {
    for (const w of shown) out[w.name][target] = why;
    log(`${target}: ${why.skipped ? 'skipped' : 'FAILED'}\n${indent(why.skipped ?? why.error)}`);
  };
  const live = new Map();
  const lengths = {};
  let captured;
  try {
    // 1. Start and verify, on each folder; mcpkit first, its answers are bare's table.
    for (const target of ['mcpkit', ...names.filter((t) => t !== 'mcpkit')]) {
      if (target === 'mcpkit' && !names.includes('mcpkit') && !names.includes('bare')) continue;
      if (target !== 'sdk' && missing.length) {
        failAll(target, { skipped: `${missing.join(', ')} missing (run npm run build)` });
        continue;
      }
      if (target === 'bare' && !captured) {
        failAll(target, { skipped: 'nothing captured: mcpkit did not run' });
        continue;
      }
      log(`${target}: starting, answering each distinct request once (full checks)`);
      let handle;
      try {
        const texts = {};
        for (const folder of FOLDERS) {
          handle = await start(target, folder);
          const expect = target === 'bare' ? (w, i) => captured[w.name][i] : undefined;
          const list = ctx.wl.filter((w) => w.folder === folder);
          Object.assign(texts, await verifyAll(handle, list, expect));
          if (folder === 'main' && names.includes(target)) live.set(target, handle);
          else await handle.stop();
          handle = undefined;
        }
        lengths[target] = lengthsOf(texts);
        if (target === 'mcpkit') {
          captured = texts;
          writeTable(tableFile, ctx.wl, texts);
        }
      } catch (err) {
        await handle?.stop();
        live.get(target)?.stop();
        live.delete(target);
        failAll(target, { error: `${err.message}${handle ? `\n${handle.child.stderrTail}` : ''}` });
      }
    }
    const ok = (w, target) => !out[w.name]?.[target]?.error;
    const measure = async (w, target, handle, seconds, keep) => {
      try {
        const r = await handle.measure({
          items: w.items,
          order: orderOf(w, 1000 + (out[w.name]?.[target]?.rounds?.length ?? 0)),
          seconds,
          lengths: lengths[target][w.name],
          warm: !keep,
        });
        if (keep) (out[w.name][target] ??= { rounds: [] }).rounds.push(r);
        return r;
      } catch (err) {
        if (out[w.name]) out[w.name][target] = { error: err.message };
        log(`${target} ${w.name}: FAILED\n${indent(err.message)}`);
        return null;
      }
    };
    // 2. Hot workloads on the verified instances.
    log(`warming up: ${warmSeconds} s per target and hot workload`);
    for (const w of hot)
      for (const [target, handle] of live)
        if (ok(w, target)) await measure(w, target, handle, warmSeconds, false);
    for (let round = 0; round < opts.repeat; round++) {
      for (const w of hot) {
        const line = [];
        for (const target of rotate([...live.keys()], round)) {
          if (!ok(w, target)) continue;
          const r = await measure(w, target, live.get(target), roundSeconds, true);
          if (r) line.push(`${target} ${Math.round(r.reqPerSec)}${loaderNote(r)}`);
        }
        log(`round ${round + 1}/${opts.repeat} ${w.name}: ${line.join(', ')} req/s`);
      }
    }
    await Promise.all([...live.values()].map((h) => h.stop()));
    live.clear();
    // 3. Cold workloads: fresh processes each round, one per folder.
    const coldTargets = names.filter((t) => lengths[t]);
    for (let round = 0; round < opts.repeat; round++) {
      for (const target of rotate(coldTargets, round)) {
        const line = [];
        for (const folder of FOLDERS) {
          const list = shown.filter((w) => w.cold && w.folder === folder && ok(w, target));
          if (list.length === 0) continue;
          let handle;
          try {
            handle = await start(target, folder);
            await measure(warmOf[folder], target, handle, opts.warmup, false); // JIT, other requests
            for (const w of list) {
              const r = await measure(w, target, handle, roundSeconds, true);
              if (r) line.push(`${w.name} ${Math.round(r.reqPerSec)}${loaderNote(r)}`);
            }
          } catch (err) {
            for (const w of list) out[w.name][target] = { error: err.message };
          } finally {
            await handle?.stop();
          }
        }
        log(`round ${round + 1}/${opts.repeat} cold, fresh ${target}: ${line.join(', ')} req/s`);
      }
    }
  } finally {
    await Promise.all([...live.values()].map((h) => h.stop()));
    rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}

/** Flags a round whose load generator was near a full core (it may have been the bottleneck). */
const loaderNote = (r) =>
  r.loaderCpu > 0.9 ? ` (loader ${Math.round(r.loaderCpu * 100)}% CPU)` : '';
