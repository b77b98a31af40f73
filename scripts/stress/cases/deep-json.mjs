// 4. Deep JSON: 100k-deep client capabilities and tool arguments, over HTTP and over stdio.
import { PROBE_FILE, PROBE_TEXT, writeFiles } from '../lib/files.mjs';
import { clientAgent, post } from '../lib/http.mjs';
import { MODERN, modern, modernHeaders, toolNames } from '../lib/mcp.mjs';
import { StdioClient } from '../lib/stdio.mjs';
import { pool } from '../lib/time.mjs';

const DEPTH = 100_000;
const PER_SHAPE = 8;
const EXPECTED = -32602;

export const name = 'deep-json';
export const scale = `${PER_SHAPE} requests of each of 3 shapes ${DEPTH.toLocaleString('en')} levels deep (objects in _meta.clientCapabilities.experimental, objects and arrays as tool arguments), each to be answered ${EXPECTED}`;

const objects = (depth) => '{"a":'.repeat(depth) + '{}' + '}'.repeat(depth);
const arrays = (depth) => '['.repeat(depth) + ']'.repeat(depth);
const meta = (capabilities) =>
  `{"io.modelcontextprotocol/protocolVersion":"${MODERN}","io.modelcontextprotocol/clientCapabilities":${capabilities}}`;

/** The deep requests, as text: JSON.stringify itself could not build them. */
const SHAPES = [
  {
    what: 'deep capabilities',
    method: 'tools/list',
    body: (id) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{"_meta":${meta(`{"experimental":${objects(DEPTH)}}`)}}}`,
  },
  {
    what: 'deep object arguments',
    method: 'tools/call',
    body: (id) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"search","arguments":{"query":"x","deep":${objects(DEPTH)}},"_meta":${meta('{}')}}}`,
  },
  {
    what: 'deep array arguments',
    method: 'tools/call',
    body: (id) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"search","arguments":${arrays(DEPTH)},"_meta":${meta('{}')}}}`,
  },
];
const requests = () =>
  Array.from({ length: PER_SHAPE * SHAPES.length }, (_, i) => ({
    id: 1000 + i,
    shape: SHAPES[i % SHAPES.length],
  }));

/** Sorts one deep request's answer; `seen` counts the deep requests and their right answers. */
function judgeDeep(tally, seen, shape, id, answer) {
  seen.sent++;
  if (answer === undefined) return tally.missing(`${shape.what}: no answer`);
  if (answer.id !== id)
    return tally.bad(`${shape.what}: id ${JSON.stringify(answer.id)} for ${id}`);
  if (answer.error?.code === EXPECTED) {
    seen.right++;
    return tally.answer();
  }
  tally.bad(`${shape.what}: ${JSON.stringify(answer.error ?? answer.result).slice(0, 120)}`);
}

async function overHttp(ctx) {
  const dir = ctx.tempDir('deep-http');
  await writeFiles(dir, { [PROBE_FILE]: PROBE_TEXT });
  const server = await ctx.http(dir, { '--max-depth': 64 });
  const tally = ctx.tally();
  const probe = ctx.probe(server, tally);
  const before = await ctx.startLoad(server, probe);
  const agent = clientAgent(2);
  ctx.defer(() => agent.destroy());
  const list = requests();
  const statuses = new Set();
  const seen = { sent: 0, right: 0 };
  await pool({ workers: 2, count: list.length, ms: 60_000 }, async (i) => {
    const { id, shape } = list[i];
    tally.requests++;
    try {
      const headers = modernHeaders(
        shape.method,
        shape.method === 'tools/call' ? 'search' : undefined,
      );
      const res = await post(server.url, shape.body(id), { headers, agent, timeoutMs: 15_000 });
      statuses.add(res.status);
      judgeDeep(tally, seen, shape, id, res.answer);
    } catch (error) {
      seen.sent++;
      tally.missing(`${shape.what}: ${error.message}`);
    }
  });
  const { slowestMs } = await probe.stop();
  return ctx.figure({
    label: '4a deep JSON, HTTP',
    scale: `${scale}, 2 at a time over HTTP while the probe runs`,
    server,
    tally,
    before,
    slowestMs,
    notes: [
      `${seen.right} of ${seen.sent} deep requests answered ${EXPECTED}; HTTP statuses: ${[...statuses].join(', ')}`,
    ],
  });
}

async function overStdio(ctx) {
  const dir = ctx.tempDir('deep-stdio');
  await writeFiles(dir, { [PROBE_FILE]: PROBE_TEXT });
  const server = ctx.stdio(dir, { '--max-depth': 64 });
  const client = new StdioClient(server.child);
  const tally = ctx.tally();
  const seen = { sent: 0, right: 0 };
  let nextId = 1;
  let slowestMs = 0;
  const normal = async (timed) => {
    const id = nextId++;
    tally.requests++;
    const { answer, ms } = await client.call(modern(id, 'tools/list'), 10_000);
    if (timed) slowestMs = Math.max(slowestMs, ms);
    if (answer === undefined) tally.missing('tools/list: no answer');
    else if (!toolNames(answer)?.includes('search'))
      tally.bad(`tools/list: ${JSON.stringify(answer).slice(0, 120)}`);
    else tally.answer();
  };
  for (let i = 0; i < 5; i++) await normal(false);
  const before = await ctx.baseline(server);
  ctx.loadStarts();
  for (const { id, shape } of requests()) {
    tally.requests++;
    await client.send(shape.body(id), 10_000);
    const pending = normal(true); // queued behind the deep one on the same pipe
    judgeDeep(tally, seen, shape, id, await client.answer(id, 15_000));
    await pending;
  }
  const row = await ctx.figure({
    label: '4b deep JSON, stdio',
    scale: `${scale}; one at a time over stdio, each followed by a tools/list on the same pipe`,
    server,
    tally,
    before,
    slowestMs,
    notes: [
      `${seen.right} of ${seen.sent} deep requests answered ${EXPECTED}`,
      'the well-behaved requests share the pipe: each tools/list is written right after a deep request',
    ],
  });
  const code = await client.end();
  if (code !== 0)
    row.notes.push(`after EOF the server exited with ${code ?? 'nothing within 10 s'}`);
  return row;
}

export async function run(ctx) {
  return [await overHttp(ctx), await overStdio(ctx)];
}
