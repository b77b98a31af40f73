/**
 * `mcpkit bridge --profile generic-text-only` in front of a hostile upstream
 * (test/e2e/bridge/hostile-upstream.mjs), through the built CLI: links to loopback and metadata
 * addresses are never requested, a 200 MB blob answer and a link that lies about its size are
 * bounded (the bridge's peak RSS, from /proc, stays far under 500 MiB; the call settles with an
 * error or a small result naming the URI; the host connection stays usable), and endless
 * notification frames do not grow the bridge.
 */
import { createServer, type Server } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/index.js';
import { StdioClientTransport } from '../../src/transports/stdio/client/index.js';
import { bridgeArgv } from './bridge/harness.js';

type Obj = Record<string, unknown>;
const HOSTILE = 'test/e2e/bridge/hostile-upstream.mjs';
const MiB = 1024 * 1024;
const DECISIONS = 'dev.mcpkit/decisions';

let dir = '';
let stats = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-bridge-hostile-'));
  stats = join(dir, 'stats.json');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Bridged {
  host: McpClient;
  pid: () => number | undefined;
  notes: string[];
}

async function bridged(
  extra: string[] = [],
  era: 'modern' | 'legacy' = 'modern',
): Promise<Bridged> {
  const [command, ...args] = bridgeArgv(
    'generic-text-only',
    [process.execPath, HOSTILE, stats],
    extra,
  );
  const transport = new StdioClientTransport({ command: command!, args, stderr: 'capture' });
  const notes: string[] = [];
  const host = await new McpClient({
    transport,
    era,
    cache: false,
    onNotification: (n) => notes.push(n.method),
  }).connect();
  return { host, pid: () => transport.pid, notes };
}

/** The bridge's peak resident set (VmHWM) in bytes; undefined without /proc (not Linux). */
function peakRss(pid: number | undefined): number | undefined {
  if (!existsSync('/proc/self/status')) return undefined;
  expect(pid).toBeDefined();
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${String(pid)}/status`, 'utf8'));
  expect(m).not.toBeNull();
  return Number(m?.[1]) * 1024;
}

const textOf = (r: Obj): string =>
  (r['content'] as Obj[])
    .map((b) => (b['type'] === 'text' ? String(b['text']) : JSON.stringify(b)))
    .join('\n');

async function stillUsable(host: McpClient): Promise<void> {
  const ok = await host.request('tools/call', { name: 'ok', arguments: {} });
  expect(textOf(ok)).toBe('fine');
}

describe('mcpkit bridge in front of a hostile upstream', () => {
  let listener: Server;
  let connections = 0;
  let port = 0;
  beforeAll(async () => {
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });

  it('links to loopback and metadata addresses are never requested, only named', async () => {
    const { host } = await bridged();
    try {
      const r = await host.request('tools/call', { name: 'ssrf', arguments: { port } });
      const text = textOf(r);
      for (const uri of [
        `http://127.0.0.1:${port}/secret.txt`,
        `http://localhost:${port}/other.txt`,
        'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      ]) {
        expect(text).toContain(uri);
        const decision = ((r['_meta'] as Obj)[DECISIONS] as Obj[]).find((d) => d['uri'] === uri);
        expect(decision?.['action'], uri).toBe('text');
        expect(decision?.['reason'], uri).toMatch(/^guard: /);
      }
      // Named as refused by the guard, with no read_resource call to try (it refuses them too).
      expect(text).toMatch(/refused by the SSRF guard/);
      expect(text).not.toContain('read_resource');
      expect((r['content'] as Obj[]).some((b) => b['type'] === 'resource_link')).toBe(false);
      await stillUsable(host);
    } finally {
      await host.close();
    }
    expect(connections).toBe(0);
    const seen = JSON.parse(await readFile(stats, 'utf8')) as { reads: string[] };
    expect(seen.reads.filter((u) => u.startsWith('http'))).toEqual([]);
  });

  it('a 200 MB blob answer fails that call within 30 s, RSS bounded, the next call works', async () => {
    const { host, pid } = await bridged();
    try {
      const started = Date.now();
      const error = await host
        .request('tools/call', { name: 'blob', arguments: {} }, { timeoutMs: 30_000 })
        .then(
          (r) => new Error(`answered: ${JSON.stringify(r).slice(0, 200)}`),
          (e: Error) => e,
        );
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(error.message).toMatch(/upstream/);
      await stillUsable(host);
      const rss = peakRss(pid());
      if (rss !== undefined) expect(rss).toBeLessThan(500 * MiB);
    } finally {
      await host.close();
    }
  });

  it('a link whose read answers a 200 MB blob becomes a small text naming the URI', async () => {
    const { host, pid } = await bridged();
    try {
      const r = await host.request(
        'tools/call',
        { name: 'blob-link', arguments: {} },
        { timeoutMs: 30_000 },
      );
      const text = textOf(r);
      expect(text).toContain('test://blob-link.png');
      expect(text).toContain('read_resource');
      expect(JSON.stringify(r).length).toBeLessThan(4096);
      await stillUsable(host);
      const rss = peakRss(pid());
      if (rss !== undefined) expect(rss).toBeLessThan(500 * MiB);
    } finally {
      await host.close();
    }
  });

  it('a link claiming 10 bytes is cut at --max-link-bytes (100 KiB sent) or named (100 MB sent)', async () => {
    const { host, pid } = await bridged(['--max-link-bytes', '64KiB']);
    try {
      const small = await host.request('tools/call', { name: 'liar', arguments: {} });
      // 100 KiB sent: within what one answer may carry on the wire, cut to 64 KiB of text.
      const run = /y{1000,}/.exec(JSON.stringify(small))?.[0] ?? '';
      expect(run.length).toBeGreaterThan(32 * 1024);
      expect(run.length).toBeLessThanOrEqual(64 * 1024);
      expect((small['_meta'] as Obj)[DECISIONS]).toContainEqual(
        expect.objectContaining({ uri: 'test://liar.txt', action: 'truncated' }),
      );
      const big = await host.request(
        'tools/call',
        { name: 'liar', arguments: { big: true } },
        { timeoutMs: 30_000 },
      );
      expect(textOf(big)).toContain('test://liar-big.txt');
      expect(JSON.stringify(big).length).toBeLessThan(64 * 1024 + 4096);
      await stillUsable(host);
      const rss = peakRss(pid());
      if (rss !== undefined) expect(rss).toBeLessThan(500 * MiB);
    } finally {
      await host.close();
    }
  });

  it('endless notification frames (list changes from the start, a subscribed resource) stay bounded', async () => {
    const { host, pid, notes } = await bridged([], 'legacy');
    try {
      await host.request('resources/subscribe', { uri: 'test://watched' });
      // Frames flow for a few seconds while calls keep working.
      for (let i = 0; i < 20; i++) {
        await stillUsable(host);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      expect(notes.length).toBeGreaterThan(0);
      const rss = peakRss(pid());
      if (rss !== undefined) expect(rss).toBeLessThan(500 * MiB);
    } finally {
      await host.close();
    }
  });
});
