/**
 * `mcpkit serve DIR --stdio --index-dir IDX` (the built CLI) saves its search index when it
 * stops and starts from it the next time: the first run finds a planted word and is stopped
 * (SIGTERM; the index is saved before it exits), a file is changed and another deleted, and
 * the second run's first search answers in full from the saved index, with the change and
 * without the deleted file. Behaviour is asserted, never timing.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modern } from '../../src/testing/messages.js';
import { serveLines } from './serve-lines.js';

const BIN = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));
const WORDS = ['alpha', 'branch', 'cursor', 'delta', 'engine', 'filter', 'gamma', 'helper'];

let base = '';
let dir = '';
let idx = '';
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mcpkit-index-dir-e2e-'));
  dir = join(base, 'folder');
  idx = join(base, 'idx');
  // 30 folders of 10 files of code-like text; two planted words.
  for (let d = 0; d < 30; d++) {
    const sub = join(dir, `pkg${String(d).padStart(2, '0')}`);
    await mkdir(sub, { recursive: true });
    for (let f = 0; f < 10; f++) {
      const words = Array.from({ length: 60 }, (_, i) => WORDS[(d * 7 + f * 3 + i) % WORDS.length]);
      await writeFile(join(sub, `file${f}.ts`), `export const x${f} = '${words.join(' ')}';\n`);
    }
  }
  await writeFile(join(dir, 'pkg07', 'planted.ts'), "const note = 'quokkaunique';\n");
  await writeFile(join(dir, 'pkg21', 'doomed.ts'), "const note = 'wombatunique';\n");
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  if (base) await rm(base, { recursive: true, force: true });
});

type Answer = {
  id: number;
  result?: { content?: Array<{ type: string; text?: string; name?: string }> };
  error?: { message: string };
};

/** `serve DIR --stdio --index-dir IDX`, driven by JSON lines. */
function serve() {
  const { child, out, exited, send } = serveLines<Answer>(BIN, dir, ['--index-dir', idx], children);
  const search = async (query: string) => {
    const answer = await send(modern('tools/call', { name: 'search', arguments: { query } }));
    expect(answer.error).toBeUndefined();
    const content = answer.result?.content ?? [];
    const summary = content[0]?.text ?? '';
    const files = content.filter((b) => b.type === 'resource_link').map((b) => b.name);
    return { summary, files };
  };
  return { child, out, exited, search };
}

const PARTIAL = /indexed [\d,]+ of [\d,]+ files|try again/;

describe('serve --index-dir', () => {
  it('saves the index on stop; the next run answers its first search in full from it, changes included', async (ctx) => {
    if (!existsSync(BIN)) return ctx.skip();
    const first = serve();
    // A small folder: the first search waits for the first build and answers in full.
    const found = await first.search('quokkaunique');
    expect(found.files).toEqual(['pkg07/planted.ts']);
    expect(found.summary).not.toMatch(PARTIAL);
    expect((await first.search('wombatunique')).files).toEqual(['pkg21/doomed.ts']);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // Saved before the process ended (the save after a change would come seconds later).
    const saved = (await readdir(idx)).filter((f) => f.endsWith('.bin'));
    expect(saved).toHaveLength(1);
    expect((await readdir(idx)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    await writeFile(join(dir, 'pkg07', 'planted.ts'), "const note = 'platypusunique';\n");
    await unlink(join(dir, 'pkg21', 'doomed.ts'));

    const second = serve();
    const changed = await second.search('platypusunique');
    expect(changed.summary).not.toMatch(PARTIAL);
    expect(changed.files).toEqual(['pkg07/planted.ts']);
    expect((await second.search('wombatunique')).files).toEqual([]);
    expect((await second.search('quokkaunique')).files).toEqual([]);
    expect((await second.search('gamma')).summary).not.toMatch(PARTIAL);
    // The saved index was used, not built anew.
    expect(second.out.stderr).not.toMatch(/built anew|not saved/);
    // The end of stdin stops it too, the index saved again.
    second.child.stdin.end();
    expect(await second.exited).toBe(0);
    expect((await readdir(idx)).filter((f) => f.endsWith('.bin'))).toEqual(saved);
    expect(first.out.stderr).not.toMatch(/not saved/);
  }, 60_000);
});
