// Issue 27, the scale cells ("repo-scale"): `mcpkit serve --stdio` on the generated 100,000-file
// repository (bench/lib/repo-fixture.mjs), fresh process:
//   - time to `server/discover`, and its latency (p99, max) while the index builds (one probe
//     every 50 ms);
//   - time to full recall: every planted word found as the first link of its search;
//   - search latency (p50, p95) over the 60 queries once built, and ripgrep (`rg -w -F -i -l`, one
//     run per query word) on the same queries in the same run;
//   - recall against rg on the single-word queries: the files rg lists that the answer lists (its
//     links and its artifact), compared as sets when the answer lists every match;
//   - `server/discover` p99 while 4 searches run back to back;
//   - peak RSS of the server process over the whole run (its worker threads included; serve
//     starts no child process), and MiB per 1,000 files.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { makeRepoFolder, repoQueries } from './repo-fixture.mjs';

const CLI = new URL('../../dist/cli/bin.cjs', import.meta.url);
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};
export const REPO_SCALE = { files: 100_000, recallCapSeconds: 300, loadSeconds: 5, probeMs: 50 };

const pct = (list, p) => {
  if (list.length === 0) return null;
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A stdio JSON-RPC client of one child. */
function connect(child) {
  const waiting = new Map();
  let buf = '';
  let next = 0;
  child.stdout.setEncoding('utf8').on('data', (d) => {
    buf += d;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const message = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  return (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = next++;
      const t = performance.now();
      waiting.set(id, (m) =>
        m.error
          ? reject(new Error(JSON.stringify(m.error)))
          : resolve({ ...m.result, ms: performance.now() - t }),
      );
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } })}\n`,
      );
    });
}

const search = (ask, query, limit = 10) =>
  ask('tools/call', { name: 'search', arguments: { query, limit } }).then((r) => ({
    ms: r.ms,
    summary: r.content?.[0]?.text ?? '',
    links: (r.content ?? []).filter((b) => b.type === 'resource_link' && b.uri.startsWith('file:')),
    artifact: (r.content ?? []).find(
      (b) => b.type === 'resource_link' && b.uri.startsWith('mcpkit://artifacts/'),
    )?.uri,
  }));

/**
 * Every file an answer lists (its links and its artifact's matches), and whether that is every
 * file it matched (the artifact lists 1,000 at most).
 */
async function answerSet(ask, found) {
  const names = new Set(found.links.map((l) => l.name));
  if (found.artifact === undefined) return { names, whole: true };
  const read = await ask('resources/read', { uri: found.artifact });
  const body = JSON.parse(read.contents[0].text);
  for (const m of body.matches) names.add(m.name);
  return { names, whole: body.matches.length >= body.matched };
}

const hwmMiB = (pid) =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** Files rg lists for one word, and how long it took (ms); undefined without rg. */
function rg(dir, word) {
  const t = performance.now();
  const out = spawnSync('rg', ['-w', '-F', '-i', '-l', '--no-messages', word, dir], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (out.error) return undefined;
  const files = out.stdout
    .split('\n')
    .filter(Boolean)
    .map((f) => f.slice(dir.length + 1));
  return { files, ms: performance.now() - t };
}

export async function runRepoScale(opts) {
  const files = opts.repofiles ?? REPO_SCALE.files;
  const t0gen = performance.now();
  const folder = makeRepoFolder({ files });
  console.log(
    `[repo-scale] ${folder.files} files (${folder.binaries} binaries, ${(folder.bytes / 1e6).toFixed(0)} MB) under ${folder.dir} (${((performance.now() - t0gen) / 1000).toFixed(1)} s)`,
  );
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [CLI.pathname, 'serve', folder.dir, '--stdio', '-q'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ask = connect(child);
  try {
    await ask('server/discover');
    const discoverS = (performance.now() - spawnedAt) / 1000;
    // Probe discover while the index builds; check the planted words until all are found first.
    const probes = [];
    let building = true;
    const probe = (async () => {
      while (building) {
        probes.push((await ask('server/discover')).ms);
        await sleep(REPO_SCALE.probeMs);
      }
    })();
    const missing = new Map(folder.planted.map((p) => [p.word, p.rel]));
    let recallS = null;
    while ((performance.now() - spawnedAt) / 1000 < REPO_SCALE.recallCapSeconds) {
      let partial = false;
      for (const [word, rel] of missing) {
        const found = await search(ask, word, 1);
        if (/still being (built|walked)/.test(found.summary)) partial = true;
        if (found.links[0]?.name === rel) missing.delete(word);
      }
      if (missing.size === 0 && !partial) {
        recallS = (performance.now() - spawnedAt) / 1000;
        break;
      }
      await sleep(1000);
    }
    building = false;
    await probe;
    // Built: the 60 queries, each once, then the same on rg.
    const queries = repoQueries(folder);
    const searchMs = [];
    // Recall against rg: every file rg lists for a single word must be in the answer (its links
    // and its artifact) when the answer lists every match; past the artifact's bound, only the
    // count is compared (matches at least the files rg lists).
    const recall = { rgFiles: 0, matched: 0, plantedFirst: 0, setQueries: 0, singleQueries: 0 };
    let rgMs = 0;
    let rgRan = true;
    for (const { kind, query } of queries) {
      const found = await search(ask, query, 100);
      searchMs.push(found.ms);
      const words = query.split(' ');
      let rgFiles;
      for (const word of words) {
        const r = rg(folder.dir, word);
        if (!r) {
          rgRan = false;
          break;
        }
        rgMs += r.ms;
        rgFiles = rgFiles ? rgFiles.filter((f) => r.files.includes(f)) : r.files;
      }
      if (
        kind === 'planted' &&
        found.links[0]?.name === folder.planted.find((p) => p.word === query)?.rel
      ) {
        recall.plantedFirst++;
      }
      if (rgFiles && words.length === 1) {
        recall.singleQueries++;
        recall.rgFiles += rgFiles.length;
        const { names, whole } = await answerSet(ask, found);
        if (whole) {
          recall.setQueries++;
          recall.matched += rgFiles.filter((f) => names.has(f)).length;
        } else {
          const matched = Number(
            /^([\d,]+) files? match/.exec(found.summary)?.[1]?.replace(/,/g, '') ?? 0,
          );
          recall.matched += Math.min(matched, rgFiles.length);
        }
      }
    }
    // Discover while 4 searches run back to back.
    const loadProbes = [];
    let loaded = true;
    const common = queries.filter((q) => q.kind !== 'planted').map((q) => q.query);
    const lanes = Array.from({ length: 4 }, async (_, i) => {
      for (let k = i; loaded; k += 4) await search(ask, common[k % common.length]);
    });
    const end = performance.now() + REPO_SCALE.loadSeconds * 1000;
    while (performance.now() < end) {
      loadProbes.push((await ask('server/discover')).ms);
      await sleep(20);
    }
    loaded = false;
    await Promise.all(lanes);
    const peak = hwmMiB(child.pid);
    const rows = {
      files: folder.files,
      discoverS,
      recallS,
      plantedFirst: `${recall.plantedFirst}/20`,
      searchP50: pct(searchMs, 0.5),
      searchP95: pct(searchMs, 0.95),
      rgPerQuery: rgRan ? rgMs / queries.length : null,
      recallVsRg: recall.rgFiles ? recall.matched / recall.rgFiles : null,
      recallSetQueries: `${recall.setQueries}/${recall.singleQueries}`,
      discoverP99Building: pct(probes, 0.99),
      discoverMaxBuilding: probes.length ? Math.max(...probes) : null,
      discoverP99Searching: pct(loadProbes, 0.99),
      discoverMaxSearching: loadProbes.length ? Math.max(...loadProbes) : null,
      peakMiB: peak,
      mibPer1000: peak / (folder.files / 1000),
    };
    console.log('[repo-scale]', JSON.stringify(rows));
    return { kind: 'scale', rows };
  } finally {
    child.kill();
  }
}

const f = (v, digits = 1) => (v === null || v === undefined ? 'n/a' : v.toFixed(digits));

/** The section of docs/benchmarks.md for the scale cells, with the targets. */
export function repoScaleMarkdown({ rows: r }) {
  const speedup = r.rgPerQuery && r.searchP50 ? r.rgPerQuery / r.searchP50 : null;
  const line = (cell, value, target, ok) =>
    `| ${cell} | ${value} | ${target} | ${ok === null ? 'n/a' : ok ? 'MET' : 'MISSED'} |`;
  return [
    '',
    '## Repository scale (issue 27)',
    '',
    `\`mcpkit serve --stdio\` on a generated repository of ${r.files.toLocaleString('en-US')} files ` +
      '(bench/lib/repo-fixture.mjs: 3,500 folders, 200 B-16 KiB, Zipf words, 1% binaries, 40 planted ' +
      'unique words), a fresh process; 60 queries (20 planted words, 15 common words, 15 two-word, 10 ' +
      'that match nothing); ripgrep `rg -w -F -i -l` on the same query words in the same run.',
    '',
    '| cell | measured | target | |',
    '| --- | --- | --- | --- |',
    line('`server/discover` after spawn', `${f(r.discoverS, 2)} s`, '≤ 1 s', r.discoverS <= 1),
    line(
      'full recall after spawn',
      r.recallS === null ? 'not reached' : `${f(r.recallS)} s`,
      '≤ 60 s',
      r.recallS !== null && r.recallS <= 60,
    ),
    line('planted words found first', r.plantedFirst, '20/20', r.plantedFirst === '20/20'),
    line(
      'search p50 / p95',
      `${f(r.searchP50)} / ${f(r.searchP95)} ms`,
      '≤ 50 / ≤ 200 ms',
      r.searchP50 <= 50 && r.searchP95 <= 200,
    ),
    line(
      'rg per query / search p50',
      speedup === null ? 'n/a' : `${f(r.rgPerQuery, 0)} ms, ${f(speedup, 0)}x`,
      '≥ 20x',
      speedup === null ? null : speedup >= 20,
    ),
    line(
      'files rg lists that the answer lists (single words)',
      r.recallVsRg === null
        ? 'n/a'
        : `${f(r.recallVsRg * 100)}% (as sets on ${r.recallSetQueries ?? 'n/a'} queries, by count past the artifact's 1,000)`,
      '100%',
      r.recallVsRg === null ? null : r.recallVsRg >= 1,
    ),
    line(
      '`server/discover` p99 / max while indexing',
      `${f(r.discoverP99Building)} / ${f(r.discoverMaxBuilding)} ms`,
      '≤ 100 / ≤ 500 ms',
      r.discoverP99Building <= 100 && r.discoverMaxBuilding <= 500,
    ),
    line(
      '`server/discover` p99 / max while 4 searches run',
      `${f(r.discoverP99Searching)} / ${f(r.discoverMaxSearching)} ms`,
      '≤ 100 / ≤ 500 ms',
      r.discoverP99Searching <= 100 && (r.discoverMaxSearching ?? 0) <= 500,
    ),
    line(
      'peak RSS (the whole run: build, queries, 4 searches at once)',
      `${f(r.peakMiB, 0)} MiB (${f(r.mibPer1000, 2)} MiB per 1,000 files)`,
      '≤ 1 GiB',
      r.peakMiB <= 1024,
    ),
    '',
  ].join('\n');
}
