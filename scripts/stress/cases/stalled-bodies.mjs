// 3. Stalled bodies: connections that send almost all of a large declared body, then nothing.
import { PROBE_FILE, PROBE_TEXT, writeFiles } from '../lib/files.mjs';
import { connectRaw, rawHead, rawStatus } from '../lib/http.mjs';
import { modernHeaders, modernMeta } from '../lib/mcp.mjs';
import { memOf } from '../lib/rss.mjs';
import { sleep, waitFor } from '../lib/time.mjs';

const BODIES = 100;
const HEADERS_ONLY = 50;
const DECLARED = 3 * 1024 * 1024;
const MISSING = 16; // bytes never sent
const STALL_MS = 6000;

export const name = 'stalled-bodies';
export const scale = `${BODIES} connections each declaring a ${DECLARED / 2 ** 20} MiB body and sending all but ${MISSING} bytes, plus ${HEADERS_ONLY} sending half their headers, all stalled for ${STALL_MS / 1000} s, then closed`;

/** The first DECLARED - MISSING bytes of a search call whose query is a long run of "a". */
function stalledBody() {
  const head = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { _meta: modernMeta(), name: 'search', arguments: {} },
  }).replace('"arguments":{}', '"arguments":{"query":"');
  const body = Buffer.alloc(DECLARED - MISSING, 'a');
  body.write(head);
  return body;
}

export async function run(ctx) {
  const dir = ctx.tempDir('stall');
  await writeFiles(dir, { [PROBE_FILE]: PROBE_TEXT });
  const server = await ctx.http(dir, {
    '--body-timeout': '4s',
    '--header-timeout': '4s',
    '--max-body-total-bytes': '64m',
  });
  const tally = ctx.tally();
  const probe = ctx.probe(server, tally);
  await probe.warm();
  const before = await ctx.baseline(server);

  ctx.loadStarts();
  probe.start();
  const body = stalledBody();
  const head = rawHead(server.url, modernHeaders('tools/call', 'search'), DECLARED);
  const sockets = [];
  ctx.defer(() => sockets.forEach((s) => s.destroy()));
  const watch = (socket) => {
    socket.received = '';
    socket.closedByServer = false;
    socket.on('data', (c) => (socket.received += c.toString('latin1').slice(0, 200)));
    socket.on('close', () => (socket.closedByServer = !socket.closedByUs));
    sockets.push(socket);
    return socket;
  };
  for (let i = 0; i < BODIES; i++) {
    const socket = watch(await connectRaw(server.url));
    socket.write(head);
    socket.write(body); // the kernel and the server take what they will; never waited for
  }
  for (let i = 0; i < HEADERS_ONLY; i++) {
    const socket = watch(await connectRaw(server.url));
    socket.write(head.slice(0, head.length >> 1));
  }
  await sleep(STALL_MS);
  const { slowestMs } = await probe.stop();
  const midRss = memOf(server.pid)?.rss;
  const statuses = {};
  for (const s of sockets) {
    const key = rawStatus(s.received) ?? (s.closedByServer ? 'closed' : 'open');
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  const unsent = sockets.slice(0, BODIES).filter((s) => s.writableLength > 0).length;
  for (const s of sockets) {
    s.closedByUs = true;
    s.destroy();
  }
  await waitFor(() => sockets.every((s) => s.destroyed), 2000);
  return ctx.figure({
    label: '3 stalled bodies',
    scale,
    server,
    tally,
    before,
    slowestMs,
    notes: [
      `after the stall the hostile connections stood at: ${Object.entries(statuses)
        .map(([k, n]) => `${k} x${n}`)
        .join(', ')} (an HTTP status is the server's answer to a stalled request)`,
      `${unsent} of ${BODIES} body connections still had bytes the server never read; RSS during the stall ${(midRss / 2 ** 20).toFixed(1)} MiB`,
    ],
  });
}
