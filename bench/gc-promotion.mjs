// The cold-read GC lead of issue 25 (bench/cold-read-profile.md, "Third pass"), reduced: every
// text of the cold-real folder is read once (32 at a time) through worker threads, in a fresh
// process per case, under --trace-gc-nvp, with dist/server imported first (so that the main
// isolate has had a full collection before the reads: what turns a churning Map into a chain).
// Prints the bytes the main isolate's scavenges promoted while the reads ran. The cases differ
// only in the table that finds a job by id when its worker answers: a Map, whose rebuilt tables
// point to each other (once one is old, every later one and the results it held are promoted),
// or IdTable (src/protocol/id-table.ts), as the read pool uses. Needs dist/ (npm run build).
//   node bench/gc-promotion.mjs [--texts N]
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { makeRealFolder } from './lib/real-fixture.mjs';

const dist = (file) => new URL(`../dist/${file}`, import.meta.url).href;

/** A worker that reads a file and answers its text (the read pool's job, without the guards). */
const READER = `const { parentPort } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
parentPort.on('message', ({ id, file }) => parentPort.postMessage({ id, text: readFileSync(file, 'utf8') }));`;

/** Runs `read` over every path, 32 at a time. */
async function lanes(files, read) {
  let next = 0;
  const lane = async () => {
    while (next < files.length) if (!(await read(files[next++]))) throw new Error('read failed');
  };
  await Promise.all(Array.from({ length: 32 }, lane));
}

/** A few-line pool of 4 workers whose jobs wait in `table` (a Map or an IdTable). */
async function fewLinePool(files, table) {
  const workers = Array.from({ length: 4 }, () => new Worker(READER, { eval: true }));
  for (const worker of workers) {
    worker.on('message', ({ id, text }) => {
      const resolve = table.get(id);
      table.delete(id);
      resolve(text);
    });
  }
  let nextId = 0;
  const read = (file) =>
    new Promise((resolve) => {
      const id = nextId++;
      table.set(id, resolve);
      workers[id % workers.length].postMessage({ id, file });
    });
  await read(files[0]);
  console.log('READS-START');
  await lanes(files, read);
  console.log('READS-END');
  for (const worker of workers) void worker.terminate();
}

/** mcpkit's read pool (guards and all). */
async function readPool(dir, rels) {
  const { ReadPool } = await import(dist('providers/filesystem/read-pool.js'));
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
  await lanes(rels, async (rel) => (await pool.run(job(rel))).outcome?.kind === 'ok');
  console.log('READS-END');
  pool.close();
}

async function child(dir, rels, kind) {
  await import(dist('server/index.js'));
  const files = rels.map((rel) => path.join(dir, rel));
  if (kind === 'read pool') return readPool(dir, rels);
  const { IdTable } = await import(dist('protocol/id-table.js'));
  return fewLinePool(files, kind === 'map' ? new Map() : new IdTable());
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
  const { dir, rels, kind } = JSON.parse(readFileSync(process.argv[3], 'utf8'));
  await child(dir, rels, kind);
} else {
  const at = process.argv.indexOf('--texts');
  const texts = at > 0 ? Number(process.argv[at + 1]) : 20_000;
  const folder = makeRealFolder(texts);
  try {
    for (const [label, kind] of [
      ['few-line pool, jobs in a Map', 'map'],
      ['few-line pool, jobs in an IdTable', 'idtable'],
      ["mcpkit's read pool (IdTable)", 'read pool'],
    ]) {
      // The case goes through a file: 20,000 paths are over the length of one argument.
      const arg = path.join(folder.root, 'case.json');
      writeFileSync(arg, JSON.stringify({ dir: folder.dir, rels: folder.texts, kind }));
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
