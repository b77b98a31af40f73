/**
 * The same request sent again and again, through the real CLI: `mcpkit serve` over Streamable
 * HTTP and stdio answers a repeated read with each request's own id (its answer encoded once per
 * file version), still checks the headers of a repeated body, and serves a file's new contents
 * once it changed.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { modernHeaders } from '../../src/testing/messages.js';
import { CLI, HttpServe, MODERN } from './serve-harness.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'repeat-test', version: '1' },
};
const readText = (id: number | string, uri: string) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri, _meta: META } });

/** What the tests read of an answer. */
interface Answer {
  id?: number | string;
  result: { contents: Array<{ text: string }> };
  error?: { code: number };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mcpkit-repeat-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'a.md'), 'first version');
  return dir;
}

function startStdio(dir: string): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [CLI, 'serve', dir, '--stdio', '--quiet'], {
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  );
  return child;
}

/** Retries `read` until its text is `want` (the watch's event has to arrive first), 10 s at most. */
async function untilText(read: () => Promise<string>, want: string): Promise<void> {
  const end = Date.now() + 10_000;
  let got = await read();
  while (got !== want) {
    if (Date.now() > end) throw new Error(`still ${JSON.stringify(got)}, not ${want}`);
    await new Promise((r) => setTimeout(r, 25));
    got = await read();
  }
}

describe('mcpkit serve: repeated requests', () => {
  it('HTTP: each id answered, the headers of a repeated body still checked, a change served', async () => {
    const dir = await folder();
    const served = await HttpServe.start([dir, '--quiet']);
    cleanups.push(async () => void (await served.stop()));
    const url = served.url;
    const post = async (body: string, name = 'file:///a.md') => {
      const res = await fetch(url, {
        method: 'POST',
        headers: modernHeaders('resources/read', name),
        body,
      });
      return { status: res.status, json: (await res.json()) as Answer };
    };
    const ids = [1, 'two', 3, 'four'];
    for (const id of ids) {
      const { status, json } = await post(readText(id, 'file:///a.md'));
      expect(status).toBe(200);
      expect(json).toMatchObject({ id, result: { contents: [{ text: 'first version' }] } });
    }
    // The same body, answered a moment ago, with a header that disagrees.
    const wrong = await post(readText(5, 'file:///a.md'), 'file:///b.md');
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ id: 5, error: { code: -32020 } });
    await writeFile(join(dir, 'a.md'), 'second version, longer');
    let n = 10;
    await untilText(
      async () => (await post(readText(n++, 'file:///a.md'))).json.result.contents[0]?.text ?? '',
      'second version, longer',
    );
  });

  it('stdio: each id answered, a change served', async () => {
    const dir = await folder();
    const child = startStdio(dir);
    const waiting = new Map<number | string, (m: Answer) => void>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = JSON.parse(line) as Answer;
      if (m.id === undefined) return;
      waiting.get(m.id)?.(m);
      waiting.delete(m.id);
    });
    const ask = (id: number | string) =>
      new Promise<Answer>((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${readText(id, 'file:///a.md')}\n`);
      });
    // Pipelined: many at once, each answered under its own id.
    const ids = Array.from({ length: 200 }, (_, i) => (i % 2 ? i : `s${i}`));
    const answers = await Promise.all(ids.map(ask));
    answers.forEach((a, i) => {
      expect(a.id).toBe(ids[i]);
      expect(a.result.contents[0]?.text).toBe('first version');
    });
    await writeFile(join(dir, 'a.md'), 'second version, longer');
    let n = 1000;
    await untilText(
      async () => (await ask(n++)).result.contents[0]?.text ?? '',
      'second version, longer',
    );
  });
});
