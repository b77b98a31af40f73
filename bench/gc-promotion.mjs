// The cold-read GC lead of issue 25 (bench/cold-read-profile.md, "Third pass"), reduced: the read
// pool alone reads every text of the cold-real folder once (32 at a time), in a fresh process
// per case, under --trace-gc-nvp; the case differs only in what was imported before. Prints the
// bytes the main isolate's scavenges promoted while the reads ran. Needs dist/ (npm run build).
//   node bench/gc-promotion.mjs [--texts N]
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeRealFolder } from './lib/real-fixture.mjs';

const READ_POOL = new URL('../dist/providers/filesystem/read-pool.js', import.meta.url).href;
const SERVER = new URL('../dist/server/index.js', import.meta.url).href;

/** One case, run in a child process: `imports` loaded first, then the reads. */
async function child(dir, rels, imports) {
  for (const url of imports) await import(url);
  const { ReadPool } = await import(READ_POOL);
  const pool = new ReadPool(16);
  const visibility = { hidden: false, ignore: new Set(['node_modules']) };
  const job = (relative) => ({
    root: dir,
    relative,
    visibility,
    refuseHardLinks: false,
    limitBytes: 1e9,
    keepsWireBytes: 1e9,
  });
  await pool.run(job(rels[0]));
  console.log('READS-START');
  let next = 0;
  const lane = async () => {
    while (next < rels.length) {
      const { outcome } = await pool.run(job(rels[next++]));
      if (outcome?.kind !== 'ok') throw new Error(`read failed: ${JSON.stringify(outcome)}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, lane));
  console.log('READS-END');
  pool.close();
}

/** Bytes promoted by the main isolate's scavenges between the two marks of `out`. */
function promoted(out) {
  const lines = out.slice(out.indexOf('READS-START'), out.indexOf('READS-END')).split('\n');
  const byIsolate = new Map();
  for (const line of lines) {
    if (!/gc=s /.test(line)) continue;
    const isolate = line.slice(0, line.indexOf(']') + 1);
    const bytes = Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
    byIsolate.set(isolate, (byIsolate.get(isolate) ?? 0) + bytes);
  }
  // The main isolate is the one that promoted most: the workers' stay near zero.
  return Math.max(0, ...byIsolate.values());
}

if (process.argv[2] === '--child') {
  const { dir, rels, imports } = JSON.parse(readFileSync(process.argv[3], 'utf8'));
  await child(dir, rels, imports);
} else {
  const at = process.argv.indexOf('--texts');
  const texts = at > 0 ? Number(process.argv[at + 1]) : 20_000;
  const folder = makeRealFolder(texts);
  try {
    for (const [label, imports] of [
      ['read pool alone', []],
      ['read pool, dist/server imported first', [SERVER]],
    ]) {
      // The case goes through a file: 20,000 paths are over the length of one argument.
      const arg = path.join(folder.root, 'case.json');
      writeFileSync(arg, JSON.stringify({ dir: folder.dir, rels: folder.texts, imports }));
      const run = spawnSync(
        process.execPath,
        ['--trace-gc-nvp', fileURLToPath(import.meta.url), '--child', arg],
        { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
      );
      if (run.status !== 0) throw new Error(`${label}: ${run.error ?? run.stderr}`);
      const mb = (promoted(run.stdout) / 1024 / 1024).toFixed(1);
      console.log(`${label}: ${folder.texts.length} texts read, ${mb} MiB promoted`);
    }
  } finally {
    rmSync(folder.root, { recursive: true, force: true });
  }
}
