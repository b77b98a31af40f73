/**
 * The official SDK v2 client (`@modelcontextprotocol/client`) as the host of `mcpkit bridge
 * --profile generic-text-only` (the built CLI), in both its eras, in front of third-party
 * upstreams (an SDK v2 server, a tmcp server, server-everything): the SDK accepts every result
 * (its schemas), and what reaches it carries no resource_link and no non-image blob, linked text
 * arrives as text, and `read_resource` gives exact bytes.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './host/audit-harness.js';
import { CLI, MODERN, ROOT } from './serve-harness.js';
import { expectSurfaced, textOfBlocks, type ExplainedProfile } from './bridge/profile-check.js';
import {
  INTRO,
  NOTES_TEXT,
  NOTES_URI,
  REPORT_MIME,
  REPORT_PAGES,
  REPORT_PDF,
  REPORT_URI,
} from './bridge/real-content.js';

type Obj = Record<string, unknown>;
const TSX = [process.execPath, '--import', 'tsx'];
const FIXTURES: Array<{ name: string; argv: string[] }> = [
  { name: 'an SDK v2 server', argv: [...TSX, 'test/e2e/bridge/sdk-v2-upstream.ts'] },
  { name: 'a tmcp server', argv: [...TSX, 'test/e2e/bridge/tmcp-upstream.ts'] },
];
const EVERYTHING = [
  process.execPath,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
];

let generic: ExplainedProfile;
beforeAll(async () => {
  const run = await runCli(['bridge', '--explain-profile', 'generic-text-only']);
  generic = JSON.parse(run.stdout) as ExplainedProfile;
});

async function sdkHost(
  era: 'legacy' | 'modern',
  upstream: string[],
  extra: string[] = [],
): Promise<Client> {
  const client = new Client(
    { name: 'sdk-host', version: '0.0.1' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'bridge', '--profile', 'generic-text-only', ...extra, '--', ...upstream],
      cwd: ROOT,
      stderr: 'pipe',
    }),
  );
  if (client.getProtocolEra() !== era) {
    await client.close();
    expect.fail(`the bridge spoke ${String(client.getProtocolEra())} to a ${era} host`);
  }
  return client;
}

const blocksOf = (r: unknown): Obj[] => (r as { content: Obj[] }).content;

for (const era of ['legacy', 'modern'] as const) {
  describe(`the SDK v2 client as the host (${era}), generic-text-only`, () => {
    for (const upstream of FIXTURES) {
      it(`in front of ${upstream.name}`, async () => {
        const sdk = await sdkHost(era, upstream.argv);
        try {
          const names = (await sdk.listTools()).tools.map((t) => t.name);
          expect(names).toEqual(['links', 'embedded', 'read_resource', 'list_resources']);
          for (const tool of ['links', 'embedded']) {
            const r = await sdk.callTool({ name: tool, arguments: {} });
            expectSurfaced(generic.tools, blocksOf(r), `sdk ${era} ${upstream.name} ${tool}`);
            const text = textOfBlocks(blocksOf(r));
            expect(text).toContain(INTRO);
            expect(text).toContain(NOTES_TEXT);
            for (const part of [REPORT_URI, REPORT_MIME, 'read_resource'])
              expect(text).toContain(part);
          }
          const read = async (args: Obj): Promise<string> => {
            const r = await sdk.callTool({ name: 'read_resource', arguments: args });
            expect(r.isError).not.toBe(true);
            expect(blocksOf(r)).toHaveLength(1);
            return String(blocksOf(r)[0]?.['text']);
          };
          expect(await read({ uri: NOTES_URI })).toBe(NOTES_TEXT);
          expect(Buffer.from(await read({ uri: REPORT_URI }), 'base64').equals(REPORT_PDF)).toBe(
            true,
          );
          const part = await read({ uri: REPORT_URI, offset: 100, length: 64 });
          expect(Buffer.from(part, 'base64').equals(REPORT_PDF.subarray(100, 164))).toBe(true);
          // resources/read is the upstream's own, unchanged: the host that reads gets the blob.
          const direct = await sdk.readResource({ uri: REPORT_URI });
          expect(direct.contents).toEqual([
            { uri: REPORT_URI, mimeType: REPORT_MIME, blob: REPORT_PDF.toString('base64') },
          ]);
        } finally {
          await sdk.close();
        }
      });
    }

    it('in front of an SDK v2 server with --extract-pdf: the PDF as text', async () => {
      const sdk = await sdkHost(era, FIXTURES[0]?.argv as string[], ['--extract-pdf']);
      try {
        const r = await sdk.callTool({ name: 'embedded', arguments: {} });
        expectSurfaced(generic.tools, blocksOf(r), `sdk ${era} --extract-pdf`);
        for (const page of REPORT_PAGES) expect(textOfBlocks(blocksOf(r))).toContain(page);
      } finally {
        await sdk.close();
      }
    });

    it('in front of server-everything: links read as text, blobs named', async () => {
      const sdk = await sdkHost(era, EVERYTHING);
      try {
        const links = await sdk.callTool({ name: 'get-resource-links', arguments: { count: 4 } });
        expectSurfaced(generic.tools, blocksOf(links), `sdk ${era} get-resource-links`);
        expect(textOfBlocks(blocksOf(links))).toMatch(/Resource 2: This is a plaintext resource/);
        const blob = await sdk.callTool({
          name: 'get-resource-reference',
          arguments: { resourceType: 'Blob', resourceId: 2 },
        });
        expectSurfaced(generic.tools, blocksOf(blob), `sdk ${era} get-resource-reference`);
        const image = await sdk.callTool({ name: 'get-tiny-image', arguments: {} });
        expectSurfaced(generic.tools, blocksOf(image), `sdk ${era} get-tiny-image`);
        expect(blocksOf(image).some((b) => b['type'] === 'image')).toBe(true);
      } finally {
        await sdk.close();
      }
    });
  });
}
