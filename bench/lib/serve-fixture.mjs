// The folders the serve cases give `mcpkit serve` (and the SDK server): generated at run time
// under os.tmpdir() from a fixed seed, so every run serves the same bytes.
//   main/hot.txt          1 KiB of plain text (the hot read)
//   main/image.png        256 KiB, a PNG signature then random bytes (read as a base64 blob)
//   main/docs/doc-NNN.md  200 texts of ~3 KiB; "quasar" planted in 5, term-00 ... term-99 in 1-4 each
//   cold/cold/c-NNNN.txt  1,000 distinct 1 KiB texts (the cold, varied reads)
//   cold/warm/w-NNNN.txt  2,000 distinct 1 KiB texts: a fresh server's warm-up on that folder
// The 1,000 cold files sit in a folder of their own, so that search scans the 201 texts of main
// (~600 KiB) and not 1,200 files. Expected matches are computed from the bytes written.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const COUNTS = { docs: 200, cold: 1000, terms: 100, reviews: 100, warm: 2000 };
export const HOT = {
  read: 'hot.txt',
  blob: 'image.png',
  review: 'docs/doc-000.md',
  search: 'quasar',
};
const QUASAR_IN = [7, 42, 99, 150, 188];
const BLOB_BYTES = 256 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A small seeded generator (mulberry32): the same folder every run. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Plain words only: no JSON escaping beyond the newlines, and nothing a query could match.
const WORDS = (
  'alpha bravo cedar delta ember fjord glade harbor island juniper kettle lantern meadow ' +
  'nectar orchard pebble quill river summit timber umber valley willow yonder zephyr ' +
  'amber basalt canyon dune estuary fern granite heath inlet lagoon marsh nimbus oasis ' +
  'prairie ridge savanna tundra upland vista wharf'
).split(' ');

/** Text of about `bytes` bytes in lines of words (exactly `bytes` when `exact`). */
export function prose(rand, bytes, exact = false) {
  let out = '';
  let line = '';
  while (out.length + line.length < bytes) {
    line += (line ? ' ' : '') + WORDS[Math.floor(rand() * WORDS.length)];
    if (line.length > 60) {
      out += line + '\n';
      line = '';
    }
  }
  out += line;
  return exact ? out.slice(0, bytes - 1).padEnd(bytes - 1, 'x') + '\n' : out;
}

/** Inserts ` word ` at a seeded word boundary of `text`. */
function plant(rand, text, word) {
  const spaces = [...text.matchAll(/ /g)].map((m) => m.index);
  const at = spaces[Math.floor(rand() * spaces.length)];
  return `${text.slice(0, at)} ${word}${text.slice(at)}`;
}

export const termOf = (i) => `term-${String(i).padStart(2, '0')}`;
const docPath = (i) => `docs/doc-${String(i).padStart(3, '0')}.md`;
const warmPath = (i) => `warm/w-${String(i).padStart(4, '0')}.txt`;
const coldPath = (i) => `cold/c-${String(i).padStart(4, '0')}.txt`;

/**
 * Writes the folders; returns { root, dirs: { main, cold }, files: Map(path -> Buffer), coldReads,
 * reviews, queries, matches(query) -> sorted paths of main whose path or text contains it }.
 */
export function makeServeFolder() {
  const rand = seeded(12);
  const files = new Map(); // the main folder
  const coldFiles = new Map();
  files.set(HOT.read, Buffer.from(prose(rand, 1024, true)));
  const blob = Buffer.alloc(BLOB_BYTES);
  for (let i = 0; i < BLOB_BYTES; i++) blob[i] = Math.floor(rand() * 256);
  PNG_SIGNATURE.copy(blob);
  files.set(HOT.blob, blob);
  for (let i = 0; i < COUNTS.docs; i++) {
    let text = `# Document ${i}\n\n` + prose(rand, 3000);
    if (QUASAR_IN.includes(i)) text = plant(rand, text, 'quasar');
    for (let t = 0; t < COUNTS.terms; t++) {
      const hits = 1 + (t % 4); // docs (t*7 + k*53) % 200 for k < hits
      for (let k = 0; k < hits; k++)
        if ((t * 7 + k * 53) % COUNTS.docs === i) text = plant(rand, text, termOf(t));
    }
    files.set(docPath(i), Buffer.from(text + '\n'));
  }
  for (let i = 0; i < COUNTS.cold; i++) {
    const text = `cold file ${i}\n` + prose(rand, 1024, true);
    coldFiles.set(coldPath(i), Buffer.from(text).subarray(0, 1024));
  }
  for (let i = 0; i < COUNTS.warm; i++)
    coldFiles.set(
      warmPath(i),
      Buffer.from(`warm file ${i}\n` + prose(rand, 1024, true)).subarray(0, 1024),
    );
  const root = mkdtempSync(path.join(os.tmpdir(), 'mcpkit-bench-serve-'));
  const write = (dir, map) => {
    for (const [rel, bytes] of map) {
      mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), bytes);
    }
  };
  write(path.join(root, 'main'), files);
  write(path.join(root, 'cold'), coldFiles);
  const lower = new Map(
    [...files].map(([rel, b]) => [
      rel,
      rel.endsWith('.png') ? '' : b.toString('utf8').toLowerCase(),
    ]),
  );
  const matches = (query) => {
    const q = query.replace(/^"(.*)"$/, '$1').toLowerCase();
    return [...lower]
      .filter(([rel, text]) => rel.toLowerCase().includes(q) || text.includes(q))
      .map(([rel]) => rel)
      .sort();
  };
  return {
    root,
    dirs: { main: path.join(root, 'main'), cold: path.join(root, 'cold') },
    files: new Map([...files, ...coldFiles]),
    coldReads: Array.from({ length: COUNTS.cold }, (_, i) => coldPath(i)),
    // Reviews of docs the hot workloads never touch (doc-100 ... doc-199).
    reviews: Array.from({ length: COUNTS.reviews }, (_, i) =>
      docPath(COUNTS.docs - COUNTS.reviews + i),
    ),
    // Quoted: `term-10` unquoted is two words ("term" and "10"), which doc-010 ("Document 10")
    // holds too; the phrase is what the naive scan of the other servers matches.
    queries: Array.from({ length: COUNTS.terms }, (_, i) => `"${termOf(i)}"`),
    // Warm-ups outside the measured sets: reads of the warm files; reviews of doc-001 ... doc-099;
    // searches for words no file holds (each still scans every text).
    warmReads: Array.from({ length: COUNTS.warm }, (_, i) => warmPath(i)),
    warmReviews: Array.from({ length: COUNTS.docs - COUNTS.reviews - 1 }, (_, i) => docPath(i + 1)),
    warmQueries: Array.from({ length: 200 }, (_, i) => `absent-${String(i).padStart(3, '0')}`),
    matches,
  };
}

/** A seeded Fisher-Yates shuffle (a copy). */
export function shuffled(list, seed) {
  const rand = seeded(seed);
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
