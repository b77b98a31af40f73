// 8 (audit, cheap). Many concurrent stateless HTTP requests with the same id: each answer is its own.
import { PROBE_FILE, PROBE_TEXT, writeFiles } from '../lib/files.mjs';
import { callModern, clientAgent } from '../lib/http.mjs';
import { fileUri, textOf } from '../lib/mcp.mjs';
import { pool } from '../lib/time.mjs';

const FILES = 200;
const REQUESTS = 3000;
const CONNECTIONS = 50;
const ID = 1;

export const name = 'same-id';
export const scale = `${REQUESTS} requests, all with id ${ID}, from ${CONNECTIONS} connections at once: resources/read and tools/call read of ${FILES} different files`;

const pathOf = (i) => `same/f${i}.txt`;
const textFor = (i) => `file ${i} `.repeat(1 + (i % 50));

export async function run(ctx) {
  const dir = ctx.tempDir('same-id');
  const files = { [PROBE_FILE]: PROBE_TEXT };
  for (let i = 0; i < FILES; i++) files[pathOf(i)] = textFor(i);
  await writeFiles(dir, files);
  const server = await ctx.http(dir);
  const tally = ctx.tally();
  const probe = ctx.probe(server, tally);
  await probe.warm();
  const before = await ctx.baseline(server);
  const agent = clientAgent(CONNECTIONS);
  ctx.defer(() => agent.destroy());
  ctx.loadStarts();
  probe.start();
  await pool({ workers: CONNECTIONS, count: REQUESTS, ms: 30_000 }, async (n) => {
    const i = n % FILES;
    const viaTool = n % 2 === 1;
    tally.requests++;
    try {
      const res = viaTool
        ? await callModern(
            server.url,
            ID,
            'tools/call',
            { name: 'read', arguments: { path: pathOf(i), mode: 'embed' } },
            { agent },
          )
        : await callModern(
            server.url,
            ID,
            'resources/read',
            { uri: fileUri(pathOf(i)) },
            { agent },
          );
      const a = res.answer;
      if (a === undefined) return tally.bad(`HTTP ${res.status}: ${res.text.slice(0, 80)}`);
      if (a.id !== ID) return tally.bad(`id ${JSON.stringify(a.id)}`);
      if (a.error) return tally.error(`${a.error.code} ${a.error.message}`);
      const text = viaTool
        ? a.result?.content?.find((b) => b.type === 'resource')?.resource?.text
        : textOf(a);
      if (text === textFor(i)) tally.answer();
      else tally.bad(`asked for ${pathOf(i)}, got ${String(text).slice(0, 40)}`);
    } catch (error) {
      tally.missing(error.message);
    }
  });
  const { slowestMs } = await probe.stop();
  return ctx.figure({ label: '8 same id, concurrent', scale, server, tally, before, slowestMs });
}
