// 11. Part-read flood (issue 26, item 3): huge part reads (?length=2^53-1, clamped to the
// connection's cap) from clients that never read, from many clients that do, and over stdio with
// stdout unread. The bounds are every row's RSS target: peak < 600 MiB, and back within
// +100 MiB 20 s after the clients left; discover and the probe's small answers < 1 s meanwhile,
// and a client that reads gets parts of at least 1 MiB.
import http from 'node:http';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { PROBE_FILE, PROBE_TEXT, writeFiles } from '../lib/files.mjs';
import { callModern, clientAgent, connectRaw, rawHead } from '../lib/http.mjs';
import { fileUri, modern, modernHeaders } from '../lib/mcp.mjs';
import { MiB, memOf } from '../lib/rss.mjs';
import { StdioClient } from '../lib/stdio.mjs';
import { pool, sleep, waitFor } from '../lib/time.mjs';

const HUGE = 9_007_199_254_740_991;
const FILE_BYTES = 64 * MiB;
const UNREAD = 100;
const UNREAD_MS = 12_000;
const READERS = 400;
const READER_PART = 4 * MiB;
const STDIO_UNREAD = 64;
const STDIO_UNREAD_MS = 8000;
const FLOOD_FILES = ['huge.log', 'huge.bin'];
const FLAGS = { '--max-response-total-bytes': '64m', '--write-timeout': '8s' };
/** The bound, for every row of the case. */
const RSS_TARGET = { peakBelow: 600 * MiB, settle: { withinBytes: 100 * MiB, ms: 20_000 } };

export const name = 'part-flood';
export const scale = `${UNREAD} HTTP connections each asking a ${FILE_BYTES / MiB} MiB file (text and binary) for ?length=2^53-1 and never reading, for ${UNREAD_MS / 1000} s; ${READERS} parallel ${READER_PART / MiB} MiB part reads by clients that read; ${STDIO_UNREAD} such huge part reads over stdio with stdout unread for ${STDIO_UNREAD_MS / 1000} s`;

const partUri = (file, length) => fileUri(`${file}?length=${length}`);

/** A 64 MiB text of numbered lines, and a 64 MiB sparse binary file. */
async function hugeFiles(dir) {
  const line = (i) =>
    `line ${String(i).padStart(8, '0')} ${'lorem ipsum dolor sit amet '.repeat(3)}\n`;
  const block = Buffer.from(Array.from({ length: 10_000 }, (_, i) => line(i)).join(''));
  const text = await open(join(dir, 'huge.log'), 'w');
  for (let at = 0; at < FILE_BYTES; at += block.length)
    await text.write(block, 0, Math.min(block.length, FILE_BYTES - at), at);
  await text.close();
  const bin = await open(join(dir, 'huge.bin'), 'w');
  await bin.truncate(FILE_BYTES);
  await bin.close();
}

/**
 * A part read whose body is counted and dropped (never held whole here): status, the bytes
 * against Content-Length, and the part's length from its `_meta` near the end.
 */
function countedRead(url, id, uri, agent, timeoutMs = 60_000) {
  const body = JSON.stringify(modern(id, 'resources/read', { uri }));
  return new Promise((resolve) => {
    const req = http.request(url, {
      method: 'POST',
      agent,
      headers: {
        ...modernHeaders('resources/read', uri),
        accept: 'application/json',
        'content-length': Buffer.byteLength(body),
      },
    });
    const timer = setTimeout(
      () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)),
      timeoutMs,
    );
    req.on('error', (error) => {
      clearTimeout(timer);
      resolve({ failed: error.message });
    });
    req.on('response', (res) => {
      let bytes = 0;
      let tail = '';
      res.on('data', (c) => {
        bytes += c.length;
        tail = (tail + c.toString('latin1', Math.max(0, c.length - 4096))).slice(-4096);
      });
      res.on('error', () => {});
      res.on('close', () => {
        clearTimeout(timer);
        const declared = Number(res.headers['content-length']);
        const length = Number(/"dev\.mcpkit\/part":\{"offset":\d+,"length":(\d+)/.exec(tail)?.[1]);
        const error = /"error":\{"code":(-?\d+),"message":"([^"]{0,160})/.exec(tail);
        resolve({ status: res.statusCode, bytes, declared, length, error: error?.slice(1) });
      });
    });
    req.end(body);
  });
}

function judgePart(tally, got, minLength) {
  if (got.failed) return tally.missing(got.failed);
  if (got.error) return tally.error(`${got.error[0]} ${got.error[1]}`);
  if (got.bytes !== got.declared)
    return tally.missing(`cut: ${got.bytes} of ${got.declared} bytes`);
  if (!(got.length >= minLength)) return tally.bad(`a part of ${got.length} bytes`);
  tally.answer();
}

/** Samples the server's RSS every 100 ms until stopped; returns the highest. */
function sampler(pid) {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, memOf(pid)?.rss ?? 0)), 100);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

async function unreadFlood(ctx, dir) {
  const server = await ctx.http(dir, FLAGS);
  let drops = 0;
  server.child.stderr.on('data', (s) => (drops += s.split('dropped a connection').length - 1));
  const tally = ctx.tally();
  const probe = ctx.probe(server, tally);
  const before = await ctx.startLoad(server, probe);
  const stopSampling = sampler(server.pid);
  const sockets = [];
  ctx.defer(() => sockets.forEach((s) => s.destroy()));
  for (let i = 0; i < UNREAD; i++) {
    const uri = partUri(FLOOD_FILES[i % FLOOD_FILES.length], HUGE);
    const body = JSON.stringify(modern(i + 1, 'resources/read', { uri }));
    const socket = await connectRaw(server.url);
    // Never read: no 'data' listener, the socket stays paused and the kernel buffers fill.
    socket.write(
      rawHead(server.url, modernHeaders('resources/read', uri), Buffer.byteLength(body)),
    );
    socket.write(body);
    sockets.push(socket);
  }
  // During the flood: discover, and a client that reads gets its parts.
  const agent = clientAgent(2);
  ctx.defer(() => agent.destroy());
  let slowDiscover = 0;
  const parts = [];
  const until = Date.now() + UNREAD_MS;
  let id = 1_000_000;
  while (Date.now() < until) {
    const t0 = performance.now();
    const res = await callModern(server.url, ++id, 'server/discover', {}, { agent }).catch(
      (error) => ({ failed: error.message }),
    );
    slowDiscover = Math.max(slowDiscover, performance.now() - t0);
    tally.requests++;
    if (res.answer?.result) tally.answer();
    else tally.missing(`discover: ${res.failed ?? JSON.stringify(res.answer).slice(0, 100)}`);
    const uri = partUri(
      parts.length % 2 ? 'huge.bin' : 'huge.log',
      parts.length % 4 < 2 ? HUGE : 4 * MiB,
    );
    tally.requests++;
    const got = await countedRead(server.url, ++id, uri, agent);
    parts.push(got.length);
    judgePart(tally, got, MiB);
    await sleep(500);
  }
  const { slowestMs } = await probe.stop();
  const midPeak = stopSampling();
  const dropped = drops;
  for (const s of sockets) {
    s.destroy();
  }
  await waitFor(() => sockets.every((s) => s.destroyed), 2000);
  return ctx.figure({
    label: '11a part reads never read',
    scale: `${UNREAD} connections, ?length=2^53-1 of 64 MiB files, unread for ${UNREAD_MS / 1000} s`,
    server,
    tally,
    before,
    slowestMs: Math.max(slowestMs, slowDiscover),
    rss: RSS_TARGET,
    notes: [
      `RSS during the flood at most ${(midPeak / MiB).toFixed(1)} MiB; slowest server/discover ${slowDiscover.toFixed(0)} ms`,
      `a reading client got ${parts.length} parts during the flood, the smallest ${Math.min(...parts.map((n) => n || 0))} bytes`,
      `${dropped} of ${UNREAD} unread connections dropped by the server within ${UNREAD_MS / 1000} s (--write-timeout)`,
    ],
  });
}

async function readingFlood(ctx, dir) {
  const server = await ctx.http(dir, FLAGS);
  const tally = ctx.tally();
  const probe = ctx.probe(server, tally);
  const before = await ctx.startLoad(server, probe);
  const stopSampling = sampler(server.pid);
  const agent = clientAgent(READERS);
  ctx.defer(() => agent.destroy());
  await pool({ workers: READERS, count: READERS, ms: 90_000 }, async (i) => {
    const uri = fileUri(
      `${i % 2 ? 'huge.bin' : 'huge.log'}?offset=${(i * 131_071) % (32 * MiB)}&length=${READER_PART}`,
    );
    tally.requests++;
    judgePart(tally, await countedRead(server.url, i + 1, uri, agent, 90_000), MiB);
  });
  const { slowestMs } = await probe.stop();
  return ctx.figure({
    label: '11b parallel part reads',
    scale: `${READERS} parallel ${READER_PART / MiB} MiB part reads (text and binary), read`,
    server,
    tally,
    before,
    slowestMs,
    rss: RSS_TARGET,
    notes: [`RSS during the reads at most ${(stopSampling() / MiB).toFixed(1)} MiB`],
  });
}

async function stdioUnread(ctx, dir) {
  const server = ctx.stdio(dir, {
    '--max-response-total-bytes': FLAGS['--max-response-total-bytes'],
  });
  const client = new StdioClient(server.child);
  const tally = ctx.tally();
  const warm = await client.call(modern(0, 'resources/read', { uri: fileUri(PROBE_FILE) }), 15_000);
  if (warm.answer?.result === undefined) throw new Error('stdio warm-up read failed');
  const before = await ctx.baseline(server);
  ctx.loadStarts();
  client.pause();
  const stopSampling = sampler(server.pid);
  let sent = 0;
  const unreadUntil = Date.now() + STDIO_UNREAD_MS;
  while (sent < STDIO_UNREAD && Date.now() < unreadUntil) {
    const uri = partUri(sent % 2 ? 'huge.bin' : 'huge.log', HUGE);
    if (!(await client.send(modern(++sent, 'resources/read', { uri }), unreadUntil - Date.now())))
      break;
  }
  await sleep(Math.max(0, unreadUntil - Date.now()));
  const unreadPeak = stopSampling();
  client.resume();
  while (sent < STDIO_UNREAD) {
    const uri = partUri(sent % 2 ? 'huge.bin' : 'huge.log', HUGE);
    await client.send(modern(++sent, 'resources/read', { uri }), 10_000);
  }
  await waitFor(() => client.answers.size >= sent + 1, 60_000);
  tally.requests = sent;
  const errors = {};
  for (let i = 1; i <= sent; i++) {
    const answer = client.answers.get(i);
    if (answer === undefined) tally.missing(`no answer to ${i}`);
    else if (answer.error) {
      tally.error(`${answer.error.code} ${answer.error.message}`);
      errors[answer.error.code] = (errors[answer.error.code] ?? 0) + 1;
    } else if (!(answer.result.contents[0]._meta['dev.mcpkit/part'].length >= MiB))
      tally.bad(`answer ${i}: a part of less than 1 MiB`);
    else tally.answer();
  }
  const row = await ctx.figure({
    label: '11c stdio part reads, stdout unread',
    scale: `${STDIO_UNREAD} pipelined ?length=2^53-1 part reads over stdio, stdout unread for ${STDIO_UNREAD_MS / 1000} s, then read`,
    server,
    tally,
    before,
    slowestMs: null,
    rss: RSS_TARGET,
    notes: [`RSS while stdout was unread at most ${(unreadPeak / MiB).toFixed(1)} MiB`],
  });
  await client.end();
  return row;
}

export async function run(ctx) {
  const dir = ctx.tempDir('parts');
  await writeFiles(dir, { [PROBE_FILE]: PROBE_TEXT });
  await hugeFiles(dir);
  return [await unreadFlood(ctx, dir), await readingFlood(ctx, dir), await stdioUnread(ctx, dir)];
}
