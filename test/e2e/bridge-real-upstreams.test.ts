/**
 * `mcpkit bridge` (the built CLI) in front of upstreams nobody here wrote the protocol side of:
 * `@modelcontextprotocol/server-filesystem` (2025-11-25 only), a server written with the official
 * SDK v2 and one written with tmcp (both serving links to, and embeddings of, a Markdown text and
 * a PDF). mcpkit's client is the host, in both eras. With `passthrough` the host gets what a
 * direct client gets; with `generic-text-only` no resource_link and no non-image blob reaches
 * it, linked text within budget arrives as text, `read_resource` gives exact bytes and ranges,
 * and `--extract-pdf` gives the PDF's text.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/index.js';
import { runCli } from './host/audit-harness.js';
import { EXAMPLE_DIR, type Era } from './serve-harness.js';
import { bridgeArgv, stdioClient } from './bridge/harness.js';
import { expectSurfaced, textOfBlocks, type ExplainedProfile } from './bridge/profile-check.js';
import {
  INTRO,
  NOTES_MIME,
  NOTES_TEXT,
  NOTES_URI,
  REPORT_MIME,
  REPORT_PAGES,
  REPORT_PDF,
  REPORT_URI,
} from './bridge/real-content.js';

type Obj = Record<string, unknown>;
const FILESYSTEM = 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js';
const TSX = [process.execPath, '--import', 'tsx'];
const SDK_V2 = [...TSX, 'test/e2e/bridge/sdk-v2-upstream.ts'];
const TMCP = [...TSX, 'test/e2e/bridge/tmcp-upstream.ts'];
const DECISIONS = 'dev.mcpkit/decisions';
const ERAS: Era[] = ['legacy', 'modern'];

const connect = (argv: string[], era: Era): Promise<McpClient> => stdioClient(argv, { era });

const bridge = bridgeArgv;

const call = (c: McpClient, name: string, args: Obj = {}): Promise<Obj> =>
  c.request('tools/call', { name, arguments: args });
const blocksOf = (r: Obj): Obj[] => r['content'] as Obj[];
const decisionsOf = (r: Obj): Obj[] =>
  ((r['_meta'] as Obj | undefined)?.[DECISIONS] ?? []) as Obj[];

/** One text block holding the whole answer of the bridge's read_resource. */
async function readTool(c: McpClient, args: Obj): Promise<string> {
  const r = await call(c, 'read_resource', args);
  expect(r['isError'], JSON.stringify(r).slice(0, 300)).not.toBe(true);
  const blocks = blocksOf(r);
  expect(blocks).toHaveLength(1);
  return String(blocks[0]?.['text']);
}

/** A result without what only a 2026-07-28 answer carries, to compare across eras. */
function eraFree(r: Obj): Obj {
  const out = { ...r };
  for (const key of ['resultType', 'ttlMs', 'cacheScope']) delete out[key];
  const meta = { ...((out['_meta'] as Obj | undefined) ?? {}) };
  delete meta['io.modelcontextprotocol/serverInfo'];
  if (Object.keys(meta).length === 0) delete out['_meta'];
  else out['_meta'] = meta;
  return out;
}

let generic: ExplainedProfile;
beforeAll(async () => {
  const run = await runCli(['bridge', '--explain-profile', 'generic-text-only']);
  expect(run.code).toBe(0);
  generic = JSON.parse(run.stdout) as ExplainedProfile;
});

/** The fixture upstreams written with the SDK v2 and with tmcp serve the same content. */
const FIXTURES: Array<{ name: string; argv: string[]; sizedLinks: boolean }> = [
  { name: 'official SDK v2 server', argv: SDK_V2, sizedLinks: true },
  // tmcp drops a link's `size`: over stdio, --extract-pdf leaves such a PDF link unread.
  { name: 'tmcp server', argv: TMCP, sizedLinks: false },
];

for (const upstream of FIXTURES) {
  describe(`bridge in front of a ${upstream.name}`, () => {
    for (const era of ERAS) {
      it(`passthrough, ${era} host: lists, results and reads equal a direct client's`, async () => {
        const direct = await connect(upstream.argv, era);
        const bridged = await connect(bridge('passthrough', upstream.argv), era).catch(
          async (error: unknown) => {
            await direct.close();
            throw error;
          },
        );
        try {
          expect(bridged.era).toBe(era);
          const probes: Array<[string, Obj]> = [
            ['tools/list', {}],
            ['resources/list', {}],
            ['tools/call', { name: 'links', arguments: {} }],
            ['tools/call', { name: 'embedded', arguments: {} }],
            ['resources/read', { uri: NOTES_URI }],
            ['resources/read', { uri: REPORT_URI }],
          ];
          for (const [method, params] of probes) {
            const a = await direct.request(method, params);
            const b = await bridged.request(method, params);
            expect(eraFree(b), `${method} ${JSON.stringify(params)}`).toEqual(eraFree(a));
          }
          // The links and the PDF blob reached the host as the upstream sent them.
          const links = blocksOf(await call(bridged, 'links'));
          expect(links.filter((b) => b['type'] === 'resource_link')).toHaveLength(2);
          const embedded = blocksOf(await call(bridged, 'embedded'));
          expect(embedded[2]).toEqual({
            type: 'resource',
            resource: {
              uri: REPORT_URI,
              mimeType: REPORT_MIME,
              blob: REPORT_PDF.toString('base64'),
            },
          });
        } finally {
          await Promise.all([direct.close(), bridged.close()]);
        }
      });

      it(`generic-text-only, ${era} host: no link, no PDF blob; texts as text; read_resource exact`, async () => {
        const host = await connect(bridge('generic-text-only', upstream.argv), era);
        try {
          const names = (await host.listTools()).map((t) => t.name);
          expect(names).toEqual(['links', 'embedded', 'read_resource', 'list_resources']);
          for (const tool of ['links', 'embedded']) {
            const r = await call(host, tool);
            const blocks = blocksOf(r);
            expectSurfaced(generic.tools, blocks, `${upstream.name} ${tool}`);
            const text = textOfBlocks(blocks);
            expect(text).toContain(INTRO);
            expect(text).toContain(NOTES_TEXT);
            // The PDF is named with its type, its size and the call that reads it.
            for (const part of [REPORT_URI, REPORT_MIME, 'read_resource'])
              expect(text, tool).toContain(part);
            if (tool === 'embedded') expect(text).toContain(`${REPORT_PDF.length} bytes`);
            expect(text).not.toContain(REPORT_PDF.toString('base64').slice(0, 40));
            expect(decisionsOf(r).map((d) => d['uri'])).toContain(REPORT_URI);
          }
          const links = await call(host, 'links');
          expect(decisionsOf(links)).toContainEqual(
            expect.objectContaining({ uri: NOTES_URI, action: 'embedded', mimeType: NOTES_MIME }),
          );
          expect(await readTool(host, { uri: NOTES_URI })).toBe(NOTES_TEXT);
          const pdf = await readTool(host, { uri: REPORT_URI });
          expect(Buffer.from(pdf, 'base64').equals(REPORT_PDF)).toBe(true);
          const part = await readTool(host, { uri: REPORT_URI, offset: 9, length: 100 });
          expect(Buffer.from(part, 'base64').equals(REPORT_PDF.subarray(9, 109))).toBe(true);
          const notesPart = await readTool(host, { uri: NOTES_URI, offset: 2, length: 5 });
          expect(Buffer.from(notesPart, 'base64').toString('utf8')).toBe('Notes');
          const listed = await call(host, 'list_resources', { query: 'report' });
          expect(textOfBlocks(blocksOf(listed))).toContain(REPORT_URI);
          expect(textOfBlocks(blocksOf(listed))).not.toContain(NOTES_URI);
        } finally {
          await host.close();
        }
      });
    }

    it('generic-text-only --extract-pdf: the PDF, linked or embedded, arrives as its text', async () => {
      const host = await connect(
        bridge('generic-text-only', upstream.argv, ['--extract-pdf']),
        'modern',
      );
      try {
        for (const tool of ['links', 'embedded']) {
          const r = await call(host, tool);
          expectSurfaced(generic.tools, blocksOf(r), `${upstream.name} ${tool} --extract-pdf`);
          const text = textOfBlocks(blocksOf(r));
          expect(text).toContain(NOTES_TEXT);
          if (tool === 'links' && !upstream.sizedLinks) {
            expect(text).toContain(
              `${REPORT_URI} (${REPORT_MIME}): not read by the bridge (the PDF link declares no size`,
            );
            continue;
          }
          expect(text).toContain(
            `--- page 1 ---\n${REPORT_PAGES[0]}\n\n--- page 2 ---\n${REPORT_PAGES[1]}`,
          );
          expect(text).toContain(`${REPORT_URI} (${REPORT_MIME}, ${REPORT_PDF.length} bytes)`);
          expect(decisionsOf(r)).toContainEqual(
            expect.objectContaining({ uri: REPORT_URI, action: 'extracted' }),
          );
        }
        // The PDF itself stays readable, byte for byte.
        const pdf = await readTool(host, { uri: REPORT_URI });
        expect(Buffer.from(pdf, 'base64').equals(REPORT_PDF)).toBe(true);
      } finally {
        await host.close();
      }
    });
  });
}

describe('bridge in front of @modelcontextprotocol/server-filesystem', () => {
  let dir = '';
  const files: Record<string, Buffer> = {};
  const fs = (): string[] => [process.execPath, FILESYSTEM, dir];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpkit-bridge-fs-'));
    files['notes.md'] = Buffer.from(NOTES_TEXT);
    files['report.pdf'] = REPORT_PDF;
    files['img.png'] = await readFile(join(EXAMPLE_DIR, 'images', 'mcpkit.png'));
    for (const [name, bytes] of Object.entries(files)) await writeFile(join(dir, name), bytes);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const probes = (): Array<[string, Obj]> => [
    ['tools/list', {}],
    ['tools/call', { name: 'read_text_file', arguments: { path: join(dir, 'notes.md') } }],
    ['tools/call', { name: 'read_media_file', arguments: { path: join(dir, 'report.pdf') } }],
    ['tools/call', { name: 'read_media_file', arguments: { path: join(dir, 'img.png') } }],
    ['tools/call', { name: 'list_directory', arguments: { path: dir } }],
  ];

  for (const era of ERAS) {
    it(`passthrough, ${era} host: what a direct 2025-11-25 client gets`, async () => {
      const direct = await connect(fs(), 'legacy');
      const bridged = await connect(bridge('passthrough', fs()), era).catch(
        async (error: unknown) => {
          await direct.close();
          throw error;
        },
      );
      try {
        expect(bridged.era).toBe(era);
        for (const [method, params] of probes()) {
          const a = await direct.request(method, params);
          const b = await bridged.request(method, params);
          expect(eraFree(b), `${method} ${JSON.stringify(params)}`).toEqual(eraFree(a));
        }
      } finally {
        await Promise.all([direct.close(), bridged.close()]);
      }
    });

    it(`generic-text-only, ${era} host: the PDF named, the image kept, texts unchanged`, async () => {
      const host = await connect(bridge('generic-text-only', fs()), era);
      try {
        const names = (await host.listTools()).map((t) => t.name);
        expect(names).toEqual(expect.arrayContaining(['read_media_file', 'read_resource']));
        const text = await call(host, 'read_text_file', { path: join(dir, 'notes.md') });
        expect(blocksOf(text)).toEqual([{ type: 'text', text: NOTES_TEXT }]);
        // server-filesystem sends a PDF as an application/octet-stream blob: named, never passed.
        const pdf = await call(host, 'read_media_file', { path: join(dir, 'report.pdf') });
        expectSurfaced(generic.tools, blocksOf(pdf), 'read_media_file report.pdf');
        const line = textOfBlocks(blocksOf(pdf));
        for (const part of [
          `file://${join(dir, 'report.pdf')}`,
          'application/octet-stream',
          `${REPORT_PDF.length} bytes`,
          'read_resource',
        ])
          expect(line).toContain(part);
        const png = await call(host, 'read_media_file', { path: join(dir, 'img.png') });
        expectSurfaced(generic.tools, blocksOf(png), 'read_media_file img.png');
        expect(blocksOf(png)).toEqual([
          { type: 'image', data: files['img.png']?.toString('base64'), mimeType: 'image/png' },
        ]);
        // The upstream has no resources: read_resource says so as a tool error, and the host
        // connection goes on.
        const read = await call(host, 'read_resource', {
          uri: `file://${join(dir, 'report.pdf')}`,
        });
        expect(read['isError']).toBe(true);
        expect(textOfBlocks(blocksOf(read))).toMatch(/read_resource failed/);
        expect(blocksOf(await call(host, 'list_allowed_directories'))[0]?.['text']).toContain(dir);
      } finally {
        await host.close();
      }
    });
  }

  it('generic-text-only --extract-pdf: the PDF sent as application/octet-stream arrives as its text', async () => {
    const host = await connect(bridge('generic-text-only', fs(), ['--extract-pdf']), 'legacy');
    try {
      const r = await call(host, 'read_media_file', { path: join(dir, 'report.pdf') });
      expectSurfaced(generic.tools, blocksOf(r), 'read_media_file --extract-pdf');
      expect(textOfBlocks(blocksOf(r))).toContain(
        `--- page 1 ---\n${REPORT_PAGES[0]}\n\n--- page 2 ---\n${REPORT_PAGES[1]}`,
      );
      expect(decisionsOf(r)).toContainEqual(
        expect.objectContaining({ uri: `file://${join(dir, 'report.pdf')}`, action: 'extracted' }),
      );
    } finally {
      await host.close();
    }
  });
});
