// 5. Search cost: concurrent tools/call search over a folder of many small files.
import { PROBE_FILE, PROBE_TEXT, writeFiles } from '../lib/files.mjs';
import { callModern, clientAgent } from '../lib/http.mjs';
import { fileUri } from '../lib/mcp.mjs';
import { MiB, memOf } from '../lib/rss.mjs';
import { pool, sleep } from '../lib/time.mjs';

const DIRS = 300;
const PER_DIR = 100;
const SEARCHERS = 6;
const SEARCH_MS = 12_000;
const MAX_SEARCHES = 3000;
const NEEDLE_EVERY = 1000;
/** Longest wait for the index of the whole folder before the load starts. */
const BUILD_WAIT_MS = 120_000;

export const name = 'search-cost';
export const scale = `${(DIRS * PER_DIR).toLocaleString('en')} files of ~150 B in ${DIRS} folders; ${SEARCHERS} clients calling search back to back for ${SEARCH_MS / 1000} s (queries matching nothing, one file, or ${(DIRS * PER_DIR) / NEEDLE_EVERY} files)`;

const pathOf = (i) =>
  `d${String(Math.floor(i / PER_DIR)).padStart(3, '0')}/f${String(i).padStart(5, '0')}.txt`;
const textOf = (i) =>
  `file ${i} of the search stress folder\nlorem ipsum dolor sit amet tok-${i}-end\n${i % NEEDLE_EVERY === 7 ? 'needle-alpha here\n' : ''}`;

/** Query i, and the set of files that match it. */
function query(i, total) {
  if (i % 3 === 0) return { q: `zz-nothing-${i}`, expect: new Set() };
  if (i % 3 === 1) {
    const k = (i * 7919) % total;
    // Quoted: the exact token (a bare `tok-254-end` also matches the words `tok-2540-end` starts).
    return { q: `"tok-${k}-end"`, expect: new Set([fileUri(pathOf(k))]) };
  }
  const expect = new Set();
  for (let k = 7; k < total; k += NEEDLE_EVERY) expect.add(fileUri(pathOf(k)));
  return { q: 'needle-alpha', expect };
}

/**
 * '' when the search answer is right: only matching files, all of them unless it says it
 * stopped or that its index is still being built.
 */
function check(answer, { q, expect }) {
  const content = answer.result?.content ?? [];
  const summary = content[0]?.text ?? '';
  const links = content.filter((b) => b.type === 'resource_link').map((b) => b.uri);
  const stray = links.filter((u) => !expect.has(u));
  if (stray.length)
    return `"${q}" linked ${stray.length} files that do not match, e.g. ${stray[0]}`;
  const partial =
    /stopped early|busy|still being (built|walked)/i.test(summary) ||
    answer.result?.isError === true;
  if (!partial && links.length !== expect.size)
    return `"${q}": ${links.length} of ${expect.size} matches, and no word of stopping: ${summary.slice(0, 100)}`;
  return '';
}

export async function run(ctx) {
  const dir = ctx.tempDir('search');
  const total = DIRS * PER_DIR;
  const files = { [PROBE_FILE]: PROBE_TEXT };
  for (let i = 0; i < total; i++) files[pathOf(i)] = textOf(i);
  await writeFiles(dir, files);
  const server = await ctx.http(dir, { '--search-timeout': '2s' });
  const tally = ctx.tally();
  const probe = ctx.probe(server, tally);
  await probe.warm();
  const agent = clientAgent(SEARCHERS);
  ctx.defer(() => agent.destroy());
  const kinds = { complete: 0, partial: 0, stopped: 0, busy: 0, isError: 0 };
  const search = async (i, timeoutMs = 30_000) => {
    const want = query(i, total);
    const id = 10_000 + i;
    tally.requests++;
    try {
      const res = await callModern(
        server.url,
        id,
        'tools/call',
        { name: 'search', arguments: { query: want.q, limit: 100 } },
        { agent, timeoutMs },
      );
      const a = res.answer;
      if (a === undefined) return tally.bad(`HTTP ${res.status}: ${res.text.slice(0, 80)}`);
      if (a.id !== id) return tally.bad(`id ${a.id} for ${id}`);
      if (a.error) return tally.error(`${a.error.code} ${a.error.message}`);
      const summary = a.result?.content?.[0]?.text ?? '';
      const kind = /busy/i.test(summary)
        ? 'busy'
        : a.result?.isError
          ? 'isError'
          : /stopped early/i.test(summary)
            ? 'stopped'
            : /still being (built|walked)/i.test(summary)
              ? 'partial'
              : 'complete';
      kinds[kind]++;
      const problem = check(a, want);
      if (problem) tally.bad(problem);
      else if (kind === 'busy' || kind === 'isError') tally.error(summary.slice(0, 100));
      else tally.answer();
    } catch (error) {
      tally.missing(`search "${want.q}": ${error.message}`);
    }
  };
  const started = memOf(server.pid)?.rss ?? null;
  const t0 = performance.now();
  await search(2); // lists the folder once, before the measure
  const firstMs = performance.now() - t0;
  // The index of the whole folder is kept for the server's life: the RSS target ("+50 MiB")
  // counts what the load adds once it is built, and the index's own cost is a note.
  const builtMs = await indexBuilt(server, agent);
  const before = await ctx.baseline(server);
  const indexMiB = started === null ? null : (before - started) / MiB;
  ctx.loadStarts();
  probe.start();
  const made = await pool({ workers: SEARCHERS, count: MAX_SEARCHES, ms: SEARCH_MS }, (i) =>
    search(i + 3),
  );
  const { slowestMs } = await probe.stop();
  return ctx.figure({
    label: '5 search cost',
    scale,
    server,
    tally,
    before,
    slowestMs,
    notes: [
      builtMs === null
        ? `the index was not built within ${BUILD_WAIT_MS / 1000} s: the baseline includes part of it`
        : `the listing and index of ${total} files built ${(builtMs / 1000).toFixed(1)} s after the first search: RSS +${indexMiB?.toFixed(0)} MiB (${((indexMiB ?? 0) / (total / 1000)).toFixed(2)} MiB per 1,000 files), before the baseline`,
      `first search (listing ${total} files) ${Math.round(firstMs)} ms; then ${made} searches: ${Object.entries(
        kinds,
      )
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    ],
  });
}

/** Ms until a search says nothing of an index still being built (null past BUILD_WAIT_MS). */
async function indexBuilt(server, agent) {
  const t0 = performance.now();
  for (let id = 900_000; performance.now() - t0 < BUILD_WAIT_MS; id++) {
    const res = await callModern(
      server.url,
      id,
      'tools/call',
      { name: 'search', arguments: { query: '"tok-7-end"', limit: 1 } },
      { agent, timeoutMs: 30_000 },
    ).catch(() => undefined);
    const summary = res?.answer?.result?.content?.[0]?.text ?? '';
    if (summary !== '' && !/still being (built|walked)/i.test(summary)) {
      return performance.now() - t0;
    }
    await sleep(250);
  }
  return null;
}
