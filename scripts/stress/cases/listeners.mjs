// 1. subscriptions/listen streams that never read, while files of the served folder change. The
// issue's bound (issue 26, item 8): with 100 such streams RSS grows by at most 150 MiB (the
// server's peak over its RSS before the streams), with the default listen bounds (16 MiB queued
// by all streams together). The server's threads are noted: a listened-to file that changes is
// read to fingerprint it, and reads held by files still being written start read workers.
import http from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROBE_FILE, PROBE_TEXT, writeFiles } from '../lib/files.mjs';
import { connectRaw, rawHead, sseReader } from '../lib/http.mjs';
import { fileUri, modern, modernHeaders } from '../lib/mcp.mjs';
import { MiB, memOf } from '../lib/rss.mjs';
import { sleep, waitFor } from '../lib/time.mjs';

const LISTENERS = 100;
const FILES = 800;
const ROUNDS = 12;
const ROUND_GAP_MS = 300; // longer than the server's 100 ms watch debounce: one update per round
const WRITE_LIMIT_MS = 20_000;
const PAD = 'x'.repeat(120); // long names make big frames
const pathOf = (i) => `w/file-${String(i).padStart(4, '0')}-${PAD}.txt`;

export const name = 'listeners';
export const scale = `${LISTENERS} unread listen streams (half on file:///, half on file:///w/), ${FILES} files with 140-character names rewritten ${ROUNDS} times ${ROUND_GAP_MS} ms apart; one reading listener and the probe check what they get; the default listen bounds (16 MiB queued by all streams together)`;

const listenBody = (id, prefix) =>
  JSON.stringify(
    modern(id, 'subscriptions/listen', { notifications: { resourceSubscriptions: [prefix] } }),
  );

/** A listener that reads: counts updates, each must name a file the test wrote. */
function readingListener(url, uris, tally) {
  const seen = { acked: false, updates: 0, ended: false };
  const body = listenBody(1, 'file:///');
  const req = http.request(url, {
    method: 'POST',
    headers: {
      ...modernHeaders('subscriptions/listen'),
      'content-length': Buffer.byteLength(body),
    },
  });
  req.on('error', () => {});
  req.on('response', (res) => {
    res.setEncoding('utf8');
    res.on(
      'data',
      sseReader((m) => {
        if (m.method === 'notifications/subscriptions/acknowledged') seen.acked = true;
        else if (m.method === 'notifications/resources/updated') {
          seen.updates++;
          tally.requests++;
          if (uris.has(m.params?.uri)) tally.answer();
          else tally.bad(`update for ${m.params?.uri}`);
        } else if ('error' in m) tally.error(`reading listener cut: ${m.error.message}`);
      }),
    );
    res.on('end', () => (seen.ended = true));
    res.on('error', () => (seen.ended = true));
  });
  req.end(body);
  return { seen, close: () => req.destroy() };
}

export async function run(ctx) {
  const dir = ctx.tempDir('listen');
  const files = { [PROBE_FILE]: PROBE_TEXT };
  for (let i = 0; i < FILES; i++) files[pathOf(i)] = 'round -1\n';
  await writeFiles(dir, files);
  const uris = new Set(Object.keys(files).map(fileUri));

  const server = await ctx.http(dir);
  let ended = 0;
  server.child.stderr.on(
    'data',
    (s) => (ended += s.split('ended subscriptions/listen').length - 1),
  );
  const tally = ctx.tally();
  const probe = ctx.probe(server, tally);
  await probe.warm();
  const before = await ctx.baseline(server);
  const threadsBefore = memOf(server.pid)?.threads;

  const reader = readingListener(server.url, uris, tally);
  ctx.defer(reader.close);
  const hostile = [];
  ctx.defer(() => hostile.forEach((s) => s.destroy()));
  for (let i = 0; i < LISTENERS; i++) {
    const socket = await connectRaw(server.url);
    socket.pause(); // never read: the kernel buffers fill, then the server's
    socket.cut = false;
    socket.on('close', () => (socket.cut = true));
    const body = listenBody(i + 10, i % 2 ? 'file:///w/' : 'file:///');
    socket.write(
      rawHead(server.url, modernHeaders('subscriptions/listen'), Buffer.byteLength(body)) + body,
    );
    hostile.push(socket);
  }
  if (!(await waitFor(() => reader.seen.acked, 5000)))
    tally.bad('reading listener: no acknowledgement');
  await sleep(500);

  ctx.loadStarts();
  probe.start();
  const writeStart = Date.now();
  let rounds = 0;
  while (rounds < ROUNDS && Date.now() - writeStart < WRITE_LIMIT_MS) {
    for (let i = 0; i < FILES; i += 100) {
      const batch = [];
      for (let j = i; j < Math.min(FILES, i + 100); j++)
        batch.push(writeFile(join(dir, pathOf(j)), `round ${rounds}\n`));
      await Promise.all(batch);
    }
    rounds++;
    await sleep(ROUND_GAP_MS);
  }
  await sleep(1000); // the last round's updates
  const { slowestMs, requests, overOneSecond, slowByMethod } = await probe.stop();
  const cut = hostile.filter((s) => s.cut).length;
  const { rss: midRss, threads } = memOf(server.pid) ?? {};
  const endedByServer = ended;
  hostile.forEach((s) => s.destroy());
  reader.close();
  if (reader.seen.updates === 0) tally.missing('the reading listener got no update at all');
  return ctx.figure({
    label: '1 listeners never read',
    scale,
    server,
    tally,
    before,
    slowestMs,
    rss: { growthBelow: 150 * MiB },
    notes: [
      `${overOneSecond} of the probe's ${requests} requests took over 1 s ${JSON.stringify(slowByMethod)}`,
      `${rounds} rounds written; the reading listener got ${reader.seen.updates} updates (${rounds * FILES} file writes)`,
      `server ended ${endedByServer} of ${LISTENERS} unread streams (a warning each), closed ${cut} connections before the test did; RSS with them open ${(midRss / MiB).toFixed(1)} MiB, ${threads} threads (${threadsBefore} before the load)`,
    ],
  });
}
