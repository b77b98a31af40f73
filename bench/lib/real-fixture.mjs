// The folder of the issue-25 cells (cold-real, search-load): generated at run time under
// os.tmpdir() from a fixed seed.
//   t/NN/f-NNNNN.txt   20,000 distinct texts of 1-8 KiB (a unique first line, then prose)
//   b/NN/b-NNN.bin     500 binaries of 16-256 KiB of random bytes (read as base64 blobs)
// `texts` scales it down for a smoke run (binaries: one per 40 texts).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prose, seeded } from './serve-fixture.mjs';

const KiB = 1024;
const pad = (n, w) => String(n).padStart(w, '0');

/** Writes the folder; returns { root, dir, texts: [rel], binaries: [rel], bytesOf(rel) }. */
export function makeRealFolder(texts = 20_000) {
  const rand = seeded(25);
  const root = mkdtempSync(path.join(os.tmpdir(), 'mcpkit-bench-real-'));
  const dir = path.join(root, 'real');
  const corpus = prose(rand, 1024 * KiB);
  const files = new Map();
  const put = (rel, bytes) => {
    const abs = path.join(dir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, bytes);
    files.set(rel, bytes);
  };
  const textList = [];
  for (let i = 0; i < texts; i++) {
    const rel = `t/${pad(Math.floor(i / 500), 2)}/f-${pad(i, 5)}.txt`;
    const size = KiB + Math.floor(rand() * 7 * KiB);
    const head = `real file ${i}\n`;
    const at = Math.floor(rand() * (corpus.length - size));
    put(rel, Buffer.from(head + corpus.slice(at, at + size - head.length)));
    textList.push(rel);
  }
  const binList = [];
  for (let i = 0; i < Math.max(1, Math.round(texts / 40)); i++) {
    const rel = `b/${pad(Math.floor(i / 100), 2)}/b-${pad(i, 3)}.bin`;
    const size = 16 * KiB + Math.floor(rand() * 240 * KiB);
    const words = new Uint32Array(Math.ceil(size / 4));
    for (let k = 0; k < words.length; k++) words[k] = Math.floor(rand() * 4294967296);
    put(rel, Buffer.from(words.buffer, 0, size));
    binList.push(rel);
  }
  return { root, dir, texts: textList, binaries: binList, bytesOf: (rel) => files.get(rel) };
}
