// Case C: large resources over Streamable HTTP, where memory is what counts.
// 1. 50 concurrent resources/read of one 4 MiB binary file: `mcpkit serve` (the real CLI)
//    against the official SDK v2 server, each the server's peak RSS over its idle RSS; mcpkit
//    also with --cache-bytes 0, where every answer is streamed from the file.
// 2. mcpkit only: a 1 GiB sparse file read end to end in parts (resources/read of
//    file:///big.bin?offset=...&length=..., following _meta["dev.mcpkit/part"].next), with the
//    server's peak RSS over idle throughout, and the time taken.
import { randomBytes } from 'node:crypto';
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { HTTP_HEADERS, HTTP_PATH, META, messageOf } from './payload.mjs';
import { startHttpChild, stopChild } from './children.mjs';
import { idleRss, watchPeak } from './rss.mjs';

const MiB = 1024 * 1024;
const CLI = new URL('../../dist/cli/bin.cjs', import.meta.url);
const PART_META = 'dev.mcpkit/part';

export const LARGE = {
  fileBytes: 4 * MiB,
  burst: 50,
  walkBytes: 1024 * MiB,
  /** Targets, in bytes over idle. */
  peakGoal: 30 * MiB,
  walkGoal: 64 * MiB,
  /** How long a server is left alone before its idle RSS is read (mcpkit compacts after 1-2 s). */
  quietMs: 2500,
};

const FILE_URI = 'file:///blob.bin';
const WALK_URI = 'file:///big.bin';

/** POSTs one modern resources/read of `uri`; resolves with the JSON-RPC message. */
async function read(url, id, uri) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'resources/read',
    params: { uri, _meta: META },
  });
  const headers = { ...HTTP_HEADERS, 'Mcp-Name': uri };
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${uri}: HTTP ${res.status}: ${text.slice(0, 500)}`);
  return messageOf(text, res.headers.get('content-type'));
}

/** The first contents of a read answer for `id`, or throws saying what is wrong. */
function contentsOf(msg, id) {
  if (msg?.id !== id) throw new Error(`answer id ${JSON.stringify(msg?.id)}, expected ${id}`);
  if (msg.error) throw new Error(`JSON-RPC error ${JSON.stringify(msg.error).slice(0, 500)}`);
  const c = msg.result?.contents?.[0];
  if (typeof c?.blob !== 'string')
    throw new Error(`no blob in ${JSON.stringify(msg).slice(0, 300)}`);
  return c;
}

function checkFile(msg, id, file) {
  if (!Buffer.from(contentsOf(msg, id).blob, 'base64').equals(file))
    throw new Error(`answer ${id}: the blob does not decode to the file`);
}

/** Temp folder with `name` holding `write(path)`'s file; returns the folder. */
function folderWith(name, write) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpkit-bench-large-'));
  write(path.join(dir, name));
  return dir;
}

const startMcpkit = (dir, ...extra) =>
  startHttpChild(CLI, 15_000, ['serve', dir, '--http', '127.0.0.1:0', '--quiet', ...extra]);

/**
 * Warms a target up (three verified reads), reads its idle RSS, then runs `repeat` bursts of
 * concurrent reads, each one's peak over that idle RSS.
 */
async function burstTarget(start, file, opts) {
  const { child, port } = await start();
  const url = `http://127.0.0.1:${port}${HTTP_PATH}`;
  try {
    for (let i = 0; i < 3; i++)
      checkFile(await read(url, `warm-${i}`, FILE_URI), `warm-${i}`, file);
    const idle = await idleRss(child.pid, LARGE.quietMs);
    const rounds = [];
    let exact = true;
    for (let round = 1; round <= opts.repeat; round++) {
      const ids = Array.from({ length: LARGE.burst }, (_, i) => round * 1000 + i);
      const peak = watchPeak(child.pid);
      const started = performance.now();
      const answers = await Promise.all(ids.map((id) => read(url, id, FILE_URI)));
      const seconds = (performance.now() - started) / 1000;
      const top = peak.stop();
      exact &&= peak.exact;
      answers.forEach((msg, i) => checkFile(msg, ids[i], file));
      rounds.push({ overIdle: top - idle, seconds });
      console.log(
        `[large] round ${round}/${opts.repeat}: peak ${rounds.at(-1).overIdle >= 0 ? '+' : ''}${(rounds.at(-1).overIdle / MiB).toFixed(1)} MiB over idle, ${seconds.toFixed(2)} s`,
      );
      if (round < opts.repeat) await new Promise((r) => setTimeout(r, LARGE.quietMs));
    }
    return {
      idleRss: idle,
      overIdle: Math.max(...rounds.map((r) => r.overIdle)),
      rounds,
      peakFrom: exact ? 'VmHWM' : 'VmRSS samples',
    };
  } finally {
    await stopChild(child);
  }
}

/**
 * Reads the sparse file end to end in parts of the server's default length (the first URI names
 * only the offset), following `next`; checks that each part is the next range and all zeros.
 */
async function walk(url, size) {
  let uri = `${WALK_URI}?offset=0`;
  let offset = 0;
  let parts = 0;
  let partBytes = 0;
  let zeros = Buffer.alloc(0);
  while (uri !== undefined) {
    const id = `part-${parts}`;
    const c = contentsOf(await read(url, id, uri), id);
    const part = c._meta?.[PART_META];
    if (!part || part.offset !== offset || part.size !== size)
      throw new Error(`${uri}: part ${JSON.stringify(part)}, expected offset ${offset} of ${size}`);
    const bytes = Buffer.from(c.blob, 'base64');
    if (bytes.length > zeros.length) zeros = Buffer.alloc(bytes.length);
    if (bytes.length !== part.length || !bytes.equals(zeros.subarray(0, bytes.length)))
      throw new Error(`${uri}: ${bytes.length} bytes that are not the file's ${part.length} zeros`);
    if (part.next !== undefined && part.length === 0)
      throw new Error(`${uri}: an empty part that is not the last`);
    partBytes = Math.max(partBytes, part.length);
    offset += part.length;
    parts++;
    uri = part.next;
  }
  if (offset !== size) throw new Error(`the walk ended at ${offset} of ${size} bytes`);
  return { parts, partBytes };
}

async function walkTarget() {
  const dir = folderWith('big.bin', (p) => {
    const fd = openSync(p, 'w');
    ftruncateSync(fd, LARGE.walkBytes);
    closeSync(fd);
  });
  try {
    const { child, port } = await startMcpkit(dir);
    const url = `http://127.0.0.1:${port}${HTTP_PATH}`;
    try {
      contentsOf(await read(url, 'warm', `${WALK_URI}?offset=0`), 'warm');
      const idle = await idleRss(child.pid, LARGE.quietMs);
      const peak = watchPeak(child.pid);
      const started = performance.now();
      const { parts, partBytes } = await walk(url, LARGE.walkBytes);
      const seconds = (performance.now() - started) / 1000;
      const top = peak.stop();
      return {
        idleRss: idle,
        overIdle: top - idle,
        parts,
        partBytes,
        seconds,
        peakFrom: peak.exact ? 'VmHWM' : 'VmRSS samples',
      };
    } finally {
      await stopChild(child);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the case for the selected targets (sdk, mcpkit); a target that fails has `error`. */
export async function runLargeCase(opts, missing) {
  const file = randomBytes(LARGE.fileBytes);
  const dir = folderWith('blob.bin', (p) => writeFileSync(p, file));
  const targets = {};
  const starts = {
    sdk: () => startHttpChild('large-sdk.mjs', 10_000, [path.join(dir, 'blob.bin'), FILE_URI]),
    mcpkit: () => startMcpkit(dir),
    // Nothing cached: every answer is streamed from the file as the socket takes it.
    streamed: () => startMcpkit(dir, '--cache-bytes', '0'),
  };
  const names = opts.targets.filter((t) => t in starts);
  if (names.includes('mcpkit')) names.push('streamed');
  try {
    for (const name of names) {
      if (name !== 'sdk' && missing.length) {
        targets[name] = { skipped: `${missing.join(', ')} missing (run npm run build)` };
        continue;
      }
      console.log(
        `[large] ${name}: ${LARGE.burst} concurrent reads of a ${LARGE.fileBytes / MiB} MiB file` +
          (name === 'streamed' ? ' (mcpkit serve --cache-bytes 0)' : ''),
      );
      try {
        targets[name] = await burstTarget(starts[name], file, opts);
      } catch (err) {
        targets[name] = { error: err.message };
        console.log(`[large] ${name}: FAILED\n  ${err.message}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  let walked;
  if (opts.targets.includes('mcpkit') && !missing.length) {
    console.log(`[large] mcpkit: a ${LARGE.walkBytes / MiB} MiB sparse file read in parts`);
    try {
      walked = await walkTarget();
    } catch (err) {
      walked = { error: err.message };
      console.log(`[large] mcpkit walk: FAILED\n  ${err.message}`);
    }
  }
  if (walked?.error) targets['mcpkit walk'] = { error: walked.error };
  return {
    title:
      `C. Large resources over HTTP: ${LARGE.burst} concurrent resources/read of one ` +
      `${LARGE.fileBytes / MiB} MiB file (worst of ${opts.repeat} bursts), then a ` +
      `${LARGE.walkBytes / MiB} MiB sparse file read in parts (mcpkit)`,
    kind: 'large',
    targets,
    walk: walked,
  };
}
