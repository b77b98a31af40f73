/**
 * `mcpkit serve` (the built CLI, over stdio) answers before its folder is walked: the folder is a
 * FUSE mount (hung-fuse.py) whose file `m/slow.zzq` hangs on open until released, and the walk
 * opens it to sniff its type, so the walk cannot end before the test lets it. Asserted: discover
 * and initialize answer meanwhile, resources/list serves what is walked (path order, cursors
 * that hold once the walk goes on), a file not walked yet reads, progress lines on stderr (plain
 * lines: not a terminal), none with -q. Ordering is asserted, never timing.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legacy, modern } from '../../src/testing/messages.js';
import { serveLines } from './serve-lines.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const FUSE_SCRIPT = fileURLToPath(new URL('./hung-fuse.py', import.meta.url));
const PYTHON = '/usr/bin/python3';
/** Walked before the hung file: 30 folders of 40 files. */
const BEFORE = Array.from({ length: 30 * 40 }, (_, i) => {
  const dir = String(Math.floor(i / 40)).padStart(2, '0');
  return `a/${dir}/f${String(i % 40).padStart(2, '0')}.txt`;
});
const AFTER = ['m/slow.zzq', 'z/after.txt'];

function missing(): string | undefined {
  if (!existsSync('/dev/fuse')) return '/dev/fuse is missing';
  if (!existsSync(CLI)) return 'dist/cli/main.js is missing (npm run build)';
  if (spawnSync(PYTHON, ['-c', 'import fusepy']).status !== 0) return 'python3-fusepy is missing';
  return undefined;
}

let base = '';
let src = '';
let mnt = '';
let gate = '';
let log = '';
let fuse: ReturnType<typeof spawn> | undefined;
let why = missing();
const children: ChildProcessWithoutNullStreams[] = [];

async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1500; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function hanging(): Promise<number> {
  const text = await readFile(log, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).length;
}

beforeAll(async () => {
  if (why) return;
  base = await mkdtemp(join(tmpdir(), 'mcpkit-walk-'));
  src = join(base, 'src');
  mnt = join(base, 'mnt');
  gate = join(base, 'gate');
  log = join(base, 'hung.log');
  for (const file of [...BEFORE, ...AFTER]) {
    const path = join(src, ...file.split('/'));
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, `text of ${file}\n`);
  }
  await mkdir(mnt);
  fuse = spawn(PYTHON, [FUSE_SCRIPT, src, mnt, gate, log], { stdio: 'ignore' });
  try {
    await until(async () => (await readdir(mnt).catch((): string[] => [])).includes('a'), 'mount');
  } catch {
    why = 'the FUSE mount could not be made';
  }
}, 60_000);

afterAll(async () => {
  if (gate) await writeFile(gate, '').catch(() => {});
  for (const child of children) child.kill('SIGKILL');
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

type Answer = { id: number; result?: Record<string, unknown>; error?: { message: string } };

/** `serve DIR --stdio ...args` driven by JSON lines. */
function serve(dir: string, ...args: string[]) {
  const { child, out, send } = serveLines<Answer>(CLI, dir, args, children);
  const call = (method: string, params: Record<string, unknown> = {}) =>
    send(modern(method, params));
  return { child, out, send, call };
}

type Page = { resources: Array<{ name: string }>; nextCursor?: string };

async function page(s: ReturnType<typeof serve>, cursor?: string): Promise<Page> {
  const answer = await s.call('resources/list', cursor === undefined ? {} : { cursor });
  expect(answer.error).toBeUndefined();
  return answer.result as unknown as Page;
}

/** Every page from `cursor` on. */
async function pages(s: ReturnType<typeof serve>, cursor?: string): Promise<Page[]> {
  const all: Page[] = [];
  let next = cursor;
  do {
    const p = await page(s, next);
    all.push(p);
    next = p.nextCursor;
  } while (next !== undefined);
  return all;
}

const names = (ps: Page[]): string[] => ps.flatMap((p) => p.resources.map((r) => r.name));
const PROGRESS = /^mcpkit: .*: walked [\d,]+ files \([\d,]+ files\/s\)$/m;
const WALKED = /^mcpkit: .*: walked ([\d,]+) files \([^)]*\) in [\d,]+ folders, [\d.]+ s$/m;

describe('serve answers while its folder is walked', () => {
  it('discover, initialize, partial pages, reads and progress before the walk ends; -q is silent', async (ctx) => {
    if (why) {
      console.log(`serve-walk.test.ts: skipped: ${why}`);
      return ctx.skip();
    }
    const loud = serve(mnt, '--page-size', '500', '--no-watch');
    const quiet = serve(mnt, '--page-size', '500', '--no-watch', '-q');
    // Both walks reach the hung file: neither can end before the gate opens.
    await until(async () => (await hanging()) === 2, 'both walks to hang');

    for (const s of [loud, quiet]) {
      expect((await s.call('server/discover')).result).toHaveProperty('supportedVersions');
    }
    const init = await loud.send(
      legacy('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'walk-test', version: '1' },
      }),
    );
    expect(init.result).toMatchObject({ protocolVersion: '2025-11-25' });

    // What is walked so far, in path order, page by page; the last page says no more for now.
    const during = await pages(loud);
    expect(names(during)).toEqual(BEFORE);
    expect(during).toHaveLength(3);
    const kept = during[1]?.nextCursor;
    expect(kept).toBeDefined();
    // Not walked yet, read by path all the same.
    const read = await loud.call('resources/read', { uri: 'file:///z/after.txt' });
    expect(read.result).toMatchObject({ contents: [{ text: 'text of z/after.txt\n' }] });

    // Progress: plain lines (stderr is not a terminal), while the walk is stuck.
    await until(() => PROGRESS.test(loud.out.stderr), 'a progress line');
    expect(loud.out.stderr).not.toMatch(WALKED);
    expect(loud.out.stderr).not.toContain('\r');

    await writeFile(gate, '');
    await until(() => WALKED.test(loud.out.stderr), 'the end of the walk');
    expect(loud.out.stderr.match(WALKED)?.[1]).toBe(
      (BEFORE.length + AFTER.length).toLocaleString('en-US'),
    );
    // The cursor of the second page still holds: the rest follows, nothing repeated or lost.
    const rest = await pages(loud, kept);
    expect([...names(during.slice(0, 2)), ...names(rest)]).toEqual([...BEFORE, ...AFTER]);

    await until(
      async () => names(await pages(quiet)).length === BEFORE.length + AFTER.length,
      'the quiet walk',
    );
    expect(quiet.out.stderr).toBe('');
  }, 90_000);

  it('says so when the folder has more files than --max-files', async (ctx) => {
    if (why) return ctx.skip();
    const s = serve(src, '--max-files', '100', '--no-watch');
    expect((await s.call('server/discover')).result).toBeDefined();
    await until(() => s.out.stderr.includes('more than 100 files'), 'the warning');
    expect(s.out.stderr).toContain(
      'mcpkit: the folder has more than 100 files: only the first 100 in path order are listed (maxFiles, --max-files); the others are still read by path',
    );
    expect(names(await pages(s))).toEqual(BEFORE.slice(0, 100));
  }, 60_000);
});
