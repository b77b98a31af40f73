/**
 * `mcpkit serve` (the installed bin) over a FUSE mount whose `slow*` files hang on open and read
 * until released (and `late*` files on reads past their first byte): eight hung reads hold only
 * their own requests, a read past --read-timeout ends with an error naming the URI and the limit,
 * and so does a streamed answer cut mid-body. Ordering is asserted, never timing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modern, modernHeaders } from '../../src/testing/messages.js';

const BIN = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));
const FUSE_SCRIPT = fileURLToPath(new URL('./hung-fuse.py', import.meta.url));
const PYTHON = '/usr/bin/python3';

/** Why the mount cannot be made here, or undefined. */
function missing(): string | undefined {
  if (!existsSync('/dev/fuse')) return '/dev/fuse is missing';
  if (!existsSync(BIN)) return 'dist/cli/bin.cjs is missing (npm run build)';
  if (spawnSync(PYTHON, ['-c', 'import fusepy']).status !== 0) return 'python3-fusepy is missing';
  return undefined;
}

let base = '';
let mnt = '';
let gate = '';
let log = '';
let fuse: ChildProcess | undefined;
let why = missing();
const servers: ChildProcess[] = [];
/** Streamed over HTTP (uncached, several chunks): its read past the first byte hangs. */
const LATE = randomBytes(256 * 1024);

async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** How many calls hang now (the mount logs each one as it starts to wait). */
async function hanging(): Promise<number> {
  const text = await readFile(log, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).length;
}

beforeAll(async () => {
  if (why) return;
  base = await mkdtemp(join(tmpdir(), 'mcpkit-hung-'));
  const src = join(base, 'src');
  mnt = join(base, 'mnt');
  gate = join(base, 'gate');
  log = join(base, 'hung.log');
  await mkdir(src);
  await mkdir(mnt);
  await writeFile(join(src, 'a.txt'), 'a quick file');
  for (let i = 0; i < 8; i++) await writeFile(join(src, `slow${i}.txt`), `slow ${i}`);
  await writeFile(join(src, 'late.bin'), LATE);
  fuse = spawn(PYTHON, [FUSE_SCRIPT, src, mnt, gate, log], { stdio: 'ignore' });
  try {
    await until(
      async () => (await readdir(mnt).catch((): string[] => [])).includes('a.txt'),
      'the mount',
    );
  } catch {
    why = 'the FUSE mount could not be made';
  }
}, 30_000);

afterAll(async () => {
  if (gate) await writeFile(gate, '').catch(() => {}); // nothing stays hung
  for (const child of servers) child.kill('SIGKILL');
  if (fuse) {
    spawnSync('fusermount', ['-u', '-z', mnt]);
    const running = fuse.exitCode === null && fuse.signalCode === null;
    const exited = running ? new Promise((r) => fuse?.once('exit', r)) : Promise.resolve();
    fuse.kill('SIGTERM');
    const timer = setTimeout(() => fuse?.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }
  if (base) await rm(base, { recursive: true, force: true }).catch(() => {});
});

/** What the last server started wrote on stderr. */
let stderr = '';

async function serve(...args: string[]): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'serve', mnt, ...args, '--http', '127.0.0.1:0'], {
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.push(child);
  stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited early (${code})`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
}

type Answer = {
  result?: { contents?: Array<{ text?: string; blob?: string }> } & Record<string, unknown>;
  error?: { code: number; message: string };
};

async function call(url: string, method: string, params: Record<string, unknown> = {}) {
  const name = typeof params['uri'] === 'string' ? params['uri'] : undefined;
  const res = await fetch(url, {
    method: 'POST',
    headers: modernHeaders(method, name),
    body: JSON.stringify(modern(method, params)),
  });
  return (await res.json()) as Answer;
}

const read = (url: string, name: string) => call(url, 'resources/read', { uri: `file:///${name}` });

describe('serve over a mount whose slow* files hang', () => {
  it('8 hung reads at once: a read of another file and server/discover answer first', async (ctx) => {
    if (why) {
      console.log(`serve-hung-file.test.ts: skipped: ${why}`);
      return ctx.skip();
    }
    // The search index reads no file here (each is over 4 bytes): every hung open is a read's.
    const url = await serve('--no-watch', '-q', '--search-max-file-bytes', '4');
    let settled = 0;
    const slow = Array.from({ length: 8 }, (_, i) =>
      read(url, `slow${i}.txt`).finally(() => settled++),
    );
    await until(async () => (await hanging()) === 8, '8 hung opens');
    expect((await read(url, 'a.txt')).result?.contents?.[0]?.text).toBe('a quick file');
    expect((await call(url, 'server/discover')).result).toBeDefined();
    expect(settled).toBe(0);
    await writeFile(gate, '');
    const answers = await Promise.all(slow);
    expect(answers.map((a) => a.result?.contents?.[0]?.text)).toEqual(
      Array.from({ length: 8 }, (_, i) => `slow ${i}`),
    );
  }, 60_000);

  it('a read past --read-timeout gets -32603 naming the URI and the limit', async (ctx) => {
    if (why) return ctx.skip();
    await unlink(gate).catch(() => {});
    await writeFile(log, '');
    const url = await serve('--no-watch', '-q', '--read-timeout', '300ms');
    const answer = await read(url, 'slow0.txt');
    expect(answer.error).toMatchObject({
      code: -32603,
      message: 'file:///slow0.txt: reading took longer than 300 ms (readTimeoutMs)',
    });
    expect((await call(url, 'server/discover')).result).toBeDefined();
    await writeFile(gate, '');
  }, 60_000);

  it('a streamed answer whose file hangs mid-body is cut past --read-timeout; the file is not read again until the read returns', async (ctx) => {
    if (why) return ctx.skip();
    await unlink(gate).catch(() => {});
    await writeFile(log, '');
    const url = await serve('--no-watch', '-q', '--read-timeout', '300ms', '--cache-bytes', '0');
    const uri = 'file:///late.bin';
    const res = await fetch(url, {
      method: 'POST',
      headers: modernHeaders('resources/read', uri),
      body: JSON.stringify(modern('resources/read', { uri })),
    });
    expect(res.status).toBe(200);
    const length = Number(res.headers.get('content-length'));
    expect(length).toBeGreaterThan(LATE.length);
    // The body stops short of its Content-Length: never a complete-looking answer.
    await expect(res.arrayBuffer()).rejects.toThrow();
    expect(await readFile(log, 'utf8')).toMatch(/^read \/late\.bin$/m);
    await until(async () => stderr.includes('late.bin'), 'the cut reported');
    expect(stderr).toContain(
      'cut a streamed answer mid-body: late.bin: reading took longer than 300 ms (readTimeoutMs)',
    );
    expect(stderr).not.toContain(base);
    const again = await read(url, 'late.bin');
    expect(again.error).toMatchObject({ code: -32603, data: { reason: 'stalled' } });
    expect((await call(url, 'server/discover')).result).toBeDefined();
    await writeFile(gate, '');
    let blob: unknown;
    await until(async () => {
      blob = (await read(url, 'late.bin')).result?.contents?.[0]?.blob;
      return blob !== undefined;
    }, 'the stalled read to return');
    expect(blob).toBe(LATE.toString('base64'));
  }, 60_000);
});
