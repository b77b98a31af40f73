/**
 * The MCP Inspector CLI (`@modelcontextprotocol/inspector`, on Node 22, both installed from the
 * npm registry once: bridge/inspector-cli.ts) as the host of `mcpkit bridge --profile
 * generic-text-only`, in both eras, in front of an official SDK v2 server and of
 * server-everything: what reaches it carries no resource_link and no non-image blob, linked
 * text arrives as text, and `read_resource` gives exact bytes and ranges. Without the registry
 * the suite is skipped with the reason, except under CI=true, where it fails.
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { runCli } from './host/audit-harness.js';
import { CLI, ROOT } from './serve-harness.js';
import { expectSurfaced, textOfBlocks, type ExplainedProfile } from './bridge/profile-check.js';
import {
  ensureInspector,
  IN_CI,
  inspectorCli,
  type Inspector,
  type InspectorRun,
} from './bridge/inspector-cli.js';
import {
  INTRO,
  NOTES_TEXT,
  NOTES_URI,
  REPORT_MIME,
  REPORT_PDF,
  REPORT_URI,
} from './bridge/real-content.js';

type Obj = Record<string, unknown>;
const SDK_V2 = [process.execPath, '--import', 'tsx', 'test/e2e/bridge/sdk-v2-upstream.ts'];
const EVERYTHING = [
  process.execPath,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
];
const bridged = (upstream: string[], extra: string[] = []): string[] => [
  process.execPath,
  CLI,
  'bridge',
  '--profile',
  'generic-text-only',
  ...extra,
  '--',
  ...upstream,
];

let inspector: Inspector | undefined;
let missing = '';
let generic: ExplainedProfile;

beforeAll(async () => {
  const got = await ensureInspector();
  if ('error' in got) {
    missing = got.error;
    if (!IN_CI) console.warn(`bridge-inspector: skipped: ${missing}`);
  } else {
    inspector = got;
    if (got.installMs > 0)
      console.warn(`bridge-inspector: the Inspector was installed in ${got.installMs} ms`);
  }
  const run = await runCli(['bridge', '--explain-profile', 'generic-text-only']);
  generic = JSON.parse(run.stdout) as ExplainedProfile;
}, 300_000);

/** The Inspector, or the test skipped (failed under CI) with the reason it is missing. */
function need(ctx: TestContext): Inspector {
  if (inspector) return inspector;
  if (IN_CI) throw new Error(`CI needs the MCP Inspector CLI: ${missing}`);
  ctx.skip(`no MCP Inspector: ${missing}`);
  throw new Error('unreachable');
}

/** The `result` of a successful run. */
function resultOf(run: InspectorRun): Obj {
  expect(
    run.json,
    `stdout: ${run.stdout.slice(0, 500)}\nstderr: ${run.stderr.slice(-1500)}`,
  ).toHaveProperty('result');
  return (run.json as Obj)['result'] as Obj;
}

const blocksOf = (r: Obj): Obj[] => r['content'] as Obj[];

for (const era of ['legacy', 'modern'] as const) {
  describe(`the Inspector CLI as the host (${era}), generic-text-only`, () => {
    // The test's signal: a test that times out takes its Inspector (and the bridge) down with it.
    const cli = (ins: Inspector, options: string[], target: string[], signal: AbortSignal) =>
      inspectorCli(ins, ['--protocol-era', era, ...options], target, ROOT, signal);

    it('in front of an SDK v2 server: tools listed, links read as text, the PDF named', async (ctx) => {
      const ins = need(ctx);
      const list = resultOf(
        await cli(ins, ['--method', 'tools/list'], bridged(SDK_V2), ctx.signal),
      );
      expect((list['tools'] as Obj[]).map((t) => t['name'])).toEqual([
        'links',
        'embedded',
        'read_resource',
        'list_resources',
      ]);
      for (const tool of ['links', 'embedded']) {
        const r = resultOf(
          await cli(
            ins,
            ['--method', 'tools/call', '--tool-name', tool],
            bridged(SDK_V2),
            ctx.signal,
          ),
        );
        expectSurfaced(generic.tools, blocksOf(r), `inspector ${era} ${tool}`);
        // A 2026-07-28 answer names the server in each result; a 2025-11-25 one does not.
        const meta = r['_meta'] as Obj;
        expect('io.modelcontextprotocol/serverInfo' in meta).toBe(era === 'modern');
        const text = textOfBlocks(blocksOf(r));
        expect(text).toContain(INTRO);
        expect(text).toContain(NOTES_TEXT);
        for (const part of [REPORT_URI, REPORT_MIME, 'read_resource']) expect(text).toContain(part);
        expect(JSON.stringify(r)).not.toContain(REPORT_PDF.toString('base64').slice(0, 40));
      }
    }, 120_000);

    it('read_resource gives the exact text, the exact PDF bytes and a byte range', async (ctx) => {
      const ins = need(ctx);
      const read = async (args: Obj): Promise<string> => {
        const r = resultOf(
          await cli(
            ins,
            [
              '--method',
              'tools/call',
              '--tool-name',
              'read_resource',
              '--tool-args-json',
              JSON.stringify(args),
            ],
            bridged(SDK_V2),
            ctx.signal,
          ),
        );
        expect(r['isError']).not.toBe(true);
        expect(blocksOf(r)).toHaveLength(1);
        return String(blocksOf(r)[0]?.['text']);
      };
      expect(await read({ uri: NOTES_URI })).toBe(NOTES_TEXT);
      expect(Buffer.from(await read({ uri: REPORT_URI }), 'base64').equals(REPORT_PDF)).toBe(true);
      const part = await read({ uri: REPORT_URI, offset: 9, length: 100 });
      expect(Buffer.from(part, 'base64').equals(REPORT_PDF.subarray(9, 109))).toBe(true);
    }, 120_000);

    it('--extract-pdf: the linked PDF arrives as the text of its pages', async (ctx) => {
      const ins = need(ctx);
      const r = resultOf(
        await cli(
          ins,
          ['--method', 'tools/call', '--tool-name', 'links'],
          bridged(SDK_V2, ['--extract-pdf']),
          ctx.signal,
        ),
      );
      expectSurfaced(generic.tools, blocksOf(r), `inspector ${era} --extract-pdf`);
      expect(textOfBlocks(blocksOf(r))).toContain('--- page 2 ---\nRevenue grew by four percent');
    }, 120_000);

    it('in front of server-everything: its resource links become text, none reaches the host', async (ctx) => {
      const ins = need(ctx);
      const r = resultOf(
        await cli(
          ins,
          ['--method', 'tools/call', '--tool-name', 'get-resource-links', '--tool-arg', 'count=3'],
          bridged(EVERYTHING),
          ctx.signal,
        ),
      );
      const blocks = blocksOf(r);
      expectSurfaced(generic.tools, blocks, `inspector ${era} get-resource-links`);
      expect(blocks.some((b) => b['type'] === 'resource_link')).toBe(false);
      expect(textOfBlocks(blocks)).toMatch(/Resource 1: This is a base64 blob/);
      const blob = resultOf(
        await cli(
          ins,
          [
            '--method',
            'tools/call',
            '--tool-name',
            'get-resource-reference',
            '--tool-args-json',
            JSON.stringify({ resourceType: 'Blob', resourceId: 2 }),
          ],
          bridged(EVERYTHING),
          ctx.signal,
        ),
      );
      expectSurfaced(generic.tools, blocksOf(blob), `inspector ${era} get-resource-reference`);
    }, 120_000);
  });
}
