// Issue 25, cell (b) "slow-file": `mcpkit serve` on a FUSE passthrough mount (bench/fuse/
// slow-fs.py, Debian's python3-fusepy) where files named slow* take 1 s per open and per read.
// Per round, on one server: two reads of two slow files not read before, started together, and
// meanwhile one server/discover at a time and one read of another (fast, never read before) file
// at a time, each 10 ms apart, until both slow reads answered. Skipped, with the reason printed,
// where /dev/fuse, fusermount3 or fusepy is missing or the mount fails. Always unmounted.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startHttpChild, stopChild } from './children.mjs';
import { HTTP_PATH } from './payload.mjs';
import { latencyRow } from './real-report.mjs';
import { discoverItem, postChecked, readItem } from './real-requests.mjs';
import { quiet } from './serve-targets.mjs';

const CLI = new URL('../../dist/cli/bin.cjs', import.meta.url);
const SCRIPT = fileURLToPath(new URL('../fuse/slow-fs.py', import.meta.url));
const PYTHON = '/usr/bin/python3';
export const SLOW_FILE = { fast: 1000, gapMs: 10, delaySeconds: 1, concurrentWithin: 1.5 };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fileText = (name) => Buffer.from(`${name}\n${'slow file bench '.repeat(60)}\n`);

/** Why the cell cannot run here, or null. */
function missingFuse() {
  if (!existsSync('/dev/fuse')) return '/dev/fuse is missing';
  if (spawnSync('fusermount3', ['-V']).error)
    return 'fusermount3 is not installed (apt-get install fuse3)';
  const py = spawnSync(PYTHON, ['-c', 'import fusepy'], { encoding: 'utf8' });
  if (py.error || py.status !== 0)
    return `${PYTHON} cannot import fusepy (apt-get install python3-fusepy)`;
  return null;
}

/** Unmounts `mnt` (lazily when busy); quiet when it is not mounted. */
function unmount(mnt) {
  const r = spawnSync('fusermount3', ['-u', mnt], { encoding: 'utf8' });
  if (r.status !== 0 && !/not (found|mounted)/.test(r.stderr))
    spawnSync('fusermount3', ['-uz', mnt]);
}

/** Mounts `src` at `mnt`; resolves with the FUSE process once it says "mounted". */
function mount(src, mnt, onExit) {
  const fuse = spawn(PYTHON, [SCRIPT, src, mnt, String(SLOW_FILE.delaySeconds)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  process.on('exit', onExit); // also on errors and ctrl-C (children.mjs exits on signals)
  let err = '';
  fuse.stderr.on('data', (d) => (err = (err + d).slice(-2000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`FUSE mount not ready in 10 s: ${err}`)),
      10_000,
    );
    fuse.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`FUSE process exited (${code}): ${err}`));
    });
    fuse.stdout.on('data', (d) => {
      if (String(d).includes('mounted')) {
        clearTimeout(timer);
        resolve(fuse);
      }
    });
  });
}

/** One round: two slow reads together, discover and fast-read probes meanwhile. */
async function round(url, r, fastAt) {
  const slowMs = [];
  const failures = [];
  let pending = 2;
  const slow = [1, 2].map(async (k) => {
    const rel = `slow-${r}-${k}.txt`;
    const t = performance.now();
    try {
      await postChecked(url, readItem(rel, fileText(rel)), `slow-${r}-${k}`);
      slowMs.push(performance.now() - t);
    } catch (err) {
      failures.push(`${rel}: ${err.message}`);
    } finally {
      pending--;
    }
  });
  const probe = async (next) => {
    const ms = [];
    while (pending > 0) {
      const t = performance.now();
      await next(ms.length);
      ms.push(performance.now() - t);
      await sleep(SLOW_FILE.gapMs);
    }
    return ms;
  };
  const [discover, reads] = await Promise.all([
    probe((i) => postChecked(url, discoverItem(), `d-${r}-${i}`)),
    probe(() => {
      const rel = `fast/f-${String(fastAt.next++ % SLOW_FILE.fast).padStart(4, '0')}.txt`;
      return postChecked(url, readItem(rel, fileText(rel)), `f-${fastAt.next}`);
    }),
  ]);
  await Promise.all(slow);
  if (failures.length) throw new Error(failures.join('\n'));
  return { discover, reads, slowMs };
}

export async function runSlowFile(opts, missing) {
  const labels = {
    discover: 'HTTP server/discover while 2 slow reads run (FUSE, 1 s per open and read)',
    reads: 'HTTP reads of other files while 2 slow reads run',
    slow: 'the 2 slow reads run concurrently (~2 s each)',
  };
  const note =
    '**slow-file**: a read-only FUSE passthrough (bench/fuse/slow-fs.py, python3-fusepy, ' +
    `multithreaded) of a folder of ${SLOW_FILE.fast} texts of ~1 KiB and two slow-* files per ` +
    `round, where slow* take ${SLOW_FILE.delaySeconds} s per open and per read; one ` +
    '`mcpkit serve MOUNT --http` (left until idle after start). Each round reads two slow files ' +
    'not read before, started together, and meanwhile sends one server/discover at a time and ' +
    `one read of a fast file not read before at a time (each ${SLOW_FILE.gapMs} ms apart) until ` +
    "both slow reads answered. p99 over all rounds (each round's p99 as the spread). The slow " +
    `reads count as concurrent when, in every round, the slower took < ${SLOW_FILE.concurrentWithin}x ` +
    'the faster (one after the other, the second takes ~2x).';
  const skip = (why) => {
    console.log(`[slow-file] skipped: ${why}`);
    return {
      kind: 'real',
      note,
      skipped: why,
      rows: Object.values(labels).map((label) => ({
        label,
        value: `skipped: ${why}`,
        goal: '-',
        verdict: 'not measured',
      })),
    };
  };
  if (missing.length) return skip(`${missing.join(', ')} missing (run npm run build)`);
  const why = missingFuse();
  if (why) return skip(why);
  const root = mkdtempSync(path.join(os.tmpdir(), 'mcpkit-bench-slow-'));
  const src = path.join(root, 'src');
  const mnt = path.join(root, 'mnt');
  mkdirSync(path.join(src, 'fast'), { recursive: true });
  mkdirSync(mnt);
  for (let i = 0; i < SLOW_FILE.fast; i++) {
    const rel = `fast/f-${String(i).padStart(4, '0')}.txt`;
    writeFileSync(path.join(src, rel), fileText(rel));
  }
  for (let r = 0; r < opts.repeat; r++)
    for (const k of [1, 2])
      writeFileSync(path.join(src, `slow-${r}-${k}.txt`), fileText(`slow-${r}-${k}.txt`));
  let fuse;
  let server;
  const onExit = () => {
    server?.child.kill('SIGKILL');
    unmount(mnt);
    fuse?.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  };
  const rounds = [];
  try {
    try {
      fuse = await mount(src, mnt, onExit);
    } catch (err) {
      return skip(`the FUSE mount failed: ${err.message.split('\n')[0]}`);
    }
    server = await startHttpChild(CLI, 60_000, ['serve', mnt, '--http', '127.0.0.1:0', '--quiet']);
    const url = `http://127.0.0.1:${server.port}${HTTP_PATH}`;
    await quiet(server.child, 20_000);
    await Promise.all(
      Array.from({ length: 4 }, (_, i) => postChecked(url, discoverItem(), `w-${i}`)),
    );
    const fastAt = { next: 0 };
    for (let r = 0; r < opts.repeat; r++) {
      const x = await round(url, r, fastAt);
      rounds.push(x);
      const max = (l) => Math.max(...l).toFixed(0);
      console.log(
        `[slow-file] round ${r + 1}/${opts.repeat}: slow reads ${x.slowMs.map((v) => (v / 1000).toFixed(2)).join(' s, ')} s; ` +
          `${x.discover.length} discovers (max ${max(x.discover)} ms), ${x.reads.length} other reads (max ${max(x.reads)} ms)`,
      );
    }
  } catch (err) {
    console.log(`[slow-file] FAILED\n  ${err.message.replace(/\n/g, '\n  ')}`);
    return {
      kind: 'real',
      note,
      error: err.message,
      rows: Object.values(labels).map((label) => ({
        label,
        value: 'FAILED',
        goal: '-',
        verdict: 'FAILED',
      })),
    };
  } finally {
    if (server) await stopChild(server.child);
    unmount(mnt);
    if (fuse && fuse.exitCode === null) {
      const gone = new Promise((r) => fuse.once('exit', r));
      fuse.kill('SIGTERM');
      await Promise.race([gone, sleep(3000)]);
      fuse.kill('SIGKILL');
    }
    process.off('exit', onExit);
    rmSync(root, { recursive: true, force: true });
  }
  const concurrent = rounds.every(
    (x) => Math.max(...x.slowMs) < SLOW_FILE.concurrentWithin * Math.min(...x.slowMs),
  );
  const slowS = rounds.map((x) => x.slowMs.map((v) => (v / 1000).toFixed(1)).join(' & ') + ' s');
  return {
    kind: 'real',
    note,
    rounds,
    rows: [
      latencyRow(
        labels.discover,
        rounds.map((x) => x.discover),
      ),
      latencyRow(
        labels.reads,
        rounds.map((x) => x.reads),
      ),
      {
        label: labels.slow,
        value: concurrent ? 'concurrent' : 'one after the other',
        spread: slowS.join(', '),
        goal: `slower < ${SLOW_FILE.concurrentWithin}x faster`,
        verdict: concurrent ? 'met' : 'missed',
      },
    ],
  };
}
