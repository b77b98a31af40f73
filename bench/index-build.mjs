// The search index's build on the bench's repository folder (issue 27), in this process: the
// listing is walked first (not timed), then a SearchCore reads and indexes every file through the
// same guards as the server's worker. Prints the build time and where it goes: the guarded reads
// alone, the tokenizer and index inserts alone (on texts held in memory).
//   npm run build && node bench/index-build.mjs [--files 20000] [--runs 3] [--phases | --phases-only]
//     [--readers N] [--queries]
// --queries: once built, the 60 queries of the scale cells (limit 100, the artifact's 1,000), each
// run 3 times: p50 and p95 of their medians, and the slowest query of each kind.
// Profile: node --cpu-prof --cpu-prof-dir=/tmp/prof bench/index-build.mjs --files 20000
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeRepoFolder, repoQueries } from './lib/repo-fixture.mjs';

const dist = (p) => import(new URL(`../dist/${p}`, import.meta.url).href);
const { SearchCore } = await dist('providers/filesystem/search-core.js');
const { TextIndex } = await dist('search/text-index.js');
const { nodeFs } = await dist('providers/filesystem/fs-types.js');
const { mimeFromName, DEFAULT_BINARY_MIME } = await dist('content/mime.js');
const { ReadPool } = await dist('providers/filesystem/read-pool.js');

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const files = Number(arg('files', 20_000));
const runs = Number(arg('runs', 1));
const folder = makeRepoFolder({ files });

function walk(dir, root, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(abs, root, out);
    else if (entry.isFile()) {
      const stats = statSync(abs);
      out.push({
        path: path.relative(root, abs),
        size: stats.size,
        mtimeMs: stats.mtimeMs,
        mimeType: mimeFromName(entry.name) ?? DEFAULT_BINARY_MIME,
      });
    }
  }
  return out;
}
const listing = walk(folder.dir, folder.dir, []).sort((a, b) => (a.path < b.path ? -1 : 1));
const mb = listing.reduce((n, f) => n + f.size, 0) / 1e6;

async function build() {
  const core = new SearchCore({
    fs: nodeFs,
    root: folder.dir,
    visibility: { hidden: false, ignore: new Set() },
    refuseHardLinks: false,
    maxFileBytes: 8 * 1024 * 1024,
    readTimeoutMs: 30_000,
    maxPhraseChecks: 2_000,
    ...(pool ? { readers: pool } : {}),
  });
  const t = performance.now();
  const cpu = process.cpuUsage();
  core.replaceAll(listing);
  await core.drained();
  return { s: (performance.now() - t) / 1000, cpu: cpuSeconds(cpu), core };
}

// CPU seconds of the process (its threadpool included): less swayed than the wall clock by the
// other work of a shared machine.
const cpuSeconds = (since) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1e6;
};
const phasesOnly = process.argv.includes('--phases-only');
// --readers N: the reads go through N read workers (as the server's search worker does), 0: none.
const readersArg = Number(arg('readers', 0));
const pool = readersArg > 0 ? new ReadPool(readersArg) : undefined;
const times = [];
let last;
for (let r = 0; r < (phasesOnly ? 0 : runs); r++) {
  const { s, cpu, core } = await build();
  last = core;
  times.push(s);
  const rss = process.memoryUsage().rss / 2 ** 20;
  console.log(
    `[index-build] ${core.indexed} files, ${mb.toFixed(0)} MB in ${s.toFixed(2)} s ` +
      `(${(core.indexed / s).toFixed(0)} files/s, ${(mb / s).toFixed(1)} MB/s), CPU ${cpu.toFixed(2)} s, RSS ${rss.toFixed(0)} MiB`,
  );
}
if (process.argv.includes('--queries') && last) {
  const medians = [];
  const slowest = new Map();
  for (const { kind, query } of repoQueries(folder)) {
    const ms = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await last.search({ query, limit: 100, listLimit: 1_000 });
      ms.push(performance.now() - t);
    }
    const median = ms.sort((a, b) => a - b)[1];
    medians.push(median);
    if (median > (slowest.get(kind)?.ms ?? -1)) slowest.set(kind, { query, ms: median });
  }
  medians.sort((a, b) => a - b);
  const at = (p) => medians[Math.min(medians.length - 1, Math.floor(medians.length * p))];
  console.log(`[index-build] queries p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`);
  for (const [kind, { query, ms }] of slowest)
    console.log(`[index-build]   slowest ${kind}: "${query}" ${ms.toFixed(1)} ms`);
}
pool?.close();
if (runs > 1) {
  const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
  console.log(`[index-build] median ${median.toFixed(2)} s over ${runs} runs`);
}

if (phasesOnly || process.argv.includes('--phases')) {
  // Reads alone (plain readFile, 4 at a time) and the index alone, on texts held in memory.
  let t = performance.now();
  const texts = new Array(listing.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < listing.length) {
        const i = next++;
        if (listing[i].mimeType.startsWith('text/') || listing[i].mimeType.endsWith('json'))
          texts[i] = await readFile(path.join(folder.dir, listing[i].path), 'utf8');
      }
    }),
  );
  console.log(`[index-build] plain readFile x4: ${((performance.now() - t) / 1000).toFixed(2)} s`);
  t = performance.now();
  const cpu = process.cpuUsage();
  const index = new TextIndex();
  listing.forEach((f, i) => index.add(f.path, texts[i]));
  index.fit();
  const s = (performance.now() - t) / 1000;
  console.log(`[index-build] index alone: ${s.toFixed(2)} s, CPU ${cpuSeconds(cpu).toFixed(2)} s`);
}
