// Issue 25, cell (c) "search-load": the latency of server/discover while 4 searches (words no file
// holds: each scans the whole folder and must still answer) and a part walk of a 256 MiB file run,
// on the real folder (bench/lib/real-fixture.mjs) plus a sparse walk.bin, on a freshly started
// `mcpkit serve --http` per round. Four search lanes each search again (a new word) until the
// window (5 s, and every lane's first search answered) has passed; one discover at a time, 10 ms
// apart, until the last lane ends; the walk reads the file in parts (following `next`, from the
// start again at the end) for as long as the searches run and must progress.
import { closeSync, ftruncateSync, openSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startHttpChild, stopChild } from './children.mjs';
import { HTTP_PATH } from './payload.mjs';
import { latencyRow } from './real-report.mjs';
import { discoverItem, partItem, postChecked, searchItem } from './real-requests.mjs';

const CLI = new URL('../../dist/cli/bin.cjs', import.meta.url);
const MiB = 1024 * 1024;
export const SEARCH_LOAD = {
  searches: 4,
  walkBytes: 256 * MiB,
  minSeconds: 5, // the window: at least this long, and until every lane's first search answered
  capSeconds: 120,
  gapMs: 10,
  partWaitMs: 1000, // the walk progresses: no part waits longer than this
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function round(dir, r) {
  const { child, port } = await startHttpChild(CLI, 60_000, [
    'serve',
    dir,
    '--http',
    '127.0.0.1:0',
    '--quiet',
  ]);
  const url = `http://127.0.0.1:${port}${HTTP_PATH}`;
  try {
    // No wait for idle: the load starts on a freshly started server (an index may be building).
    // Six connections open (4 search lanes, the walk, the probe) before the clock starts.
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => postChecked(url, discoverItem(), `w-${i}`)),
    );
    const started = performance.now();
    const minEnd = started + SEARCH_LOAD.minSeconds * 1000;
    const searchMs = [];
    const failures = [];
    let lanes = SEARCH_LOAD.searches;
    let asked = 0;
    // Each lane searches again until the window has passed: 4 searches run all along.
    const searches = Array.from({ length: SEARCH_LOAD.searches }, async (_, i) => {
      try {
        do {
          const t = performance.now();
          const query = `nowhere-${r}-${i}-${asked++}-zq`;
          await postChecked(
            url,
            searchItem(query),
            `s-${i}-${asked}`,
            SEARCH_LOAD.capSeconds * 1000,
          );
          searchMs.push(performance.now() - t);
        } while (performance.now() < minEnd && failures.length === 0);
      } catch (err) {
        failures.push(`search lane ${i}: ${err.message}`);
      } finally {
        lanes--;
      }
    });
    const searching = () => lanes > 0;
    const walk = (async () => {
      let parts = 0;
      let bytes = 0;
      let longest = 0;
      let uri = 'file:///walk.bin?offset=0';
      while (searching()) {
        const t = performance.now();
        const res = await postChecked(url, partItem(uri), `p-${parts}`);
        longest = Math.max(longest, performance.now() - t);
        const part = res.contents[0]._meta['dev.mcpkit/part'];
        parts++;
        bytes += part.length;
        uri = part.next ?? 'file:///walk.bin?offset=0';
      }
      return { parts, bytes, longest };
    })().catch((err) => {
      failures.push(`walk: ${err.message}`);
      return { parts: 0, bytes: 0, longest: Infinity };
    });
    const discover = [];
    while (searching() && performance.now() - started < SEARCH_LOAD.capSeconds * 1000) {
      const t = performance.now();
      await postChecked(url, discoverItem(), `d-${discover.length}`);
      discover.push(performance.now() - t);
      await sleep(SEARCH_LOAD.gapMs);
    }
    await Promise.all(searches);
    const w = await walk;
    if (failures.length) throw new Error(failures.join('\n'));
    return { discover, searchMs, seconds: (performance.now() - started) / 1000, ...w };
  } catch (err) {
    throw new Error(`${err.message}\n${child.stderrTail}`);
  } finally {
    await stopChild(child);
  }
}

/** Runs `repeat` rounds; returns the case with its report rows. */
export async function runSearchLoad(opts, fx, missing) {
  const label = `HTTP server/discover during ${SEARCH_LOAD.searches} searches + 256 MiB part walk`;
  const goal = `<= 50 ms; searches answer; no part waits > ${SEARCH_LOAD.partWaitMs / 1000} s`;
  const note =
    `**search-load**: on the cold-real folder plus a sparse 256 MiB walk.bin, a freshly started ` +
    '`mcpkit serve --http` per round, loaded as soon as it has answered 6 discovers (not left ' +
    'to settle: whatever it does after start, such as indexing, runs under the load), ' +
    `${SEARCH_LOAD.searches} search lanes, each searching for a new word no file holds, again and ` +
    `again until the window (at least ${SEARCH_LOAD.minSeconds} s, and until every lane's first ` +
    'search answered) has passed (each search must return a real answer, not an error), and a ' +
    'part walk of walk.bin (resources/read following `_meta["dev.mcpkit/part"].next`, one part ' +
    'at a time, for as long as the searches run; it must progress: no part may wait more than ' +
    `${SEARCH_LOAD.partWaitMs / 1000} s); ` +
    `meanwhile one server/discover at a time, ${SEARCH_LOAD.gapMs} ms apart, from the bench process ` +
    "(which also parses the walk's parts: a few ms of its own latency). p99 over all rounds; the " +
    "spread lists each round's p99.";
  if (missing.length)
    return {
      kind: 'real',
      note,
      rows: [{ label, value: 'skipped', goal, verdict: 'not measured' }],
    };
  const file = path.join(fx.dir, 'walk.bin');
  const fd = openSync(file, 'w');
  ftruncateSync(fd, SEARCH_LOAD.walkBytes);
  closeSync(fd);
  const rounds = [];
  let error;
  try {
    for (let r = 0; r < opts.repeat; r++) {
      const x = await round(fx.dir, r);
      rounds.push(x);
      const sec = `${x.searchMs.length} searches of ${(Math.min(...x.searchMs) / 1000).toFixed(1)}-${(Math.max(...x.searchMs) / 1000).toFixed(1)} s`;
      console.log(
        `[search-load] round ${r + 1}/${opts.repeat}: ${x.discover.length} discovers, ` +
          `max ${Math.max(...x.discover).toFixed(0)} ms; ${sec}; walk ${x.parts} parts ` +
          `(${(x.bytes / MiB).toFixed(0)} MiB, longest wait ${Math.round(x.longest)} ms) in ${x.seconds.toFixed(1)} s`,
      );
    }
  } catch (err) {
    error = err.message;
    console.log(`[search-load] FAILED\n  ${error.replace(/\n/g, '\n  ')}`);
  } finally {
    rmSync(file, { force: true });
  }
  if (error)
    return {
      kind: 'real',
      note,
      error,
      rows: [{ label, value: 'FAILED', goal, verdict: 'FAILED' }],
    };
  const longest = Math.max(...rounds.map((x) => x.longest));
  const progressed = longest <= SEARCH_LOAD.partWaitMs;
  const row = latencyRow(
    label,
    rounds.map((x) => x.discover),
    progressed,
    `; searches answer; no part waits > ${SEARCH_LOAD.partWaitMs / 1000} s`,
  );
  const searchS = rounds.flatMap((x) => x.searchMs).map((v) => v / 1000);
  row.value +=
    `; ${searchS.length} searches of ${Math.min(...searchS).toFixed(1)}-` +
    `${Math.max(...searchS).toFixed(1)} s; walk ${rounds.map((x) => x.parts).join('/')} parts, ` +
    `longest wait for a part ${Math.round(longest)} ms`;
  return { kind: 'real', note, rounds, rows: [row] };
}
