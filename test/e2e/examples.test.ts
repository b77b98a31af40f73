/**
 * The runnable examples (examples/): each started as a user would (`tsx examples/...`), on a free
 * port, and asked over real HTTP; and all of them type-checked against the built package.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { modern, modernHeaders } from '../../src/testing/messages.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const kills: Array<() => void> = [];
afterEach(() => {
  for (const kill of kills.splice(0)) kill();
});

/** Starts an example; resolves with the URL it prints first. */
function start(file: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  kills.push(() => child.kill('SIGKILL'));
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const line = /^(http:\/\/\S+)\n/.exec(out)?.[1];
      if (line) resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`${file} exited ${code}: ${err}`)));
  });
}

/** Runs an example to its end (bounded). */
function runToEnd(
  file: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  kills.push(() => child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

async function call(url: string, method: string, params: Record<string, unknown>, name?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: modernHeaders(method, name),
    body: JSON.stringify(modern(method, params)),
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: Record<string, unknown> }).result;
}

describe('examples/mounting (the package built)', () => {
  it.each(['node-http', 'express', 'fastify', 'hono'])(
    '%s: serves the notes server at /mcp',
    async (name) => {
      const url = await start(`examples/mounting/${name}.ts`);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const added = await call(
        url,
        'tools/call',
        { name: 'add-note', arguments: { name: 'todo', text: 'buy milk' } },
        'add-note',
      );
      expect(added).toMatchObject({ content: [{ type: 'text', text: 'note://todo' }] });
      const read = await call(url, 'resources/read', { uri: 'note://todo' }, 'note://todo');
      expect(read).toMatchObject({ contents: [{ uri: 'note://todo', text: 'buy milk' }] });
      const hello = await call(url, 'resources/read', { uri: 'note://hello' }, 'note://hello');
      expect(hello).toMatchObject({ contents: [{ mimeType: 'text/markdown', text: '# Hello\n' }] });
    },
  );

  it.each(['node-http', 'express', 'fastify', 'hono'])(
    '%s: on a port already taken, one clear line on stderr and exit 1',
    async (name) => {
      const taken = createNetServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      kills.push(() => void taken.close());
      const port = (taken.address() as AddressInfo).port;
      const r = await runToEnd(`examples/mounting/${name}.ts`, { PORT: String(port) });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `cannot listen: port ${port} on 127.0.0.1 is already in use: stop what listens there, or set PORT (PORT=0 picks a free one)\n`,
      );
    },
  );

  it('all type-check against the built package (examples/tsconfig.json)', () => {
    const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
    const r = spawnSync(process.execPath, [tsc, '-p', 'examples/tsconfig.json'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
