// The folder of the repository-scale cells (issue 27): a deterministic, code-like repository.
//   100,000 files in 3,500 folders, 200 B-16 KiB (log-uniform), 1% binaries
//   text: code-like lines whose words follow a Zipf law over a ~50,000-word vocabulary, with
//   camelCase and snake_case identifiers made of those words
//   planted words: unique words, each written in exactly one text file, spread over the folder
//   (the last ones near its end in path order, where a scan with a file budget never looks)
// Generated once under os.tmpdir() per (files, version) and reused by later runs.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seeded } from './serve-fixture.mjs';

const VERSION = 1;
const VOCABULARY = 50_000;
const pad = (n, w) => String(n).padStart(w, '0');

// Syllables never produce "zq", which every planted word carries.
const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w'];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou'];
const CODAS = ['', '', '', 'n', 'r', 's', 't', 'l'];
const EXTENSIONS = ['ts', 'ts', 'js', 'py', 'md', 'txt', 'go', 'rs', 'json', 'c'];

/** `count` distinct lowercase words of 2-4 syllables, in a fixed order (rank 1 first). */
export function vocabulary(rand, count = VOCABULARY) {
  const seen = new Set();
  const words = [];
  const pick = (list) => list[Math.floor(rand() * list.length)];
  while (words.length < count) {
    const syllables = 2 + Math.floor(rand() * 3);
    let word = '';
    for (let s = 0; s < syllables; s++) word += pick(ONSETS) + pick(NUCLEI) + pick(CODAS);
    if (word.length < 4 || seen.has(word)) continue;
    seen.add(word);
    words.push(word);
  }
  return words;
}

/** A sampler of vocabulary ranks under a Zipf law (exponent 1). */
function zipf(rand, n) {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cumulative[k] = total += 1 / (k + 1);
  return () => {
    const x = rand() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const planted = (i) => `zq${(i * 7919 + 1013).toString(36)}plant`;

/** Where the planted words go (file numbers), spread over the folder, the last near its end. */
function plantSpots(files, count) {
  const spots = [];
  for (let i = 0; i < count - 2; i++) spots.push(Math.floor(((i + 0.5) * files) / count));
  spots.push(files - 7, files - 3);
  return spots;
}

/**
 * Writes (or reuses) the folder. Returns { dir, files, texts, binaries, bytes, planted: [{ word,
 * rel }], vocabulary } where `vocabulary` is ordered by frequency (most common first).
 */
export function makeRepoFolder({ files = 100_000, folders = 3_500, plants = 40 } = {}) {
  const root = path.join(os.tmpdir(), `mcpkit-bench-repo-v${VERSION}-${files}`);
  const dir = path.join(root, 'repo');
  const manifest = path.join(root, 'manifest.json');
  const rand = seeded(27);
  const words = vocabulary(rand);
  if (existsSync(manifest))
    return { ...JSON.parse(readFileSync(manifest, 'utf8')), vocabulary: words };
  rmSync(root, { recursive: true, force: true });
  const rank = zipf(rand, words.length);
  const word = () => words[rank()];
  const camel = () => {
    const n = 2 + Math.floor(rand() * 2);
    let id = word();
    for (let i = 1; i < n; i++) {
      const w = word();
      id += w[0].toUpperCase() + w.slice(1);
    }
    return id;
  };
  const snake = () => `${word()}_${word()}${rand() < 0.4 ? `_${word()}` : ''}`;
  const ident = () => (rand() < 0.6 ? camel() : snake());
  const line = () => {
    const r = rand();
    if (r < 0.25) return `function ${ident()}(${ident()}, ${word()}) {`;
    if (r < 0.5) return `  const ${ident()} = ${ident()}(${word()}, ${Math.floor(rand() * 1000)});`;
    if (r < 0.75) {
      let text = '  //';
      const n = 4 + Math.floor(rand() * 9);
      for (let i = 0; i < n; i++) text += ` ${word()}`;
      return text;
    }
    if (r < 0.9) return `  return ${ident()}.${word()} + ${ident()};`;
    return '}';
  };
  const folderNames = [];
  for (let f = 0; f < folders; f++) {
    const group = `${words[(f * 37) % 500]}-${pad(Math.floor(f / 100), 2)}`;
    folderNames.push(`${group}/${words[(f * 131 + 7) % 5000]}_${pad(f, 4)}`);
  }
  const spots = new Map(plantSpots(files, plants).map((at, i) => [at, planted(i)]));
  const plantedList = [];
  let texts = 0;
  let binaries = 0;
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const folder = folderNames[Math.floor((i * folders) / files)];
    const size = Math.floor(200 * Math.pow(16384 / 200, rand()));
    const binary = !spots.has(i) && rand() < 0.01;
    const ext = binary ? 'bin' : EXTENSIONS[Math.floor(rand() * EXTENSIONS.length)];
    const rel = `${folder}/${ident()}_${pad(i, 5)}.${ext}`;
    const abs = path.join(dir, rel);
    if (i === 0 || Math.floor(((i - 1) * folders) / files) !== Math.floor((i * folders) / files)) {
      mkdirSync(path.dirname(abs), { recursive: true });
    }
    let body;
    if (binary) {
      body = Buffer.alloc(size);
      for (let k = 0; k < size; k++) body[k] = Math.floor(rand() * 256);
      binaries++;
    } else {
      let text = '';
      const plant = spots.get(i);
      const at = plant === undefined ? -1 : Math.floor(rand() * (size - 100));
      while (text.length < size) {
        if (at >= 0 && text.length >= at && !text.includes(plant))
          text += `  // ${word()} ${plant} ${word()}\n`;
        text += `${line()}\n`;
      }
      if (plant !== undefined) plantedList.push({ word: plant, rel });
      body = Buffer.from(text);
      texts++;
    }
    writeFileSync(abs, body);
    bytes += body.length;
  }
  const result = { dir, files, texts, binaries, bytes, planted: plantedList };
  writeFileSync(manifest, JSON.stringify(result));
  return { ...result, vocabulary: words };
}

/**
 * The 60 queries of the scale cells: 20 planted words (the last two near the folder's end), 15 common words, 15 two-word queries of
 * words that occur together, 10 words that match nothing.
 */
export function repoQueries(folder) {
  const words = folder.vocabulary;
  const queries = [];
  const planted = folder.planted;
  const picked = [...planted.filter((_, i) => i % 2 === 0).slice(0, 18), ...planted.slice(-2)];
  for (const { word } of picked) queries.push({ kind: 'planted', query: word });
  for (let i = 0; i < 15; i++) queries.push({ kind: 'common', query: words[5 + i * 37] });
  for (let i = 0; i < 15; i++) {
    queries.push({ kind: 'two-word', query: `${words[2 + i * 11]} ${words[300 + i * 97]}` });
  }
  for (let i = 0; i < 10; i++) queries.push({ kind: 'no-match', query: `zqnothing${i}x` });
  return queries;
}
