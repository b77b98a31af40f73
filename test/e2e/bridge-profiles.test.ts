/**
 * Each host profile end to end through the built CLI: `mcpkit bridge --profile NAME` in front of
 * `mcpkit serve` on a folder of text, JSON, PNG, PDF-like and large files (and of
 * server-everything), with mcpkit's client and the official SDK v2 client as the host, checking
 * what reaches the host: links read or named, blobs kept or named, results cut with the rest
 * readable, `_meta["dev.mcpkit/decisions"]` and the `--log` lines.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as SdkStdio } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/index.js';
import { StdioClientTransport } from '../../src/transports/stdio/client/index.js';
import { runCli } from './host/audit-harness.js';
import { CLI, EXAMPLE_DIR, MODERN } from './serve-harness.js';
import { serveArgv } from './bridge/harness.js';
import { expectSurfaced, textOfBlocks, type ExplainedProfile } from './bridge/profile-check.js';

type Obj = Record<string, unknown>;
const EVERYTHING = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
const DECISIONS = 'dev.mcpkit/decisions';

let dir = '';
const files: Record<string, Buffer> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-bridge-profiles-'));
  files['a.md'] = Buffer.from('# Notes\n\nhello text, “quoted” é\n');
  files['data.json'] = Buffer.from('{"a":[1,2,3],"b":"text"}\n');
  files['doc.pdf'] = Buffer.from('%PDF-1.4\n% a text pdf-like file\n%%EOF\n');
  files['img.png'] = await readFile(join(EXAMPLE_DIR, 'images', 'mcpkit.png'));
  files['large.txt'] = Buffer.from('a line of text ü\n'.repeat(30_000));
  for (const [name, bytes] of Object.entries(files)) await writeFile(join(dir, name), bytes);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const serve = (): string[] => serveArgv(dir);

async function bridged(
  profile: string,
  options: { era?: 'modern' | 'legacy'; extra?: string[]; upstream?: string[] } = {},
): Promise<McpClient> {
  return new McpClient({
    transport: new StdioClientTransport({
      command: process.execPath,
      args: [
        CLI,
        'bridge',
        '--profile',
        profile,
        ...(options.extra ?? []),
        '--',
        ...(options.upstream ?? serve()),
      ],
      stderr: 'capture',
    }),
    era: options.era ?? 'modern',
    cache: false,
  }).connect();
}

const call = async (c: McpClient, name: string, args: Obj): Promise<Obj> =>
  c.request('tools/call', { name, arguments: args });
const blocksOf = (r: Obj): Obj[] => r['content'] as Obj[];
const decisionsOf = (r: Obj): Obj[] =>
  ((r['_meta'] as Obj | undefined)?.[DECISIONS] ?? []) as Obj[];
const onlyText = async (c: McpClient, name: string, args: Obj): Promise<string> => {
  const r = await call(c, name, args);
  expect(r['isError'], JSON.stringify(r).slice(0, 300)).not.toBe(true);
  const blocks = blocksOf(r);
  expect(blocks).toHaveLength(1);
  return String(blocks[0]?.['text']);
};

async function explained(name: string): Promise<ExplainedProfile> {
  const run = await runCli(['bridge', '--explain-profile', name]);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as ExplainedProfile;
}

describe('generic-text-only: only text (and images) reach the host', () => {
  let host: McpClient;
  let logDir = '';
  let log = '';
  beforeAll(async () => {
    logDir = await mkdtemp(join(tmpdir(), 'mcpkit-bridge-log-'));
    log = join(logDir, 'decisions.jsonl');
    host = await bridged('generic-text-only', { extra: ['--log', log] });
  });
  afterAll(async () => {
    await host.close();
    await rm(logDir, { recursive: true, force: true });
  });

  it('links: texts within budget arrive as text, the others as a line naming URI, MIME, size and read_resource', async () => {
    const profile = await explained('generic-text-only');
    for (const name of ['a.md', 'data.json']) {
      const r = await call(host, 'read', { path: name, mode: 'link' });
      expectSurfaced(profile.tools, blocksOf(r), name);
      expect(textOfBlocks(blocksOf(r))).toContain(files[name]?.toString('utf8'));
      expect(decisionsOf(r)).toContainEqual(
        expect.objectContaining({ uri: `file:///${name}`, action: 'embedded' }),
      );
    }
    const png = await call(host, 'read', { path: 'img.png', mode: 'link' });
    expectSurfaced(profile.tools, blocksOf(png), 'img.png');
    const pngData = blocksOf(png).map((b) =>
      b['type'] === 'image' ? b['data'] : (b['resource'] as Obj | undefined)?.['blob'],
    );
    expect(pngData).toContain(files['img.png']?.toString('base64'));

    const pdf = await call(host, 'read', { path: 'doc.pdf', mode: 'link' });
    expectSurfaced(profile.tools, blocksOf(pdf), 'doc.pdf');
    const pdfLine = textOfBlocks(blocksOf(pdf));
    for (const part of [
      'file:///doc.pdf',
      'application/pdf',
      `${files['doc.pdf']?.length} bytes`,
      'read_resource',
    ])
      expect(pdfLine).toContain(part);
    expect(pdfLine).not.toContain('a text pdf-like file');

    // 480 000 bytes: over --max-link-bytes (256 KiB by default).
    const large = await call(host, 'read', { path: 'large.txt', mode: 'link' });
    expectSurfaced(profile.tools, blocksOf(large), 'large.txt');
    const largeText = textOfBlocks(blocksOf(large));
    for (const part of [
      'file:///large.txt',
      'text/plain',
      `${files['large.txt']?.length} bytes`,
      'read_resource',
    ])
      expect(largeText).toContain(part);
    expect(largeText.length).toBeLessThan(256 * 1024 + 2000);
  });

  it('embedded blobs: images kept, a PDF named by URI, MIME, size and read_resource', async () => {
    const profile = await explained('generic-text-only');
    const pdf = await call(host, 'read', { path: 'doc.pdf', mode: 'embed' });
    expectSurfaced(profile.tools, blocksOf(pdf), 'embedded pdf');
    const line = textOfBlocks(blocksOf(pdf));
    for (const part of [
      'file:///doc.pdf',
      'application/pdf',
      `${files['doc.pdf']?.length} bytes`,
      'read_resource',
    ])
      expect(line).toContain(part);
    const png = await call(host, 'read', { path: 'img.png', mode: 'embed' });
    expectSurfaced(profile.tools, blocksOf(png), 'embedded png');
    expect(JSON.stringify(blocksOf(png))).toContain(files['img.png']?.toString('base64'));
    const found = await call(host, 'search', { query: 'text' });
    expectSurfaced(profile.tools, blocksOf(found), 'search');
    expect(textOfBlocks(blocksOf(found))).toContain(files['a.md']?.toString('utf8'));
  });

  it('read_resource returns exact bytes and ranges', async () => {
    expect(await onlyText(host, 'read_resource', { uri: 'file:///a.md' })).toBe(
      files['a.md']?.toString('utf8'),
    );
    const pdf = await onlyText(host, 'read_resource', { uri: 'file:///doc.pdf' });
    expect(Buffer.from(pdf, 'base64').equals(files['doc.pdf'] as Buffer)).toBe(true);
    const png = await onlyText(host, 'read_resource', {
      uri: 'file:///img.png',
      offset: 8,
      length: 50,
    });
    expect(Buffer.from(png, 'base64').equals((files['img.png'] as Buffer).subarray(8, 58))).toBe(
      true,
    );
    expect(await onlyText(host, 'read_resource', { uri: 'file:///large.txt' })).toBe(
      files['large.txt']?.toString('utf8'),
    );
    const range = await onlyText(host, 'read_resource', {
      uri: 'file:///large.txt',
      offset: 1001,
      length: 70_000,
    });
    expect(
      Buffer.from(range, 'base64').equals((files['large.txt'] as Buffer).subarray(1001, 71_001)),
    ).toBe(true);
  });

  it('every decision names its URI in _meta and in the --log JSON lines', async () => {
    const r = await call(host, 'read', { path: 'doc.pdf', mode: 'link' });
    const decisions = decisionsOf(r);
    expect(decisions.length).toBeGreaterThan(0);
    expect(decisions).toContainEqual(expect.objectContaining({ uri: 'file:///doc.pdf' }));
    let lines: Obj[] = [];
    for (let i = 0; i < 50; i++) {
      const text = await readFile(log, 'utf8').catch(() => '');
      lines = text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Obj);
      if (lines.some((l) => l['uri'] === 'file:///doc.pdf')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const pdfLine = lines.find((l) => l['uri'] === 'file:///doc.pdf');
    expect(pdfLine).toMatchObject({ method: 'tools/call', name: 'read', uri: 'file:///doc.pdf' });
    expect(typeof pdfLine?.['action']).toBe('string');
    expect(typeof pdfLine?.['reason']).toBe('string');
    expect(lines.some((l) => l['uri'] === 'file:///a.md' && l['action'] === 'embedded')).toBe(true);
  });

  it('the official SDK v2 client as the host, in both eras, sees no link and no non-image blob', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const sdk = new Client(
        { name: 'sdk-host', version: '0.0.1' },
        era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
      );
      await sdk.connect(
        new SdkStdio({
          command: process.execPath,
          args: [CLI, 'bridge', '--profile', 'generic-text-only', '--', ...serve()],
          stderr: 'pipe',
        }),
      );
      try {
        expect(sdk.getProtocolEra()).toBe(era);
        const profile = await explained('generic-text-only');
        const names = (await sdk.listTools()).tools.map((t) => t.name);
        expect(names).toEqual(
          expect.arrayContaining(['read', 'search', 'read_resource', 'list_resources']),
        );
        for (const args of [
          { path: 'a.md', mode: 'link' },
          { path: 'doc.pdf', mode: 'link' },
          { path: 'doc.pdf', mode: 'embed' },
          { path: 'img.png', mode: 'link' },
        ]) {
          const r = (await sdk.callTool({ name: 'read', arguments: args })) as unknown as Obj;
          expectSurfaced(profile.tools, blocksOf(r), `sdk ${era} ${JSON.stringify(args)}`);
        }
        const md = (await sdk.callTool({
          name: 'read',
          arguments: { path: 'a.md', mode: 'link' },
        })) as unknown as Obj;
        expect(textOfBlocks(blocksOf(md))).toContain(files['a.md']?.toString('utf8'));
        const pdf = (await sdk.callTool({
          name: 'read_resource',
          arguments: { uri: 'file:///doc.pdf' },
        })) as unknown as Obj;
        expect(
          Buffer.from(String(blocksOf(pdf)[0]?.['text']), 'base64').equals(
            files['doc.pdf'] as Buffer,
          ),
        ).toBe(true);
      } finally {
        await sdk.close();
      }
    }
  });
});

describe('claude-code: links given as text lines are read, results cut to its limit', () => {
  it('search links are read for the host; a 480 kB text is cut to 50 000 characters with the rest readable', async () => {
    const profile = await explained('claude-code');
    const host = await bridged('claude-code', { era: 'legacy' });
    try {
      const found = await call(host, 'search', { query: 'text' });
      expectSurfaced(profile.tools, blocksOf(found), 'search');
      expect(textOfBlocks(blocksOf(found))).toContain(files['a.md']?.toString('utf8'));
      const big = await call(host, 'read', { path: 'large.txt', mode: 'embed' });
      expectSurfaced(profile.tools, blocksOf(big), 'large');
      const text = textOfBlocks(blocksOf(big));
      expect(text.length).toBeLessThanOrEqual(50_000 + 10);
      const rest =
        /read_resource (\{"uri":"file:\/\/\/large\.txt","offset":(\d+),"length":(\d+)\})/.exec(
          text,
        );
      expect(rest, text.slice(-600)).not.toBeNull();
      const { offset, length } = JSON.parse(rest?.[1] as string) as {
        offset: number;
        length: number;
      };
      expect(offset + length).toBe(files['large.txt']?.length);
      const kept = (files['large.txt'] as Buffer).subarray(0, offset).toString('utf8');
      expect(text).toContain(kept);
      // The rest, read in ranges the size one read returns, is exactly what was cut.
      const got = await onlyText(host, 'read_resource', {
        uri: 'file:///large.txt',
        offset,
        length,
      });
      expect(
        Buffer.from(got, 'base64').equals((files['large.txt'] as Buffer).subarray(offset)),
      ).toBe(true);
      expect(decisionsOf(big)).toContainEqual(
        expect.objectContaining({ uri: 'file:///large.txt', action: 'truncated' }),
      );
    } finally {
      await host.close();
    }
  });

  it('a long text with no URI of its own is kept by the bridge and read back with offset/length', async () => {
    const host = await bridged('claude-code', {
      extra: ['--max-result-chars', '2000'],
      upstream: [process.execPath, EVERYTHING],
    });
    try {
      const message = Array.from({ length: 800 }, (_, i) => `w${i}é`).join(' ');
      const r = await call(host, 'echo', { message });
      const text = textOfBlocks(blocksOf(r));
      expect(text.length).toBeLessThanOrEqual(2000 + 10);
      const rest =
        /read_resource (\{"uri":"mcpkit-bridge:\/\/spill\/[^"]+","offset":\d+,"length":\d+\})/.exec(
          text,
        );
      expect(rest, text.slice(-500)).not.toBeNull();
      const args = JSON.parse(rest?.[1] as string) as {
        uri: string;
        offset: number;
        length: number;
      };
      const whole = Buffer.from(`Echo: ${message}`);
      expect(args.offset + args.length).toBe(whole.length);
      const got = await onlyText(host, 'read_resource', args);
      expect(Buffer.from(got, 'base64').equals(whole.subarray(args.offset))).toBe(true);
      expect(await onlyText(host, 'read_resource', { uri: args.uri })).toBe(whole.toString('utf8'));
    } finally {
      await host.close();
    }
  });
});

describe('gemini-cli: prompts carry text only', () => {
  it('a prompt embedding a PDF or an image, and one linking files, arrive as text messages', async () => {
    const profile = await explained('gemini-cli');
    expect(profile.prompts.nonText).toBe(false);
    const host = await bridged('gemini-cli');
    try {
      for (const args of [{ path: 'doc.pdf' }, { path: 'img.png' }, { path: 'a.md' }]) {
        const r = await host.request('prompts/get', { name: 'review-file', arguments: args });
        const blocks = (r['messages'] as Obj[]).map((m) => m['content'] as Obj);
        expectSurfaced(profile.prompts, blocks, `review-file ${args.path}`);
        const text = textOfBlocks(blocks);
        expect(text).toContain(`file:///${args.path}`);
        if (args.path === 'a.md') expect(text).toContain(files['a.md']?.toString('utf8'));
        else expect(text).toContain('read_resource');
      }
      const survey = await host.request('prompts/get', {
        name: 'survey',
        arguments: { query: 'text' },
      });
      const blocks = (survey['messages'] as Obj[]).map((m) => m['content'] as Obj);
      expectSurfaced(profile.prompts, blocks, 'survey');
      expect(textOfBlocks(blocks)).toContain('file:///a.md');
      // Tools keep images (gemini-cli shows them).
      const png = await call(host, 'read', { path: 'img.png', mode: 'embed' });
      expectSurfaced(profile.tools, blocksOf(png), 'png');
      expect(JSON.stringify(png)).toContain(files['img.png']?.toString('base64'));
    } finally {
      await host.close();
    }
  });
});

describe('every built-in host profile: nothing reaches the host that it would lose', () => {
  for (const name of ['claude-desktop', 'cursor', 'vscode', 'goose']) {
    it(name, async () => {
      const profile = await explained(name);
      const host = await bridged(name, { era: name === 'goose' ? 'legacy' : 'modern' });
      try {
        const names = (await host.listTools()).map((t) => t.name);
        expect(names.includes('read_resource')).toBe(!profile.readsResources);
        for (const args of [
          { path: 'a.md', mode: 'link' },
          { path: 'doc.pdf', mode: 'link' },
          { path: 'doc.pdf', mode: 'embed' },
          { path: 'img.png', mode: 'embed' },
          { path: 'data.json', mode: 'embed' },
        ]) {
          const r = await call(host, 'read', args);
          expectSurfaced(profile.tools, blocksOf(r), `${name} read ${JSON.stringify(args)}`);
          // Whatever the host drops is named, with the call that reads it.
          expect(JSON.stringify(r)).toContain(`file:///${args.path}`);
        }
        for (const [prompt, args] of [
          ['review-file', { path: 'doc.pdf' }],
          ['survey', { query: 'text' }],
        ] as const) {
          const r = await host.request('prompts/get', { name: prompt, arguments: args });
          const blocks = (r['messages'] as Obj[]).map((m) => m['content'] as Obj);
          expectSurfaced(profile.prompts, blocks, `${name} ${prompt}`);
        }
      } finally {
        await host.close();
      }
    });
  }
});
