// 9 (audit, cheap). Clients that hang up mid-request and mid-response.
import { PROBE_FILE, PROBE_TEXT, writeFiles } from '../lib/files.mjs';
import { connectRaw, rawHead } from '../lib/http.mjs';
import { fileUri, modern, modernHeaders, nameOf } from '../lib/mcp.mjs';
import { pool, sleep } from '../lib/time.mjs';

const ROUNDS = 600;
const WORKERS = 10;
const BIG = 'big.txt';
const BIG_TEXT = '0123456789abcdef'.repeat(128 * 1024); // 2 MiB

export const name = 'disconnects';
export const scale = `${ROUNDS} raw connections, ${WORKERS} at a time, hanging up: on the first bytes of a 2 MiB read, right after sending, after a listen acknowledgement, mid-body, and 5 ms into a search`;

const request = (method, params) => {
  const body = JSON.stringify(modern(1, method, params));
  return { body, headers: modernHeaders(method, nameOf(method, params)) };
};
const VARIANTS = [
  {
    what: 'read, cut at first bytes',
    req: request('resources/read', { uri: fileUri(BIG) }),
    cut: 'data',
  },
  {
    what: 'read, cut after send',
    req: request('resources/read', { uri: fileUri(BIG) }),
    cut: 'sent',
  },
  {
    what: 'listen, cut after ack',
    req: request('subscriptions/listen', {
      notifications: { resourceSubscriptions: ['file:///'] },
    }),
    cut: 'data',
  },
  {
    what: 'body, cut halfway',
    req: request('tools/call', { name: 'read', arguments: { path: BIG } }),
    cut: 'half',
  },
  {
    what: 'search, cut after 5 ms',
    req: request('tools/call', { name: 'search', arguments: { query: 'zzz' } }),
    cut: 5,
  },
];

async function hangUp(url, { req, cut }) {
  const socket = await connectRaw(url);
  const head = rawHead(url, req.headers, Buffer.byteLength(req.body));
  const gotData = new Promise((resolve) => {
    socket.once('data', resolve);
    socket.once('close', resolve);
  });
  if (cut === 'half') socket.write(head + req.body.slice(0, req.body.length >> 1));
  else socket.write(head + req.body);
  if (cut === 'data') await Promise.race([gotData, sleep(5000)]);
  else if (typeof cut === 'number') await sleep(cut);
  socket.destroy();
}

export async function run(ctx) {
  const dir = ctx.tempDir('disconnect');
  await writeFiles(dir, { [PROBE_FILE]: PROBE_TEXT, [BIG]: BIG_TEXT });
  const server = await ctx.http(dir);
  const tally = ctx.tally();
  const probe = ctx.probe(server, tally);
  const before = await ctx.startLoad(server, probe);
  let failures = 0;
  const made = await pool({ workers: WORKERS, count: ROUNDS, ms: 30_000 }, (i) =>
    hangUp(server.url, VARIANTS[i % VARIANTS.length]).catch(() => failures++),
  );
  const { slowestMs } = await probe.stop();
  return ctx.figure({
    label: '9 mid-response disconnects',
    scale,
    server,
    tally,
    before,
    slowestMs,
    notes: [`${made} hang-ups (${failures} could not connect)`],
  });
}
