/**
 * Links that lie about their size (issue 26, item 7): 20 `resource_link`s declare `size: 10` and
 * each read answers 30 MiB. The read must stop at the per-link limit (`maxLinkBytes`, passed down
 * as the request's `maxResponseBytes`), not after the whole answer: over HTTP the request is
 * aborted; over stdio, where the rest of a line cannot be skipped, the connection is ended and
 * says why. The host runs in a child process (test/e2e/hostile/resolve-client.mjs, on dist/) so
 * that its RSS is its own; the server counts the bytes it managed to hand to the OS.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const CLIENT = here('./hostile/resolve-client.mjs');
const SERVER = here('./hostile/lying-links-server.mjs');
const MiB = 1024 * 1024;
const LIMIT = 4096;
const LINKS = 20;
/** The read of one link stops within about 1 MiB past the limit. */
const PER_LINK = LIMIT + MiB + 64 * 1024;

interface Outcome {
  status: string;
  code?: string;
  reason?: string;
  bytes?: number;
}
interface Report {
  outcomes: Outcome[];
  peakRss: number;
}

const run = promisify(execFile);
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function statsFile(): { path: string; read: () => { reads: number; written: number } } {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-lying-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'stats.json');
  return {
    path,
    read: () => JSON.parse(readFileSync(path, 'utf8')) as { reads: number; written: number },
  };
}

async function host(spec: Record<string, unknown>): Promise<Report> {
  const { stdout } = await run(
    process.execPath,
    [CLIENT, JSON.stringify({ links: LINKS, maxLinkBytes: LIMIT, ...spec })],
    { timeout: 90_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as Report;
}

function expectStoppedAtLimit(outcome: Outcome): void {
  expect(outcome.status).toBe('refused');
  expect(outcome.code).toBe('size');
  expect(outcome.reason).toContain(`per-link limit of ${LIMIT} (maxLinkBytes)`);
  expect(outcome.reason).toContain('reading stopped there');
  // What was read is charged to the turn.
  expect(outcome.bytes).toBeGreaterThan(LIMIT);
  expect(outcome.bytes).toBeLessThanOrEqual(PER_LINK);
}

async function httpServer(statsPath: string, shape: string): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, [SERVER, 'http', statsPath, shape], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  cleanups.push(() => child.kill('SIGKILL'));
  const first = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve),
  );
  return `http://127.0.0.1:${(JSON.parse(first) as { port: number }).port}/mcp`;
}

describe('links that claim 10 bytes and serve 30 MiB', () => {
  it('stdio: the first read stops at the limit and ends the connection, saying why; the host stays < 200 MiB', async () => {
    const stats = statsFile();
    const report = await host({
      transport: 'stdio',
      command: process.execPath,
      args: [SERVER, 'stdio', stats.path],
    });
    expect(report.peakRss).toBeLessThan(200 * MiB);
    const [first, ...rest] = report.outcomes;
    expectStoppedAtLimit(first as Outcome);
    expect(first?.reason).toContain('the stdio connection was ended');
    // The others never read: the connection is gone, and each says so.
    for (const o of rest) {
      expect(o.status).toBe('failed');
      expect(['PEER_CLOSED', 'NOT_CONNECTED']).toContain(o.code);
    }
    expect(rest.some((o) => o.reason?.includes('the connection was ended'))).toBe(true);
    // Handed to the pipe: at most the limit, 1 MiB, and what the pipe holds.
    expect(stats.read().written).toBeLessThan(PER_LINK + MiB);
  });

  it.each(['json', 'sse'])(
    'HTTP (%s): every read is aborted at the limit; the host stays < 200 MiB',
    async (shape) => {
      const stats = statsFile();
      const url = await httpServer(stats.path, shape);
      const report = await host({ transport: 'http', url });
      expect(report.peakRss).toBeLessThan(200 * MiB);
      expect(report.outcomes).toHaveLength(LINKS);
      for (const o of report.outcomes) expectStoppedAtLimit(o);
      const { reads, written } = stats.read();
      expect(reads).toBe(LINKS);
      // Socket buffers included, far from the 20 x 30 MiB a whole read of each would take.
      expect(written).toBeLessThan(LINKS * (PER_LINK + MiB));
    },
  );
});
