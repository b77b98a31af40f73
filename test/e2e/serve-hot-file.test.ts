/**
 * `mcpkit serve` on a file another process rewrites in place every ~3 ms (writeFileSync: O_TRUNC,
 * then one write), never quiet for a settle window: reads are served a whole version (one the
 * writer wrote, never empty, a prefix or a mix), through the read workers and on the main thread
 * (`--read-workers 0`) alike. Only a read that caught no standing version may be refused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modern, modernHeaders } from '../../src/testing/messages.js';
import { HttpServe } from './serve-harness.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Version v: one letter, at a length only that letter has (a mix or a prefix shows). */
const versionOf = (letter: string): string => letter.repeat(2000 + LETTERS.indexOf(letter) * 101);

const WRITER = `
const { writeFileSync } = require('node:fs');
const L = ${JSON.stringify(LETTERS)}, pause = new Int32Array(new SharedArrayBuffer(4));
const B = Array.from(L, (c, i) => Buffer.alloc(2000 + i * 101, c));
for (let v = 1; ; v++) {
  writeFileSync(process.argv[1], B[v % 26]);
  Atomics.wait(pause, 0, 0, 3);
}
`;

let dir = '';
let writer: ChildProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-hot-'));
  await writeFile(join(dir, 'hot.txt'), versionOf('a'));
  writer = spawn(process.execPath, ['-e', WRITER, join(dir, 'hot.txt')], { stdio: 'ignore' });
});

afterAll(async () => {
  writer?.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

type Answer = {
  result?: { contents: Array<{ text?: string }> };
  error?: { code: number; message: string };
};

describe.each([[[]], [['--read-workers', '0']]])(
  'mcpkit serve %j on a file rewritten every ~3 ms',
  (extra) => {
    it('serves most reads, each a whole version the writer wrote', async () => {
      const served = await HttpServe.start([dir, '--quiet', ...extra]);
      try {
        const tally = { whole: 0, changed: 0 };
        for (let i = 0; i < 12; i++) {
          const res = await fetch(served.url, {
            method: 'POST',
            headers: modernHeaders('resources/read', 'file:///hot.txt'),
            body: JSON.stringify(modern('resources/read', { uri: 'file:///hot.txt' })),
          });
          const answer = (await res.json()) as Answer;
          if (answer.error) {
            expect(answer.error.message).toMatch(
              /^file:\/\/\/hot\.txt kept changing while it was read/,
            );
            tally.changed++;
            continue;
          }
          const text = answer.result?.contents[0]?.text ?? '';
          expect(text.length).toBeGreaterThan(0);
          expect(text).toBe(versionOf(text[0] as string));
          tally.whole++;
        }
        expect(tally.whole).toBeGreaterThan(tally.changed);
      } finally {
        await served.stop();
      }
    }, 120_000);
  },
);
