/**
 * A server's own requests must not flood the client (issue 26, item 1). The client runs in a
 * child process (test/e2e/hostile/flood-client.mjs, on dist/) so that its RSS is its own; the
 * hostile servers stop reading and write `ping` requests without end. Whatever the flood, the
 * pending request ends at its `requestTimeoutMs`, the client stays far below 300 MiB, and over
 * HTTP it never opens more connections than its pool allows.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/index.js';
import { StdioClientTransport } from '../../src/transports/stdio/client/index.js';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const CLIENT = here('./hostile/flood-client.mjs');
const STDIO_SERVER = here('./hostile/request-flood-stdio-server.mjs');
const HTTP_SERVER = here('./hostile/request-flood-http-server.mjs');
const MiB = 1024 * 1024;
const TIMEOUT_MS = 3000;
/** Far above a quiet client (~70 MiB), far below the ~450 MiB the flood reached in 3 s before. */
const RSS_BOUND = 300 * MiB;

interface Report {
  era: string;
  code: string;
  message?: string;
  elapsedMs: number;
  peakRss: number;
  warnings: Record<string, number>;
  /** The most TCP connections the client process had open at once (counted there). */
  peakSockets: number;
}

const run = promisify(execFile);

async function floodClient(spec: Record<string, unknown>): Promise<Report> {
  const { stdout } = await run(process.execPath, [CLIENT, JSON.stringify(spec)], {
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as Report;
}

function expectOnTime(report: Report): void {
  expect(report.code).toBe('REQUEST_TIMEOUT');
  expect(report.message).toContain(`within ${TIMEOUT_MS} ms`);
  expect(report.elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
  // Generous: a timer on a loaded 2-core machine, never the flood's doing.
  expect(report.elapsedMs).toBeLessThan(TIMEOUT_MS + 2500);
}

const servers: ChildProcess[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.kill('SIGKILL');
});

async function httpServer(era: string): Promise<{ url: string; stats: () => Promise<Stats> }> {
  const child = spawn(process.execPath, [HTTP_SERVER, era], { stdio: ['pipe', 'pipe', 'inherit'] });
  servers.push(child);
  const first = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve),
  );
  const { port, statsPort } = JSON.parse(first) as { port: number; statsPort: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stats: async () => (await (await fetch(`http://127.0.0.1:${statsPort}/`)).json()) as Stats,
  };
}

interface Stats {
  posts: number;
  /** POSTs that answered one of the server's pings. */
  replies: number;
}

describe('a server that floods the client with its own requests', () => {
  it.each(['modern', 'legacy'])(
    'stdio, %s: the server reads nothing and writes pings; bounded RSS, the call times out on time',
    async (era) => {
      const report = await floodClient({
        transport: 'stdio',
        command: process.execPath,
        args: [STDIO_SERVER, era],
        timeoutMs: TIMEOUT_MS,
      });
      expect(report.era).toBe(era);
      expectOnTime(report);
      expect(report.peakRss).toBeLessThan(RSS_BOUND);
      if (era === 'modern') {
        // Dropped unanswered, with a warning at the 1st, 10th, 100th… only.
        expect(report.warnings['SERVER_REQUEST_REFUSED']).toBeGreaterThanOrEqual(3);
        expect(report.warnings['SERVER_REQUEST_REFUSED']).toBeLessThan(12);
      }
    },
  );

  it('HTTP, 2025-11-25: every POST answered with more pings; at most 16 connections at once (the default pool)', async () => {
    const server = await httpServer('legacy');
    const report = await floodClient({ transport: 'http', url: server.url, timeoutMs: TIMEOUT_MS });
    expect(report.era).toBe('legacy');
    expectOnTime(report);
    expect(report.peakRss).toBeLessThan(RSS_BOUND);
    const stats = await server.stats();
    // The client did answer (a flood of POSTs is possible), through 16 connections at most,
    // counted by the client: the server sees a closed one until it reads the close, which may
    // be after the pool opened the next one (it saw 17 so under load).
    expect(stats.replies).toBeGreaterThan(0);
    expect(report.peakSockets).toBeGreaterThan(1);
    expect(report.peakSockets).toBeLessThanOrEqual(16);
  });

  it('HTTP, 2025-11-25: maxSocketsPerOrigin bounds the pool', async () => {
    const server = await httpServer('legacy');
    const report = await floodClient({
      transport: 'http',
      url: server.url,
      timeoutMs: TIMEOUT_MS,
      maxSocketsPerOrigin: 3,
    });
    expectOnTime(report);
    const stats = await server.stats();
    expect(stats.replies).toBeGreaterThan(0);
    expect(report.peakSockets).toBeGreaterThan(1);
    expect(report.peakSockets).toBeLessThanOrEqual(3);
  });

  it('HTTP, 2026-07-28: the pings are dropped unanswered (no POST for them)', async () => {
    const server = await httpServer('modern');
    const report = await floodClient({ transport: 'http', url: server.url, timeoutMs: TIMEOUT_MS });
    expect(report.era).toBe('modern');
    expectOnTime(report);
    expect(report.peakRss).toBeLessThan(RSS_BOUND);
    const stats = await server.stats();
    // discover, tools/list (the tool's headers), the call: nothing in answer to the pings.
    expect(stats.posts).toBeLessThanOrEqual(3);
    expect(report.warnings['SERVER_REQUEST_REFUSED']).toBeGreaterThanOrEqual(2);
  });

  it('stdio, legacy: a burst of 5000 pings from a server that reads is answered in full', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [STDIO_SERVER, 'legacy'],
      closeTimeoutMs: 500,
    });
    const client = await new McpClient({ transport, requestTimeoutMs: 20_000 }).connect();
    try {
      const result = await client.callTool('burst', { n: 5000 });
      expect(result.content).toEqual([{ type: 'text', text: '5000 replies' }]);
      expect(client.warnings.map((w) => w.code)).not.toContain('SERVER_REQUEST_DROPPED');
    } finally {
      await client.close();
    }
  });
});
