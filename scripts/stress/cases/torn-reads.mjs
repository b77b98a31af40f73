// 7. Torn reads: a file truncated and rewritten in a loop while clients read it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { PROBE_FILE, PROBE_TEXT, writeFiles } from '../lib/files.mjs';
import { callModern, clientAgent } from '../lib/http.mjs';
import { fileUri } from '../lib/mcp.mjs';
import { trackChild } from '../lib/server.mjs';
import { pool } from '../lib/time.mjs';

const FILE = 'torn.txt';
const READERS = 4;
const READ_MS = 10_000;
const MAX_READS = 8000;
const MAX_VERSIONS = 50_000;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Version v is one letter repeated a length that only that letter has. */
const letterOf = (v) => LETTERS[v % LETTERS.length];
const lengthOf = (letter) => 20_000 + LETTERS.indexOf(letter) * 997;
const versionText = (v) => letterOf(v).repeat(lengthOf(letterOf(v)));

/**
 * The writer runs in its own process, so that the truncated-but-not-yet-written moment lasts
 * what writeFileSync takes (O_TRUNC, then one write), not a turn of this busy event loop.
 * It rewrites the file in place every ~1 ms until `ms` passed or `max` versions, then prints
 * how many it wrote.
 */
const WRITER = `
const { writeFileSync } = require('node:fs');
const [file, ms, max] = process.argv.slice(1);
const L = ${JSON.stringify(LETTERS)}, pause = new Int32Array(new SharedArrayBuffer(4));
const B = Array.from(L, (c, i) => Buffer.alloc(20000 + i * 997, c)); // encoded before the open
const end = Date.now() + Number(ms);
let v = 1;
for (; v <= Number(max) && Date.now() < end; v++) {
  writeFileSync(file, B[v % 26]);
  Atomics.wait(pause, 0, 0, 1);
}
console.log(v - 1);
`;

export const name = 'torn-reads';
export const scale = `${FILE} rewritten in place every ~1 ms by another process (writeFileSync: O_TRUNC, then one write; 26 versions, 20-45 KB, each a distinct letter and length) for ${READ_MS / 1000} s while ${READERS} clients read it`;

/** '' when `text` is exactly one version the test wrote, else what it is. */
function classify(text) {
  if (typeof text !== 'string') return 'no text';
  if (text.length === 0) return 'empty (read between the O_TRUNC and the write)';
  const letter = text[0];
  if (!LETTERS.includes(letter)) return `starts with ${JSON.stringify(letter)}`;
  if (text !== letter.repeat(text.length)) return 'mixed letters (two versions)';
  if (text.length < lengthOf(letter)) return 'a prefix of a version (short)';
  if (text.length > lengthOf(letter)) return 'longer than its version';
  return '';
}

export async function run(ctx) {
  const dir = ctx.tempDir('torn');
  await writeFiles(dir, { [PROBE_FILE]: PROBE_TEXT, [FILE]: versionText(0) });
  const server = await ctx.http(dir);
  const tally = ctx.tally();
  const probe = ctx.probe(server, tally);
  await probe.warm();
  const before = await ctx.baseline(server);

  const writer = trackChild(
    spawn(process.execPath, ['-e', WRITER, join(dir, FILE), READ_MS, MAX_VERSIONS], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  ctx.defer(() => {
    if (writer.exitCode === null) writer.kill('SIGKILL');
  });
  let printed = '';
  writer.stdout.on('data', (c) => (printed += c));

  ctx.loadStarts();
  probe.start();
  const kinds = {};
  const agent = clientAgent(READERS);
  ctx.defer(() => agent.destroy());
  const reads = await pool({ workers: READERS, count: MAX_READS, ms: READ_MS }, async (i) => {
    const id = 100_000 + i;
    tally.requests++;
    try {
      const res = await callModern(
        server.url,
        id,
        'resources/read',
        { uri: fileUri(FILE) },
        { agent, timeoutMs: 10_000 },
      );
      const a = res.answer;
      if (a === undefined) return tally.bad(`HTTP ${res.status}: ${res.text.slice(0, 80)}`);
      if (a.id !== id) return tally.bad(`id ${a.id} for ${id}`);
      if (a.error) {
        kinds.error = (kinds.error ?? 0) + 1;
        return tally.error(`${a.error.code} ${a.error.message}`);
      }
      const problem = classify(a.result?.contents?.[0]?.text);
      kinds[problem || 'whole version'] = (kinds[problem || 'whole version'] ?? 0) + 1;
      if (problem) {
        const text = a.result.contents[0].text;
        tally.bad(
          text ? `${problem}: "${text[0]}" x${text.length} of ${lengthOf(text[0])}` : problem,
        );
      } else tally.answer();
    } catch (error) {
      tally.missing(`read: ${error.message}`);
    }
  });
  const { slowestMs } = await probe.stop();
  if (writer.exitCode === null)
    await Promise.race([once(writer, 'exit'), new Promise((r) => setTimeout(r, 5000))]);
  const versions = Number(printed.trim()) || 0;
  return ctx.figure({
    label: '7 torn reads',
    scale,
    server,
    tally,
    before,
    slowestMs,
    notes: [
      `${versions} versions written during ${reads} reads: ${Object.entries(kinds)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    ],
  });
}
