// Compares search engines for the served-folder index (issue 27) on the bench's repository
// folder: build time, peak and settled RSS, query latency over the 60 scale queries, recall of the
// planted words, the cost of updating 200 files, and the size of the serialised index.
// Each engine runs in a fresh child process. The engines are not all dependencies of mcpkit:
//   npm install --no-save minisearch@7 flexsearch@0.8 @orama/orama@3
//   node bench/index-engines.mjs [--files N] [--only minisearch,flexsearch,orama]
// Every engine gets the same terms (the tokenizer below) and the same AND-of-words semantics with
// word prefixes; where an engine has no query-time prefixes, the adapter expands them from the
// distinct terms it saw.
import { fork } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeRepoFolder, repoQueries } from './lib/repo-fixture.mjs';

// The same terms for every engine: mcpkit's tokenizer (identifier parts, lowercase).
const { termsOf: terms } = await import(new URL('../dist/search/terms.js', import.meta.url).href);
const queryWords = (q) => terms(q);

const PREFIX_MIN = 3;
const PREFIX_CAP = 64;

function expander(vocab) {
  let sorted;
  return (word) => {
    if (word.length < PREFIX_MIN) return [word];
    sorted ??= [...vocab].sort();
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid] < word) lo = mid + 1;
      else hi = mid;
    }
    const out = [];
    for (
      let i = lo;
      i < sorted.length && sorted[i].startsWith(word) && out.length < PREFIX_CAP;
      i++
    )
      out.push(sorted[i]);
    return out.length > 0 ? out : [word];
  };
}

const adapters = {
  // mcpkit's own index (src/search): typed-array postings; run `npm run build` first.
  async mcpkit() {
    const { TextIndex } = await import(
      new URL('../dist/search/text-index.js', import.meta.url).href
    );
    const { parseQuery } = await import(new URL('../dist/search/terms.js', import.meta.url).href);
    const index = new TextIndex();
    return {
      raw: true,
      built: () => index.fit(),
      add: (id, rel, text) => index.add(rel, text),
      remove: (id, rel) => index.remove(rel),
      vacuum: () => {},
      search: (q, limit) => index.search(parseQuery(q), { limit }).matches.map((m) => m.path),
      serialize: () => ({ length: index.stats().bytes }),
    };
  },
  async minisearch() {
    const { default: MiniSearch } = await import('minisearch');
    const ms = new MiniSearch({
      fields: ['name', 'text'],
      storeFields: [],
      tokenize: (value) => (Array.isArray(value) ? value : queryWords(value)),
      processTerm: (t) => t,
      searchOptions: {
        combineWith: 'AND',
        prefix: (t) => t.length >= PREFIX_MIN,
        boost: { name: 3 },
        maxFuzzy: 0,
      },
    });
    return {
      add: (id, name, text) => ms.add({ id, name, text }),
      remove: (id) => ms.discard(id),
      vacuum: () => ms.vacuum(),
      search: (q, limit) =>
        ms
          .search(q)
          .slice(0, limit)
          .map((r) => r.id),
      serialize: () => JSON.stringify(ms),
    };
  },
  async flexsearch() {
    const { Index } = await import('flexsearch');
    const fastupdate = process.env.FLEX_FASTUPDATE !== '0';
    const resolution = Number(process.env.FLEX_RESOLUTION ?? 9);
    const make = () =>
      new Index({ tokenize: 'strict', encode: (s) => s.split(' '), fastupdate, resolution });
    const name = make();
    const text = make();
    const vocab = new Set();
    const expand = expander(vocab);
    let dirty = false;
    return {
      add: (id, n, t) => {
        for (const x of n) vocab.add(x);
        for (const x of t) vocab.add(x);
        dirty = true;
        name.add(id, n.join(' '));
        text.add(id, t.join(' '));
      },
      remove: (id) => {
        name.remove(id);
        text.remove(id);
      },
      vacuum: () => {},
      search: (q, limit) => {
        if (dirty) dirty = false;
        // Per word: the union of its expansions (name hits first), then the words intersected.
        let result;
        for (const word of queryWords(q)) {
          const hits = new Map();
          for (const term of expand(word)) {
            for (const id of name.search(term, { limit: 1e6 }))
              hits.set(id, (hits.get(id) ?? 0) + 3);
            for (const id of text.search(term, { limit: 1e6 }))
              hits.set(id, (hits.get(id) ?? 0) + 1);
          }
          if (result === undefined) result = hits;
          else
            for (const [id, s] of result) {
              if (hits.has(id)) result.set(id, s + hits.get(id));
              else result.delete(id);
            }
        }
        return [...(result ?? new Map())]
          .sort((a, b) => b[1] - a[1])
          .slice(0, limit)
          .map(([id]) => id);
      },
      serialize: () => {
        let size = 0;
        text.export((key, data) => (size += key.length + (data?.length ?? 0)));
        name.export((key, data) => (size += key.length + (data?.length ?? 0)));
        return { length: size };
      },
    };
  },
  async orama() {
    const { create, insert, remove, search, save } = await import('@orama/orama');
    const db = create({
      schema: { name: 'string', text: 'string' },
      components: {
        tokenizer: {
          language: 'english',
          normalizationCache: new Map(),
          tokenize: (raw) => queryWords(raw),
        },
      },
    });
    return {
      add: (id, n, t) => insert(db, { id: String(id), name: n.join(' '), text: t.join(' ') }),
      remove: (id) => remove(db, String(id)),
      vacuum: () => {},
      search: (q, limit) =>
        search(db, {
          term: q,
          properties: ['name', 'text'],
          boost: { name: 3 },
          threshold: 0,
          limit,
        }).hits.map((h) => Number(h.id)),
      serialize: () => JSON.stringify(save(db)),
    };
  },
};

function walk(dir, rel = '', out = []) {
  for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(dir, r, out);
    else out.push(r);
  }
  return out;
}

const rssMiB = () => {
  const s = readFileSync('/proc/self/status', 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)[1]);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
};

async function runEngine(name, files) {
  const folder = makeRepoFolder({ files });
  const engine = await adapters[name]();
  const base = rssMiB().rss;
  const list = walk(folder.dir).sort();
  const ids = new Map();
  const t0 = performance.now();
  let textBytes = 0;
  list.forEach((rel, id) => {
    ids.set(rel, id);
    let text;
    if (!rel.endsWith('.bin')) {
      text = readFileSync(path.join(folder.dir, rel), 'utf8');
      textBytes += text.length;
    }
    if (engine.raw) engine.add(id, rel, text);
    else
      engine.add(id, terms(rel.replaceAll(/[/.\-]/g, ' ')), text === undefined ? [] : terms(text));
  });
  engine.built?.();
  const buildMs = performance.now() - t0;
  const k0 = performance.now();
  for (const rel of list.slice(0, 2000)) {
    if (!rel.endsWith('.bin')) terms(readFileSync(path.join(folder.dir, rel), 'utf8'));
  }
  const tokenizeS = ((performance.now() - k0) / 1000) * (list.length / Math.min(2000, list.length));
  globalThis.gc?.();
  const built = rssMiB();
  const heapMiB = (process.memoryUsage().heapUsed + process.memoryUsage().external) / 1048576;
  const times = [];
  const recall = { planted: 0, first: 0 };
  const key = (rel) => (engine.raw ? rel : ids.get(rel));
  const plantedAt = new Map(folder.planted.map((p) => [p.word, key(p.rel)]));
  for (const { kind, query } of repoQueries(folder)) {
    const s = performance.now();
    const hits = engine.search(query, 10);
    times.push(performance.now() - s);
    if (kind === 'planted') {
      if (hits.includes(plantedAt.get(query))) recall.planted++;
      if (hits[0] === plantedAt.get(query)) recall.first++;
    }
  }
  times.sort((a, b) => a - b);
  const u0 = performance.now();
  for (let i = 0; i < 200; i++) {
    const rel = list[(i * 499) % list.length];
    const id = ids.get(rel);
    engine.remove(id, rel);
    const text = `${rel.endsWith('.bin') ? '' : readFileSync(path.join(folder.dir, rel), 'utf8')} zqupdated${i}x`;
    if (engine.raw) engine.add(id, rel, text);
    else engine.add(id, terms(rel.replaceAll(/[/.\-]/g, ' ')), terms(text));
  }
  engine.vacuum();
  const updateMs = (performance.now() - u0) / 200;
  const updated = engine.search('zqupdated17x', 10)[0] === key(list[(17 * 499) % list.length]);
  const s0 = performance.now();
  const serialized = engine.serialize();
  const serializeMs = performance.now() - s0;
  return {
    engine: name,
    files: list.length,
    textMiB: textBytes / 1048576,
    buildS: buildMs / 1000,
    baseMiB: base,
    builtMiB: built.rss,
    peakMiB: built.hwm,
    heapMiB,
    tokenizeS,
    p50: times[Math.floor(times.length / 2)],
    p95: times[Math.floor(times.length * 0.95)],
    max: times[times.length - 1],
    planted: `${recall.planted}/20 (${recall.first} first)`,
    updateMs,
    updated,
    serializedMiB: serialized.length / 1048576,
    serializeMs,
  };
}

const argv = process.argv.slice(2);
if (argv[0] === '--child') {
  const result = await runEngine(argv[1], Number(argv[2]));
  process.send(result);
} else {
  const at = (flag, fallback) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : fallback);
  const files = Number(at('--files', 100_000));
  const only = at('--only', 'mcpkit,minisearch,flexsearch,orama').split(',');
  makeRepoFolder({ files });
  const self = fileURLToPath(import.meta.url);
  for (const name of only) {
    const result = await new Promise((resolve) => {
      const child = fork(self, ['--child', name, String(files)], {
        execArgv: ['--expose-gc', '--max-old-space-size=6144'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      child.on('message', resolve);
      child.on('exit', (code) => resolve({ engine: name, failed: `exit ${code}` }));
    });
    const fmt = (v) =>
      typeof v === 'number' ? (v >= 100 ? v.toFixed(0) : v.toFixed(2)) : String(v);
    console.log(
      Object.entries(result)
        .map(([k, v]) => `${k}=${fmt(v)}`)
        .join(' '),
    );
  }
}
