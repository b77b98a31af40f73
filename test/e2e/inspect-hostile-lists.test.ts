/**
 * List pagination against a hostile stdio server (test/e2e/hostile/huge-lists-server.mjs) that
 * lists forever, hands out 20 MB cursors, or pages of huge descriptions: `McpClient.listTools()`
 * rejects with LIST_TOO_LARGE naming the option, `mcpkit inspect` exits 1 naming the flag, and
 * neither keeps more than the bounds allow.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient, type McpClientOptions } from '../../src/client/index.js';
import { StdioClientTransport } from '../../src/transports/stdio/client/index.js';
import { rejection } from './hostile/expect-helpers.js';
import { runMeasured } from './hostile/peak-rss.js';

const SERVER = fileURLToPath(new URL('./hostile/huge-lists-server.mjs', import.meta.url));
const MiB = 1024 * 1024;
const CURSOR = String(20 * 1000 * 1000);

const open: McpClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function connect(server: string[], options: Partial<McpClientOptions> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, ...server],
    closeTimeoutMs: 500,
  });
  const client = new McpClient({ transport, requestTimeoutMs: 20_000, ...options });
  open.push(client);
  await client.connect();
  return client;
}

describe('McpClient list bounds against a hostile server', () => {
  it('an endless list: listTools() rejects with LIST_TOO_LARGE naming maxListItems (default 50,000)', async () => {
    const client = await connect(['--endless-tools', '--page', '5000']);
    const error = await rejection(client.listTools());
    expect(error.code).toBe('LIST_TOO_LARGE');
    expect(error.message).toBe(
      'tools/list: page 11 takes the list past 50000 entries (maxListItems); raise maxListItems if the list is really that long',
    );
    // The iterator stops at the same bound, after the 10 pages that fit.
    let seen = 0;
    const iterate = async () => {
      for await (const _tool of client.tools()) seen++;
    };
    expect((await rejection(iterate())).code).toBe('LIST_TOO_LARGE');
    expect(seen).toBe(50_000);
  }, 60_000);

  it('a 20 MB cursor is refused, never sent back: LIST_TOO_LARGE naming maxCursorBytes', async () => {
    const client = await connect(['--endless-tools', '--page', '1', '--cursor-bytes', CURSOR]);
    const error = await rejection(client.listTools());
    expect(error.code).toBe('LIST_TOO_LARGE');
    expect(error.message).toContain(`a cursor of ${CURSOR} bytes, over 65536 (maxCursorBytes)`);
    const small = await connect(['--endless-tools', '--page', '1', '--cursor-bytes', '2000']);
    const limited = await rejection(small.listTools({}));
    expect(limited.code).toBe('PAGE_LIMIT');
  }, 60_000);

  it('pages of huge entries: LIST_TOO_LARGE naming maxListBytes', async () => {
    const client = await connect(
      ['--endless-tools', '--page', '10', '--description-bytes', '100000'],
      {
        maxListBytes: 4 * MiB,
      },
    );
    const error = await rejection(client.listTools());
    expect(error.code).toBe('LIST_TOO_LARGE');
    expect(error.message).toMatch(
      /^tools\/list: page 5 takes the list's entries past 4194304 bytes \(maxListBytes\)/,
    );
  }, 60_000);
});

describe('mcpkit inspect against a hostile server', () => {
  const inspect = (flags: string[], server: string[]) =>
    runMeasured(['inspect', '--json', ...flags, '--', process.execPath, SERVER, ...server]);

  it('an endless list: exit 1 naming --max-list-items, within 400 MiB', async () => {
    const run = await inspect([], ['--endless-tools', '--page', '5000']);
    console.info(
      `inspect, endless list: ${run.ms} ms, peak RSS ${((run.peakRss ?? 0) / MiB).toFixed(0)} MiB`,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      'mcpkit inspect: LIST_TOO_LARGE: tools/list: page 11 takes the list past 50000 entries (--max-list-items)',
    );
    if (run.peakRss !== undefined) expect(run.peakRss).toBeLessThan(400 * MiB);
    const lower = await inspect(['--max-list-items', '7'], ['--endless-tools', '--page', '5']);
    expect(lower.code).toBe(1);
    expect(lower.stderr).toContain('page 2 takes the list past 7 entries (--max-list-items)');
  }, 90_000);

  it('20 MB cursors: exit 1 naming --max-cursor-bytes, within 400 MiB', async () => {
    const run = await inspect([], ['--endless-tools', '--page', '1', '--cursor-bytes', CURSOR]);
    console.info(
      `inspect, 20 MB cursors: ${run.ms} ms, peak RSS ${((run.peakRss ?? 0) / MiB).toFixed(0)} MiB`,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`a cursor of ${CURSOR} bytes, over 65536 (--max-cursor-bytes)`);
    if (run.peakRss !== undefined) expect(run.peakRss).toBeLessThan(400 * MiB);
  }, 90_000);

  it('pages of huge entries: exit 1 naming --max-list-bytes (default 64 MiB), within 400 MiB', async () => {
    const run = await inspect(
      [],
      ['--endless-tools', '--page', '100', '--description-bytes', '100000'],
    );
    console.info(
      `inspect, 10 MB pages: ${run.ms} ms, peak RSS ${((run.peakRss ?? 0) / MiB).toFixed(0)} MiB`,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /tools\/list: page 7 takes the list's entries past 67108864 bytes \(--max-list-bytes\)/,
    );
    if (run.peakRss !== undefined) expect(run.peakRss).toBeLessThan(400 * MiB);
  }, 90_000);

  it('a list within the limits is printed whole', async () => {
    const run = await inspect([], ['--resources', '2500', '--page', '1000']);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { resources: unknown[] }).resources).toHaveLength(2500);
  }, 60_000);
});
