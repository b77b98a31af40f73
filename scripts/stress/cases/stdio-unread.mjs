// 2. stdio with stdout unread: thousands of pipelined reads of a 50 KB file, then read them all.
import { PROBE_FILE, PROBE_TEXT, writeFiles } from '../lib/files.mjs';
import { fileUri, modern, textOf } from '../lib/mcp.mjs';
import { memOf } from '../lib/rss.mjs';
import { StdioClient } from '../lib/stdio.mjs';
import { sleep, waitFor } from '../lib/time.mjs';

const REQUESTS = 4000;
const UNREAD_MS = 4000;
const FILE = 'big.txt';
const TEXT = Array.from(
  { length: 800 },
  (_, i) => `line ${String(i).padStart(5, '0')} ${'abcdefgh'.repeat(7)}\n`,
).join(''); // ~50 KB

export const name = 'stdio-unread';
export const scale = `${REQUESTS} pipelined resources/read of a ${(TEXT.length / 1024).toFixed(0)} KiB file over stdio (${((REQUESTS * TEXT.length) / 2 ** 20).toFixed(0)} MiB of answers), stdout unread for the first ${UNREAD_MS / 1000} s; then every answer's id and bytes checked`;

export async function run(ctx) {
  const dir = ctx.tempDir('stdio');
  await writeFiles(dir, { [FILE]: TEXT, [PROBE_FILE]: PROBE_TEXT });
  const server = ctx.stdio(dir, { '--max-in-flight': 64 });
  const client = new StdioClient(server.child);
  const tally = ctx.tally();
  const read = (id) => modern(id, 'resources/read', { uri: fileUri(FILE) });

  const warm = await client.call(read(0), 15_000);
  if (textOf(warm.answer) !== TEXT)
    throw new Error(`warm-up read failed: ${JSON.stringify(warm.answer)?.slice(0, 200)}`);
  const before = await ctx.baseline(server);

  ctx.loadStarts();
  client.pause();
  let sent = 0;
  let peakUnread = 0;
  const sampler = setInterval(
    () => (peakUnread = Math.max(peakUnread, memOf(server.pid)?.rss ?? 0)),
    100,
  );
  ctx.defer(() => clearInterval(sampler));
  const unreadUntil = Date.now() + UNREAD_MS;
  while (sent < REQUESTS && Date.now() < unreadUntil) {
    const drained = await client.send(read(++sent), Math.max(1, unreadUntil - Date.now()));
    if (!drained) break;
  }
  const sentUnread = sent;
  await sleep(Math.max(0, unreadUntil - Date.now()));
  clearInterval(sampler);
  client.resume();
  const writeUntil = Date.now() + 30_000;
  while (sent < REQUESTS && Date.now() < writeUntil) {
    await client.send(read(++sent), 10_000);
  }
  await waitFor(() => client.answers.size >= sent + 1, 60_000);

  tally.requests = REQUESTS;
  for (let id = 1; id <= REQUESTS; id++) {
    const answer = client.answers.get(id);
    if (answer === undefined)
      tally.missing(
        id <= sent ? `no answer to ${id}` : `request ${id} never written (stdin blocked)`,
      );
    else if (answer.error) tally.error(`${answer.error.code} ${answer.error.message}`);
    else if (textOf(answer) !== TEXT)
      tally.bad(`answer ${id}: ${String(textOf(answer)).length} chars, not the file`);
    else tally.answer();
  }
  for (const id of client.answers.keys())
    if (!(id >= 0 && id <= REQUESTS)) tally.bad(`answer with unknown id ${id}`);
  for (const dup of client.duplicates)
    tally.bad(
      `id ${JSON.stringify(dup.id)} answered twice, again with ${JSON.stringify(dup).slice(0, 120)}`,
    );
  if (client.garbage) tally.bad(`${client.garbage} stdout lines that are not JSON`);
  const row = await ctx.figure({
    label: '2 stdio stdout unread',
    scale,
    server,
    tally,
    before,
    slowestMs: null,
    notes: [
      `${sentUnread} requests written while stdout was unread (the rest waited for stdin to drain); RSS while unread at most ${(peakUnread / 2 ** 20).toFixed(1)} MiB`,
    ],
  });
  const code = await client.end();
  row.notes.push(`after EOF on stdin the server exited with ${code ?? 'nothing within 10 s'}`);
  if (code !== 0) row.alive = false;
  return row;
}
