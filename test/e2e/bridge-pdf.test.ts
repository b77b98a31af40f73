/**
 * `mcpkit bridge --extract-pdf` end to end (the built CLI in front of `mcpkit serve`): PDFs the
 * host would not see arrive as the text of their first pages, within --pdf-max-pages,
 * --pdf-max-bytes and --pdf-timeout; a broken PDF and a flate bomb are named as without the
 * flag, with why, and the bridge answers the next call. Without the flag, or where the host
 * passes PDFs, nothing changes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/index.js';
import { StdioClientTransport } from '../../src/transports/stdio/client/index.js';
import { makeFlateBombPdf, makePdf } from '../../src/testing/pdf.js';
import { runCli } from './host/audit-harness.js';
import { ROOT } from './serve-harness.js';
import { bridgeArgv, serveArgv } from './bridge/harness.js';
import { expectSurfaced, textOfBlocks, type ExplainedProfile } from './bridge/profile-check.js';

type Obj = Record<string, unknown>;
const PAGES = ['Chapter one: the start', 'Chapter two: the middle', 'Chapter three: the end'];
let dir = '';
const files: Record<string, Buffer> = {};
let generic: ExplainedProfile;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-bridge-pdf-'));
  files['book.pdf'] = makePdf(PAGES);
  // About 1 MiB: far over --max-link-bytes (256 KiB), within --pdf-max-bytes (8 MiB).
  files['large.pdf'] = makePdf(
    Array.from({ length: 60 }, (_, i) => `Large page ${i + 1}. ${'words of text '.repeat(1250)}`),
  );
  files['broken.pdf'] = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\n%%EOF\n');
  // 1 GiB of content once inflated, about 1 MiB on disk.
  files['bomb.pdf'] = await makeFlateBombPdf(1024 * 1024 * 1024);
  for (const [name, bytes] of Object.entries(files)) await writeFile(join(dir, name), bytes);
  const run = await runCli(['bridge', '--explain-profile', 'generic-text-only']);
  generic = JSON.parse(run.stdout) as ExplainedProfile;
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The bridge's process id, by client (for its peak RSS). */
const pids = new WeakMap<McpClient, number | undefined>();

async function bridged(profile: string, extra: string[]): Promise<McpClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: bridgeArgv(profile, serveArgv(dir), extra).slice(1),
    stderr: 'capture',
  });
  const client = await new McpClient({ transport, era: 'modern', cache: false }).connect();
  pids.set(client, transport.pid);
  return client;
}

/** The bridge's peak resident set (VmHWM) in bytes; undefined without /proc (not Linux). */
function peakRss(client: McpClient): number | undefined {
  const pid = pids.get(client);
  if (!existsSync('/proc/self/status') || pid === undefined) return undefined;
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : undefined;
}

const read = (c: McpClient, path: string, mode: 'embed' | 'link'): Promise<Obj> =>
  c.request('tools/call', { name: 'read', arguments: { path, mode } });
const blocksOf = (r: Obj): Obj[] => r['content'] as Obj[];
const decisionsOf = (r: Obj): Obj[] =>
  ((r['_meta'] as Obj | undefined)?.['dev.mcpkit/decisions'] ?? []) as Obj[];

describe('mcpkit bridge --extract-pdf', () => {
  it('an embedded or linked PDF arrives as the text of its pages; the PDF stays readable', async () => {
    const host = await bridged('generic-text-only', ['--extract-pdf']);
    try {
      for (const mode of ['embed', 'link'] as const) {
        const r = await read(host, 'book.pdf', mode);
        expectSurfaced(generic.tools, blocksOf(r), `book.pdf ${mode}`);
        const text = textOfBlocks(blocksOf(r));
        expect(text).toContain(
          `] file:///book.pdf (application/pdf, ${files['book.pdf']?.length} bytes), text extracted from pages 1-3 of 3:\n` +
            PAGES.map((p, i) => `--- page ${i + 1} ---\n${p}`).join('\n\n'),
        );
        expect(decisionsOf(r)).toContainEqual(
          expect.objectContaining({ uri: 'file:///book.pdf', action: 'extracted' }),
        );
      }
      const whole = await host.request('tools/call', {
        name: 'read_resource',
        arguments: { uri: 'file:///book.pdf' },
      });
      const base64 = String(blocksOf(whole)[0]?.['text']);
      expect(Buffer.from(base64, 'base64').equals(files['book.pdf'] as Buffer)).toBe(true);
    } finally {
      await host.close();
    }
  });

  it('a linked PDF of about 1 MiB with a declared size is read under --pdf-max-bytes and extracted', async () => {
    expect(files['large.pdf']?.length).toBeGreaterThan(1024 * 1024);
    const host = await bridged('generic-text-only', ['--extract-pdf']);
    try {
      const r = await read(host, 'large.pdf', 'link');
      const text = textOfBlocks(blocksOf(r));
      expect(text).toContain(
        `file:///large.pdf (application/pdf, ${files['large.pdf']?.length} bytes), text extracted from pages 1-50 of 60`,
      );
      expect(text).toContain('--- page 1 ---\nLarge page 1.');
      expect(decisionsOf(r)).toContainEqual(
        expect.objectContaining({ uri: 'file:///large.pdf', action: 'extracted' }),
      );
    } finally {
      await host.close();
    }
  });

  it('over stdio, a PDF link without a declared size is not read: the upstream connection lives on', async () => {
    const stats = join(dir, 'hostile-stats.json');
    const [command, ...args] = bridgeArgv(
      'generic-text-only',
      [process.execPath, join(ROOT, 'test/e2e/bridge/hostile-upstream.mjs'), stats],
      ['--extract-pdf'],
    );
    const transport = new StdioClientTransport({ command: command!, args, stderr: 'capture' });
    const host = await new McpClient({ transport, era: 'modern', cache: false }).connect();
    try {
      const r = await host.request('tools/call', { name: 'pdf-link', arguments: {} });
      const text = textOfBlocks(blocksOf(r));
      expect(text).toContain('test://unsized.pdf (application/pdf): not read by the bridge');
      expect(text).toContain('the PDF link declares no size');
      expect(text).toContain('read_resource {"uri":"test://unsized.pdf"}');
      const ok = await host.request('tools/call', { name: 'ok', arguments: {} });
      expect(textOfBlocks(blocksOf(ok))).toContain('fine');
      // Never asked for: an answer past the limit would have ended the stdio connection.
      const seen = JSON.parse(readFileSync(stats, 'utf8')) as { reads: string[] };
      expect(seen.reads).not.toContain('test://unsized.pdf');
    } finally {
      await host.close();
    }
  });

  it('--pdf-max-pages: the first pages, and a line naming what was left and how to read it', async () => {
    const host = await bridged('generic-text-only', ['--extract-pdf', '--pdf-max-pages', '2']);
    try {
      const text = textOfBlocks(blocksOf(await read(host, 'book.pdf', 'embed')));
      expect(text).toContain('text extracted from pages 1-2 of 3');
      expect(text).toContain(PAGES[1]);
      expect(text).not.toContain(PAGES[2]);
      expect(text).toContain(
        '[file:///book.pdf: pages after 2 were not extracted (--pdf-max-pages 2); the PDF itself: read_resource {"uri":"file:///book.pdf"} (base64)]',
      );
    } finally {
      await host.close();
    }
  });

  it('--pdf-max-bytes and --pdf-timeout: the PDF named, with why', async () => {
    const small = await bridged('generic-text-only', ['--extract-pdf', '--pdf-max-bytes', '500']);
    try {
      const text = textOfBlocks(blocksOf(await read(small, 'book.pdf', 'embed')));
      expect(text).toContain(
        `over the 500 the bridge parses (--pdf-max-bytes)). Read it with read_resource {"uri":"file:///book.pdf"}`,
      );
      expect(text).not.toContain(PAGES[0]);
    } finally {
      await small.close();
    }
    const quick = await bridged('generic-text-only', ['--extract-pdf', '--pdf-timeout', '1ms']);
    try {
      const text = textOfBlocks(blocksOf(await read(quick, 'book.pdf', 'embed')));
      // Past 1 ms before the worker starts, or while it runs: either way named with the option.
      expect(text).toMatch(
        /extraction stopped after \d+ ms \(--pdf-timeout\)|the result's \d+ ms for PDF extraction were spent \(--pdf-timeout\)/,
      );
    } finally {
      await quick.close();
    }
  });

  it('a broken PDF and a flate bomb are named with why; the next call is answered', async () => {
    const host = await bridged('generic-text-only', ['--extract-pdf']);
    try {
      const broken = textOfBlocks(blocksOf(await read(host, 'broken.pdf', 'embed')));
      expect(broken).toContain('file:///broken.pdf (application/pdf');
      expect(broken).toContain('its text could not be extracted');
      const bomb = await read(host, 'bomb.pdf', 'embed');
      expectSurfaced(generic.tools, blocksOf(bomb), 'bomb.pdf');
      expect(textOfBlocks(blocksOf(bomb))).toMatch(
        /file:\/\/\/bomb\.pdf \(application\/pdf, \d+ bytes\): not shown \(.*its text could not be extracted: extraction stopped: it needed more than \d+ bytes of memory\)/,
      );
      const after = textOfBlocks(blocksOf(await read(host, 'book.pdf', 'embed')));
      expect(after).toContain(PAGES[2]);
      // The bridge itself stayed far under 500 MiB while the worker inflated the bomb.
      const rss = peakRss(host);
      if (rss !== undefined) expect(rss).toBeLessThan(500 * 1024 * 1024);
    } finally {
      await host.close();
    }
  }, 60_000);

  it('changes nothing where the host passes PDFs (passthrough), nor without the flag', async () => {
    const pass = await bridged('passthrough', ['--extract-pdf']);
    try {
      const r = await read(pass, 'book.pdf', 'embed');
      expect(JSON.stringify(r)).toContain(files['book.pdf']?.toString('base64'));
      expect(textOfBlocks(blocksOf(r))).not.toContain(PAGES[0]);
    } finally {
      await pass.close();
    }
    const plain = await bridged('generic-text-only', []);
    try {
      const text = textOfBlocks(blocksOf(await read(plain, 'book.pdf', 'embed')));
      expect(text).toContain('file:///book.pdf (application/pdf');
      expect(text).not.toContain(PAGES[0]);
    } finally {
      await plain.close();
    }
  });

  it('a PDF limit without --extract-pdf is a usage error naming the option', async () => {
    const run = await runCli(['bridge', '--pdf-max-pages', '3', '--', 'node', 'x.js']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--pdf-max-pages applies with --extract-pdf only');
  });
});
