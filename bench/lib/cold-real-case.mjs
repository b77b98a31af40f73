// Issue 25, cell (a) "cold-real": reads that never repeat. The real folder (bench/lib/
// real-fixture.mjs: 20,000 texts of 1-8 KiB, 500 binaries of 16-256 KiB) is read once per round,
// every file once, in a new shuffled order each round, on a fresh server process per round, over
// HTTP (32 connections) and stdio (pipelined). Targets side by side:
//   mcpkit  `node dist/cli/bin.cjs serve DIR` (default options)
//   worker  bench/servers/serve-worker.mjs: readFile + base64 + JSON.stringify, no cache, no checks
//   guarded the same with a guarded read's syscalls and checks (--guarded), on the main thread
//   sdk     bench/servers/serve-sdk.mjs: the official SDK server, reading from disk per request
//   bare    bench/servers/serve-bare-*.mjs: mcpkit's captured answers replayed (the ceiling)
// Before the rounds each target answers every request once, checked in full (bare: mcpkit's
// exact bytes); in the rounds every answer must have a verified length for its request.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { shuffled } from './serve-fixture.mjs';
import { discoverItem, readItem } from './real-requests.mjs';
import { lengthsOf, quiet, startTarget, verifyAll, writeTable } from './serve-targets.mjs';

export const COLD_REAL = { connections: 32, goalWorker: 0.9, capSeconds: 300 };
const TARGETS = ['mcpkit', 'worker', 'guarded', 'sdk', 'bare'];
/** Targets that run whatever --targets says (the workers answer in mcpkit's shape). */
const ALWAYS = new Set(['worker', 'guarded']);
const indent = (text) => '  ' + String(text).replace(/\n/g, '\n  ');
const rotate = (list, r) => list.map((_, i) => list[(i + r) % list.length]);

/** The top-level fields of mcpkit's read answer besides `contents`: the worker sends them too. */
function extrasOf(text) {
  const rest = { ...JSON.parse(text).result };
  delete rest.contents;
  return rest;
}

/**
 * Runs the cell over both transports for the selected targets (mcpkit, sdk, bare of opts.targets;
 * the two workers always). `fx` is the real folder. Returns { [transport]: { [target]: { rounds } |
 * { error } | { skipped } } }.
 */
export async function runColdReal(opts, fx, loader, missing) {
  const t0 = Date.now();
  const log = (line) => console.log(`[cold-real ${Math.round((Date.now() - t0) / 1000)}s] ${line}`);
  const items = [...fx.texts, ...fx.binaries].map((rel) => readItem(rel, fx.bytesOf(rel)));
  const w = { name: 'cold-real', items };
  const names = TARGETS.filter((t) => ALWAYS.has(t) || opts.targets.includes(t));
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mcpkit-bench-cold-real-'));
  const ctx = {
    dir: fx.dir,
    tableFile: path.join(tmp, 'table.json'),
    extrasFile: path.join(tmp, 'extras.json'),
    loader,
  };
  const out = {};
  try {
    for (const transport of ['http', 'stdio']) {
      const res = (out[transport] = {});
      const lengths = {};
      let captured;
      // 1. Each target answers every request once (mcpkit first: its answers are bare's table).
      for (const target of ['mcpkit', ...names.filter((t) => t !== 'mcpkit')]) {
        if (target !== 'sdk' && missing.length) {
          res[target] = { skipped: `${missing.join(', ')} missing (run npm run build)` };
          continue;
        }
        if ((target === 'bare' || ALWAYS.has(target)) && !captured) {
          res[target] = { skipped: 'mcpkit did not answer: nothing captured' };
          continue;
        }
        log(`${transport} ${target}: answering each of ${items.length} reads once (full checks)`);
        let handle;
        try {
          handle = await startTarget(target, transport, ctx, opts);
          const expect = target === 'bare' ? (_, i) => captured[i] : undefined;
          const texts = await verifyAll(handle, [w], expect);
          lengths[target] = lengthsOf(texts)[w.name];
          if (target === 'mcpkit') {
            captured = texts[w.name];
            writeTable(ctx.tableFile, [w], texts);
            writeFileSync(ctx.extrasFile, JSON.stringify(extrasOf(captured[0])));
          }
        } catch (err) {
          res[target] = { error: `${err.message}\n${handle?.child.stderrTail ?? ''}` };
          log(`${transport} ${target}: FAILED\n${indent(res[target].error)}`);
        } finally {
          await handle?.stop();
        }
      }
      captured = undefined;
      // 2. Rounds: a fresh process per target, every file once in a new order.
      const live = names.filter((t) => lengths[t] && !res[t]);
      for (let round = 0; round < opts.repeat; round++) {
        const order = shuffled(
          items.map((_, i) => i),
          2500 + round,
        );
        const line = [];
        for (const target of rotate(live, round)) {
          if (res[target]?.error) continue;
          let handle;
          try {
            handle = await startTarget(target, transport, ctx, opts);
            if (transport === 'stdio') await handle.call(discoverItem(), 'ready'); // started
            await quiet(handle.child, 20_000); // done indexing the folder
            const r = await handle.measure({
              items,
              order,
              seconds: COLD_REAL.capSeconds,
              lengths: lengths[target],
              once: true,
              connections: COLD_REAL.connections,
            });
            if (r.requests < items.length)
              throw new Error(`${r.requests} of ${items.length} answered within the cap`);
            (res[target] ??= { rounds: [] }).rounds.push(r);
            line.push(
              `${target} ${Math.round(r.reqPerSec)} (${(r.cpuUsPerReq / 1000).toFixed(3)} ms CPU)`,
            );
          } catch (err) {
            res[target] = { error: `${err.message}` };
            log(`${transport} ${target}: FAILED in round ${round + 1}\n${indent(err.message)}`);
          } finally {
            await handle?.stop();
          }
        }
        log(`${transport} round ${round + 1}/${opts.repeat}: ${line.join(', ')} req/s`);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}
