import { describe, expect, it } from 'vitest';
import { TextIndex } from './text-index.js';
import { parseQuery, pathTerms, termsOf } from './terms.js';

// A brute-force reference of what a query of several words answers: every word must be a term
// of the file's text or name, or start one (3 letters or more); BM25 over the text, the best
// text and the best name match of each word. Words are chosen among the texts' terms, so that
// no word is split into parts.
const K1 = 1.2;
const B = 0.75;

function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function corpus(): Map<string, string> {
  const rand = seeded(27);
  const syllables = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'vo', 'ri'];
  const words: string[] = [];
  for (let i = 0; words.length < 300; i++) {
    const word = `${syllables[i % 8]}${syllables[(i >> 3) % 8]}${syllables[(i >> 6) % 8]}`;
    words.push(i % 5 === 0 ? `${word}x` : word);
  }
  const files = new Map<string, string>();
  for (let f = 0; f < 600; f++) {
    const lines: string[] = [];
    const n = 5 + Math.floor(rand() * 60);
    for (let w = 0; w < n; w++) {
      // Zipf-like: a few words in nearly every file, most in few.
      const word = words[Math.floor(words.length * rand() ** 3)]!;
      lines.push(w % 7 === 0 ? `${word}\n` : `${word} `);
    }
    files.set(`d${f % 9}/${words[f % words.length]}_${f}.txt`, lines.join(''));
  }
  return files;
}

function referenceOf(files: Map<string, string>): (query: string) => Map<string, number> {
  const docs = [...files].map(([path, text]) => {
    const counts = new Map<string, number>();
    for (const term of termsOf(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
    return { path, counts, length: termsOf(text).length, names: new Set(pathTerms(path)) };
  });
  const n = docs.length;
  const average = docs.reduce((s, d) => s + d.length, 0) / n;
  const idf = (df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const textDf = new Map<string, number>();
  const nameDf = new Map<string, number>();
  for (const doc of docs) {
    for (const term of doc.counts.keys()) textDf.set(term, (textDf.get(term) ?? 0) + 1);
    for (const term of doc.names) nameDf.set(term, (nameDf.get(term) ?? 0) + 1);
  }
  const all = [...new Set([...textDf.keys(), ...nameDf.keys()])];
  const df = (term: string, name: boolean): number => (name ? nameDf : textDf).get(term) ?? 0;
  return (query) => {
    const out = new Map<string, number>();
    for (const doc of docs) {
      let total = 0;
      let every = true;
      for (const { terms } of parseQuery(query).words) {
        const term = terms[0]!;
        let text = 0;
        let name = 0;
        const variants = new Set<string>([term]);
        if (term.length >= 3) for (const t of all) if (t.startsWith(term)) variants.add(t);
        for (const variant of variants) {
          const weight = variant === term ? 1 : 0.5;
          const tf = doc.counts.get(variant) ?? 0;
          if (tf > 0) {
            const norm = 1 - B + (B * doc.length) / average;
            const score = (idf(df(variant, false)) * weight * tf * (K1 + 1)) / (tf + K1 * norm);
            text = Math.max(text, score);
          }
          if (doc.names.has(variant)) name = Math.max(name, idf(df(variant, true)) * weight * 3);
        }
        if (text === 0 && name === 0) every = false;
        total += text + name;
      }
      if (every) out.set(doc.path, total);
    }
    return out;
  };
}

describe('several words', () => {
  const files = corpus();
  const reference = referenceOf(files);
  const index = new TextIndex();
  for (const [path, text] of files) index.add(path, text);
  const terms = new Map<string, number>();
  for (const text of files.values()) {
    for (const term of new Set(termsOf(text))) terms.set(term, (terms.get(term) ?? 0) + 1);
  }
  const byCount = [...terms].sort((a, b) => b[1] - a[1]).map(([term]) => term);
  const common = byCount.slice(0, 6);
  const rare = byCount.slice(-40).filter((_, i) => i % 8 === 0);
  const queries = [
    ...common.flatMap((a, i) => common.slice(i + 1).map((b) => `${a} ${b}`)),
    ...rare.flatMap((r) => common.slice(0, 3).map((c) => `${r} ${c}`)),
    ...rare.map((r) => `${common[0]} ${r} ${common[1]}`),
    `${common[0]!.slice(0, 3)} ${common[2]}`,
  ];

  it.each(queries)('"%s" answers what a brute-force reference does', (query) => {
    const expected = reference(query);
    const answer = index.search(parseQuery(query), { limit: files.size });
    expect(answer.total).toBe(expected.size);
    const got = new Map(answer.matches.map((m) => [m.path, m.score]));
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, score] of expected) expect(got.get(path)).toBeCloseTo(score, 9);
  });

  it('finds rare words among common ones (the probed lists are long)', () => {
    const sizes = rare.map((r) => reference(r).size);
    expect(Math.max(...sizes) * 8).toBeLessThan(reference(common[0]!).size);
  });
});
