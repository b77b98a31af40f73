/**
 * `mcpkit serve` end to end through the OFFICIAL SDK v2 client (@modelcontextprotocol/client):
 * real server processes (`node dist/cli/main.js serve`), spawned by StdioClientTransport over
 * stdio and by this test with `--http 127.0.0.1:0` (URL from the first stdout line), in the
 * 2026-07-28 era (pinned) and the 2025-11-25 era (initialize).
 *
 * Servers shared by the suites (started once in beforeAll):
 * - the fixture folder (serve-harness.ts `makeFixture`) with `--block-budget 6000`: stdio modern,
 *   stdio legacy (one process each), HTTP modern + legacy (one process, two clients);
 * - the bundled example folder: stdio with no DIR (modern, legacy), HTTP `examples/docs`
 *   (modern + legacy).
 * A few suites start their own server for other flags (`--result-budget`, `--block-budget` on the
 * example, `--max-line-bytes`, `--max-body-bytes`) and stop it at once.
 *
 * Traversal: every URI of the corpus is sent by the SDK client itself (`readResource`), and the
 * recorded wire shows it went out verbatim. The SDK 2.4.0 client sends every form of the corpus,
 * backslashes, NUL and newlines included (it does not validate resource URIs), so none needs the
 * raw route; a form it rejected locally would be re-sent as a raw HTTP POST to the fixture's
 * HTTP server and reported. Forms no JSON string can express (invalid UTF-8 bytes in the body) are
 * sent as raw HTTP POSTs on purpose. The summary of routes is printed once.
 *
 * Skipped (with a warning) only when dist/ is missing: run `npm run build` first.
 */
import { readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProtocolError } from '@modelcontextprotocol/client';
import { formatBytes } from '../../src/providers/filesystem/format.js';
import {
  ENVELOPE_RESERVE,
  EXAMPLE_DIR,
  GIANT_BYTES,
  HUGE_BYTES,
  HttpServe,
  KiB,
  MiB,
  SIX_BYTES,
  connectHttp,
  connectStdio,
  jsonBytes,
  liveServeChildren,
  makeFixture,
  protocolError,
  rawModernRead,
  reap,
  type Era,
  type Fixture,
  type Session,
  type TransportKind,
} from './serve-harness.js';

const BLOCK_BUDGET = 6000;
const RESULT_BUDGET = 9000;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
/**
 * The cap for one result under an outbound cap: stdio keeps a byte for the newline and one pipe
 * read (64 KiB) for the start of the next line in the client's buffer.
 */
function capOf(kind: TransportKind, maxResponseBytes: number): number {
  return maxResponseBytes - (kind === 'stdio' ? 1 + 64 * KiB : 0) - ENVELOPE_RESERVE;
}
/** The result cap each transport gives by default: stdio 10 MiB lines, HTTP 32 MiB responses. */
const DEFAULT_CAP: Record<TransportKind, number> = {
  stdio: capOf('stdio', 10 * MiB),
  http: capOf('http', 32 * MiB),
};

const test = it;

// ---------------------------------------------------------------------------------------------
// Shapes (the SDK's result types are unions; these are the parts the tests look at)

interface Link {
  type: 'resource_link';
  uri: string;
  name: string;
  mimeType?: string;
  size?: number;
  description?: string;
  annotations?: { lastModified?: string };
}
interface Embedded {
  type: 'resource';
  resource: { uri: string; mimeType?: string; text?: string; blob?: string };
}
interface TextBlock {
  type: 'text';
  text: string;
}
type Block = Link | Embedded | TextBlock | { type: string };
interface ToolResult {
  content: Block[];
  isError?: boolean;
}
interface Contents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  _meta?: Record<string, unknown>;
}
interface TooLargeData {
  uri: string;
  size: number;
  wireBytes: number;
  capBytes: number;
  reason: string;
  partsTemplate: string;
  firstPart: string;
}

const isLink = (b: unknown): b is Link => (b as Block | undefined)?.type === 'resource_link';
const isEmbedded = (b: unknown): b is Embedded => (b as Block | undefined)?.type === 'resource';
const isText = (b: unknown): b is TextBlock => (b as Block | undefined)?.type === 'text';

function textOf(b: unknown): string {
  if (!isText(b)) throw new Error(`expected a text block, got ${JSON.stringify(b).slice(0, 200)}`);
  return b.text;
}
function embeddedOf(b: unknown): Embedded['resource'] {
  if (!isEmbedded(b)) throw new Error(`expected an embedded resource, got ${preview(b)}`);
  return b.resource;
}
function linkOf(b: unknown): Link {
  if (!isLink(b)) throw new Error(`expected a resource_link, got ${preview(b)}`);
  return b;
}
function preview(b: unknown): string {
  return JSON.stringify(b, (_k, v: unknown) =>
    typeof v === 'string' && v.length > 120 ? `${v.slice(0, 120)}…` : v,
  );
}
/** Raw size of read contents: UTF-8 bytes of the text, or decoded bytes of the blob. */
function rawSize(c: { text?: string; blob?: string }): number {
  return c.text !== undefined
    ? Buffer.byteLength(c.text, 'utf8')
    : Buffer.from(c.blob ?? '', 'base64').length;
}

async function callTool(s: Session, name: string, args: Record<string, unknown>) {
  return (await s.client.callTool({ name, arguments: args })) as unknown as ToolResult;
}
const readTool = (s: Session, path: string, mode?: 'auto' | 'embed' | 'link') =>
  callTool(s, 'read', mode === undefined ? { path } : { path, mode });
async function readUri(s: Session, uri: string): Promise<Contents> {
  const result = await s.client.readResource({ uri });
  expect(result.contents, uri).toHaveLength(1);
  return result.contents[0] as Contents;
}
async function prompt(s: Session, name: string, args: Record<string, string>) {
  const result = await s.client.getPrompt({ name, arguments: args });
  return result.messages as Array<{ role: string; content: Block }>;
}

/** Asserts the clear too-large refusal of `uri` (and that it came from the size, not a crash). */
function expectTooLarge(error: ProtocolError, uri: string, size: number, cap: number): void {
  expect(error.code, error.message).toBe(INTERNAL_ERROR);
  const data = error.data as TooLargeData;
  expect(data).toMatchObject({
    uri,
    size,
    reason: 'too-large',
    partsTemplate: 'file:///{+path}{?offset,length,version}',
    firstPart: `${uri}?offset=0&length=1048576`,
  });
  // The limit the body was held to: the result cap less the contents' own envelope.
  expect(data.capBytes).toBeLessThanOrEqual(cap);
  expect(data.capBytes).toBeGreaterThan(cap - 1024);
  expect(data.wireBytes).toBeGreaterThan(data.capBytes);
  expect(error.message).toContain(`${uri} is too large to return over this connection`);
  expect(error.message).toContain(`(${size} bytes)`);
  expect(error.message).toContain(`over the ${formatBytes(data.capBytes)} cap for one result`);
  expect(error.message).toContain(`starting with ${uri}?offset=0&length=1048576`);
}

// ---------------------------------------------------------------------------------------------
// Shared servers and sessions

let fx: Fixture;
let fxHttp: HttpServe | undefined;
let exHttp: HttpServe | undefined;
/** Every session this file opened (shared and per-suite), for the leak check and cleanup. */
const allSessions: Session[] = [];
/** Every HTTP server process this file started. */
const allServers: HttpServe[] = [];
/** Raw HTTP answers, for the leak check. */
const rawAnswers: string[] = [];
const sessions = new Map<string, Session>();
/** How each traversal form reached the server. */
const routes = new Map<string, 'sdk' | 'raw-http'>();

interface Spec {
  label: string;
  kind: TransportKind;
  era: Era;
}
const FIXTURE: Spec[] = [
  { label: 'fixture, stdio, modern', kind: 'stdio', era: 'modern' },
  { label: 'fixture, stdio, legacy', kind: 'stdio', era: 'legacy' },
  { label: 'fixture, http, modern', kind: 'http', era: 'modern' },
  { label: 'fixture, http, legacy', kind: 'http', era: 'legacy' },
];
const EXAMPLE: Spec[] = [
  { label: 'example, stdio, modern', kind: 'stdio', era: 'modern' },
  { label: 'example, stdio, legacy', kind: 'stdio', era: 'legacy' },
  { label: 'example, http, modern', kind: 'http', era: 'modern' },
  { label: 'example, http, legacy', kind: 'http', era: 'legacy' },
];

function session(label: string): Session {
  const s = sessions.get(label);
  if (!s) throw new Error(`no session ${label} (did beforeAll fail?)`);
  return s;
}

async function startHttp(args: string[]): Promise<HttpServe> {
  const served = await HttpServe.start(args);
  allServers.push(served);
  return served;
}
async function openStdio(label: string, era: Era, args: string[]): Promise<Session> {
  const s = await connectStdio(label, era, args);
  allSessions.push(s);
  return s;
}
async function openHttp(label: string, era: Era, url: string): Promise<Session> {
  const s = await connectHttp(label, era, url);
  allSessions.push(s);
  return s;
}

beforeAll(async () => {
  fx = await makeFixture(BLOCK_BUDGET, RESULT_BUDGET);
  const fxArgs = [fx.dir, '--block-budget', String(BLOCK_BUDGET)];
  [fxHttp, exHttp] = await Promise.all([startHttp(fxArgs), startHttp([EXAMPLE_DIR])]);
  const urls = { fixture: fxHttp.url, example: exHttp.url };
  const opened = await Promise.all(
    [...FIXTURE, ...EXAMPLE].map((spec) => {
      const fixture = spec.label.startsWith('fixture');
      if (spec.kind === 'http')
        return openHttp(spec.label, spec.era, fixture ? urls.fixture : urls.example);
      // The example over stdio is served with no DIR: the bundled examples/docs.
      return openStdio(spec.label, spec.era, fixture ? fxArgs : []);
    }),
  );
  for (const s of opened) sessions.set(s.label, s);
}, 60_000);

afterAll(async () => {
  // Clean up first, unconditionally; assert afterwards.
  const failures: unknown[] = [];
  const pids = allSessions.map((s) => s.pid).filter((p): p is number => p !== undefined);
  await Promise.all(allSessions.map((s) => s.close().catch((e: unknown) => failures.push(e))));
  const ends = await Promise.all(allServers.map((s) => s.stop()));
  pids.push(...allServers.map((s) => s.child.pid).filter((p): p is number => p !== undefined));
  const stragglers = await reap(pids);
  // Anything else this process started on the CLI (e.g. the SDK's version-probe siblings).
  const orphans = await reap(await liveServeChildren());
  if (fx) await rm(fx.base, { recursive: true, force: true });
  if (routes.size > 0) {
    const raw = [...routes].filter(([, r]) => r === 'raw-http').map(([u]) => u);
    console.info(
      `traversal corpus: ${routes.size - raw.length} forms sent by the SDK client, ` +
        `${raw.length} as raw HTTP POSTs${raw.length ? `: ${raw.join(', ')}` : ''}`,
    );
  }
  expect(failures, 'errors while closing clients').toEqual([]);
  expect(stragglers, 'server processes still alive after close').toEqual([]);
  expect(orphans, 'other serve processes left behind').toEqual([]);
  for (const end of ends)
    expect(end, 'serve --http exits 0 on SIGTERM').toEqual({ code: 0, signal: null });
  for (const s of allSessions)
    expect(s.errors, `${s.label}: out-of-band client errors`).toEqual([]);
}, 30_000);

// ---------------------------------------------------------------------------------------------
// 1. Every link resolves

const EXAMPLE_QUERIES = ['budget', 'stdio', 'resources/read', 'duration_ms', 'png', 'notes'];
const FIXTURE_QUERIES = ['inside', 'Budget probe', 'huge', 'giant', 'six', 'png', 'bin'];

describe.each([...FIXTURE, ...EXAMPLE])('every link resolves ($label)', ({ label, kind }) => {
  test('links from search, read (auto, link) and survey all resolve with resources/read', async () => {
    const s = session(label);
    const example = label.startsWith('example');
    const links = new Map<string, Link>();
    const embedded: Embedded['resource'][] = [];
    const collect = (blocks: Block[]): void => {
      for (const b of blocks) {
        if (isEmbedded(b)) embedded.push(b.resource);
        if (!isLink(b)) continue;
        const seen = links.get(b.uri);
        // The same file is described the same way by every tool and prompt.
        if (seen)
          expect({ mimeType: b.mimeType, size: b.size }, b.uri).toEqual({
            mimeType: seen.mimeType,
            size: seen.size,
          });
        else links.set(b.uri, b);
      }
    };
    const queries = example ? EXAMPLE_QUERIES : FIXTURE_QUERIES;
    for (const query of queries) {
      const found = await callTool(s, 'search', { query, limit: 100 });
      expect(found.isError, query).toBeFalsy();
      expect(found.content.filter(isLink).length, `search ${query}`).toBeGreaterThan(0);
      collect(found.content);
      const survey = await prompt(s, 'survey', { query });
      collect(survey.map((m) => m.content));
    }
    const { resources } = await s.client.listResources();
    expect(resources.length).toBe(example ? 9 : 16);
    for (const r of resources) {
      for (const mode of ['auto', 'link'] as const) {
        const res = await readTool(s, r.name, mode);
        expect(res.isError, `${r.name} ${mode}`).toBeFalsy();
        collect(res.content);
      }
    }
    expect(links.size).toBe(resources.length); // every file was linked at least once (mode link)

    const cap = DEFAULT_CAP[kind];
    const tooLarge: string[] = [];
    for (const link of links.values()) {
      expect(link.uri).toMatch(/^file:\/\/\//);
      let contents: Contents;
      try {
        contents = await readUri(s, link.uri);
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error; // a transport failure: never fine
        expectTooLarge(error, link.uri, link.size ?? -1, cap);
        tooLarge.push(link.name);
        // The connection is still usable.
        expect(
          (await readUri(s, example ? 'file:///README.md' : 'file:///a/inside.txt')).uri,
        ).toBeTruthy();
        continue;
      }
      expect(contents.uri).toBe(link.uri);
      expect(contents.mimeType, link.uri).toBe(link.mimeType);
      expect(rawSize(contents), link.uri).toBe(link.size);
    }
    // Files too large to read whole are linked at their first part, which reads: nothing fails.
    expect(tooLarge).toEqual([]);
    const parts = [...links.values()].filter((l) => l.uri.includes('?')).map((l) => l.name);
    expect([...new Set(parts)].sort()).toEqual(example ? [] : ['giant.bin', 'huge.bin']);
    // Embedded copies carry the URI of a resource that reads back the same.
    expect(embedded.length).toBeGreaterThan(0);
    for (const e of embedded) {
      const contents = await readUri(s, e.uri);
      expect({ mimeType: contents.mimeType, text: contents.text, blob: contents.blob }).toEqual({
        mimeType: e.mimeType,
        text: e.text,
        blob: e.blob,
      });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Embed vs link flips exactly at the budgets

describe.each(FIXTURE)('block budget, --block-budget 6000 ($label)', ({ label }) => {
  test('text: embedded at exactly the budget, linked one byte over', async () => {
    const s = session(label);
    const at = await readTool(s, fx.text.at, 'auto');
    expect(at.isError).toBeFalsy();
    expect(textOf(at.content[0])).toMatch(
      /^text-at\.md \(text\/markdown, 5\.\d KiB\), embedded below\.$/,
    );
    expect(at.content).toHaveLength(2);
    expect(jsonBytes(at.content[1])).toBe(BLOCK_BUDGET);
    expect(embeddedOf(at.content[1])).toEqual({
      uri: `file:///${fx.text.at}`,
      mimeType: 'text/markdown',
      text: fx.text.atContent,
    });

    const over = await readTool(s, fx.text.over, 'auto');
    expect(textOf(over.content[0])).toMatch(/ is linked, not embedded: .* 5\.9 KiB per block/);
    expect(linkOf(over.content[1])).toMatchObject({
      uri: `file:///${fx.text.over}`,
      mimeType: 'text/markdown',
      size: Buffer.byteLength(fx.text.overContent),
    });
    // Insisting embeds it, and shows it is one byte over.
    const insisted = await readTool(s, fx.text.over, 'embed');
    expect(jsonBytes(insisted.content[1])).toBe(BLOCK_BUDGET + 1);
    // And a link is a link, whatever the size.
    expect(linkOf((await readTool(s, fx.text.at, 'link')).content[1]).uri).toBe(
      `file:///${fx.text.at}`,
    );
  });

  test('blob: embedded when its base64 block lands exactly on the budget, linked one byte over', async () => {
    const s = session(label);
    const at = await readTool(s, fx.blob.at, 'auto');
    expect(jsonBytes(at.content[1])).toBe(BLOCK_BUDGET);
    const resource = embeddedOf(at.content[1]);
    expect(resource.mimeType).toBe('image/png');
    expect(Buffer.from(resource.blob ?? '', 'base64').equals(fx.blob.bytes)).toBe(true);

    const over = await readTool(s, fx.blob.over, 'auto');
    expect(linkOf(over.content[1])).toMatchObject({
      uri: `file:///${fx.blob.over}`,
      mimeType: 'image/png',
      size: fx.blob.bytes.length,
    });
    const insisted = await readTool(s, fx.blob.over, 'embed');
    expect(jsonBytes(insisted.content[1])).toBe(BLOCK_BUDGET + 1);
  });
});

describe('result budget, --result-budget 9000', () => {
  const specs: Spec[] = [
    { label: 'result budget, stdio, modern', kind: 'stdio', era: 'modern' },
    { label: 'result budget, http, modern', kind: 'http', era: 'modern' },
    { label: 'result budget, http, legacy', kind: 'http', era: 'legacy' },
  ];
  const opened = new Map<string, Session>();
  beforeAll(async () => {
    const args = [fx.dir, '--result-budget', String(RESULT_BUDGET), '--quiet'];
    const http = await startHttp(args);
    for (const spec of specs) {
      opened.set(
        spec.label,
        spec.kind === 'stdio'
          ? await openStdio(spec.label, spec.era, args)
          : await openHttp(spec.label, spec.era, http.url),
      );
    }
  }, 30_000);

  test.each(specs)(
    '$label: the read tool embeds while its content takes at most the budget, links beyond',
    async ({ label }) => {
      const s = opened.get(label) as Session;
      // The tool fits its one-line summary with the file, in the same call: the budget covers
      // the whole content, that line included.
      const at = await readTool(s, fx.result.at, 'auto');
      expect(embeddedOf(at.content[1]).text).toBe(fx.result.atContent);
      expect(jsonBytes(at.content)).toBe(RESULT_BUDGET);

      const over = await readTool(s, fx.result.over, 'auto');
      expect(linkOf(over.content[1]).uri).toBe(`file:///${fx.result.over}`);
      expect(textOf(over.content[0])).toContain('8.8 KiB per result');
      const insisted = await readTool(s, fx.result.over, 'embed');
      expect(jsonBytes(insisted.content)).toBe(RESULT_BUDGET + 1);
    },
  );
});

describe('the example CSV flips with --block-budget', () => {
  let raised: HttpServe;
  let lowered: HttpServe;
  beforeAll(async () => {
    [raised, lowered] = await Promise.all([
      startHttp([EXAMPLE_DIR, '--block-budget', '2m', '--quiet']),
      startHttp([EXAMPLE_DIR, '--block-budget', '1k', '--quiet']),
    ]);
  }, 30_000);

  test.each(['modern', 'legacy'] as const)(
    'era %s: default links the 1.2 MB CSV, 2m embeds it, 1k links even a 1.2 KiB note',
    async (era) => {
      const csv = await readFile(join(EXAMPLE_DIR, 'data', 'requests.csv'), 'utf8');
      const note = await readFile(join(EXAMPLE_DIR, 'notes', 'security.md'), 'utf8');
      const byDefault = session(`example, http, ${era}`);
      expect(linkOf((await readTool(byDefault, 'data/requests.csv')).content[1]).size).toBe(
        Buffer.byteLength(csv),
      );
      expect(embeddedOf((await readTool(byDefault, 'notes/security.md')).content[1]).text).toBe(
        note,
      );

      const big = await openHttp(`example 2m ${era}`, era, raised.url);
      const small = await openHttp(`example 1k ${era}`, era, lowered.url);
      const embedded = await readTool(big, 'data/requests.csv');
      expect(textOf(embedded.content[0])).toBe(
        'data/requests.csv (text/csv, 1.2 MiB), embedded below.',
      );
      expect(embeddedOf(embedded.content[1])).toEqual({
        uri: 'file:///data/requests.csv',
        mimeType: 'text/csv',
        text: csv,
      });
      const linked = await readTool(small, 'notes/security.md');
      expect(textOf(linked.content[0])).toMatch(/is linked, not embedded: .*1\.0 KiB per block/);
      expect(linkOf(linked.content[1]).size).toBe(Buffer.byteLength(note));
      expect(linkOf((await readTool(small, 'data/requests.csv')).content[1]).uri).toBe(
        'file:///data/requests.csv',
      );
      await Promise.all([big.close(), small.close()]);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// 3. Traversal: -32602 and not a byte

/** resources/read URIs, each of which must be refused with -32602. */
const URI_CORPUS: string[] = [
  'file:///../secret.txt',
  'file:///..%2Fsecret.txt',
  'file:///..%2fsecret.txt',
  'file:///%2e%2e/secret.txt',
  'file:///%2E%2E/secret.txt',
  'file:///%2E%2E%2Fsecret.txt',
  'file:///.%2e/secret.txt',
  'file:///%2e./secret.txt',
  'file:///a/../../secret.txt',
  'file:///a/%2e%2e/%2e%2e/secret.txt',
  'file:///notes/../../secret.txt',
  'file:///notes/inside.md/../../../secret.txt',
  'file:///../served-evil/secret.txt',
  'file:///../../../../../../etc/passwd',
  'file:///..%2F..%2F..%2F..%2Fetc%2Fpasswd',
  'file:///%252e%252e/secret.txt',
  'file:///%252e%252e%252fsecret.txt',
  'file:///..%252fsecret.txt',
  'file:///%25252e%25252e/secret.txt',
  'file:///..%5Csecret.txt',
  'file:///%5C..%5Csecret.txt',
  'file:///..\\secret.txt',
  'file:///a\\..\\..\\secret.txt',
  'file:////etc/passwd',
  'file:////%2e%2e/secret.txt',
  'file:///%2Fetc%2Fpasswd',
  'file:///C:%5Cwindows%5Cwin.ini',
  'file:///C:/windows/win.ini',
  'file:///c:%2fwindows%2fwin.ini',
  'file:///secret.txt%00.md',
  'file:///notes/inside.md%00.txt',
  'file:///%00../secret.txt',
  'file:///..%00/secret.txt',
  'file:///..;/secret.txt',
  'file:///..%20/secret.txt',
  'file:///.../secret.txt',
  'file:///%c0%ae%c0%ae/secret.txt',
  'file:///%e0%80%ae%e0%80%ae/secret.txt',
  'file:///link-out/secret.txt',
  'file:///link-out/served-evil/secret.txt',
  'file:///link-secret',
  'file:///link-rel.txt',
  'file:///link-etc/passwd',
  'file:///link-etc/hostname',
  'file:///link-prefix/secret.txt',
  'file:///link-out/../secret.txt',
  'file:///.env',
  'file:///node_modules/leak.txt',
  'file:///notes/.%2e/.%2e/secret.txt',
  'file:///\u0000',
  'file:///\n../secret.txt',
  'file:///%',
  'file:///%zz/../secret.txt',
  'file://localhost/etc/passwd',
  'file:/etc/passwd',
  'file:///notes/inside.md#/../../secret.txt',
  'file:///notes/inside.md?x=../../secret.txt',
];

/** The `path` argument of the read tool and the review-file prompt: each must be refused. */
const PATH_CORPUS: string[] = [
  '../secret.txt',
  '..',
  './../secret.txt',
  'a/../../secret.txt',
  'notes/../../secret.txt',
  '../served-evil/secret.txt',
  '../../../../../../etc/passwd',
  '/etc/passwd',
  '//etc/passwd',
  'C:\\windows\\win.ini',
  'C:/windows/win.ini',
  '..\\secret.txt',
  'secret.txt\u0000.md',
  'notes/inside.md\u0000',
  '%2e%2e/secret.txt',
  '..%2Fsecret.txt',
  '%252e%252e/secret.txt',
  '.%2e/secret.txt',
  '..;/secret.txt',
  '...',
  'link-out/secret.txt',
  'link-secret',
  'link-rel.txt',
  'link-etc/passwd',
  'link-prefix/secret.txt',
  '.env',
  'node_modules/leak.txt',
  'notes/inside.md\n',
];

/** Raw bytes of URIs no JSON string from the SDK can carry: invalid UTF-8, sent as raw POSTs. */
const RAW_ONLY: Array<{ label: string; bytes: Buffer }> = [
  {
    label: 'file:///<C0 AE C0 AE>/secret.txt (overlong ".." as raw bytes)',
    bytes: Buffer.concat([
      Buffer.from('file:///'),
      Buffer.from([0xc0, 0xae, 0xc0, 0xae]),
      Buffer.from('/secret.txt'),
    ]),
  },
  {
    label: 'file:///..<FF>/secret.txt (invalid byte after "..")',
    bytes: Buffer.concat([
      Buffer.from('file:///..'),
      Buffer.from([0xff]),
      Buffer.from('/secret.txt'),
    ]),
  },
];

describe.each(FIXTURE)('traversal ($label)', ({ label }) => {
  test('the corpus has at least 30 forms of each kind', () => {
    expect(URI_CORPUS.length).toBeGreaterThanOrEqual(30);
    expect(PATH_CORPUS.length).toBeGreaterThanOrEqual(20);
  });

  test('every resources/read URI of the corpus gets -32602 and no bytes', async () => {
    const s = session(label);
    for (const uri of URI_CORPUS) {
      let code: number;
      let answer: string;
      try {
        await s.client.readResource({ uri });
        throw new Error(`${uri} was served`);
      } catch (error) {
        if (error instanceof ProtocolError) {
          routes.set(uri, routes.get(uri) ?? 'sdk');
          expect(
            s.sent('resources/read', (p) => p['uri'] === uri),
            `${uri} went out verbatim`,
          ).toBe(true);
          code = error.code;
          answer = `${error.message} ${JSON.stringify(error.data)}`;
        } else if (error instanceof Error && error.message.endsWith('was served')) {
          throw error;
        } else {
          // The SDK refused to send it: send it raw, to the same folder's real serve process.
          routes.set(uri, 'raw-http');
          const raw = await rawModernRead(
            (fxHttp as HttpServe).url,
            Buffer.from(uri, 'utf8'),
            1000 + routes.size,
          );
          rawAnswers.push(raw.text);
          code = raw.body?.error?.code ?? raw.status;
          answer = raw.text;
        }
      }
      expect(code, `${uri}: ${answer}`).toBe(INVALID_PARAMS);
      expect(answer, uri).not.toContain(fx.marker);
      expect(answer, uri).not.toContain('root:x:0:0');
    }
  });

  test('the read tool refuses every path of the corpus as a tool error, with no bytes', async () => {
    const s = session(label);
    for (const path of PATH_CORPUS) {
      const res = await readTool(s, path, 'embed');
      expect(res.isError, JSON.stringify(path)).toBe(true);
      expect(res.content).toHaveLength(1);
      expect(textOf(res.content[0])).toMatch(/^(Refused path|No file) /);
      expect(JSON.stringify(res)).not.toContain(fx.marker);
    }
  });

  test('the review-file prompt refuses every path of the corpus with -32602, with no bytes', async () => {
    const s = session(label);
    for (const path of PATH_CORPUS) {
      const error = await protocolError(() => prompt(s, 'review-file', { path }));
      expect(error.code, `${JSON.stringify(path)}: ${error.message}`).toBe(INVALID_PARAMS);
      expect(error.message).toMatch(/^review-file: (refused path|no file) /);
      expect(`${error.message}${JSON.stringify(error.data)}`).not.toContain(fx.marker);
    }
  });

  test('what is inside still reads, symlinks that stay inside included', async () => {
    const s = session(label);
    const inside = await readFile(join(fx.dir, 'notes', 'inside.md'), 'utf8');
    expect((await readUri(s, 'file:///notes/inside.md')).text).toBe(inside);
    expect((await readUri(s, 'file:///link-inside.txt')).text).toBe(inside);
    expect(embeddedOf((await readTool(s, 'link-inside.txt')).content[1]).text).toBe(inside);
    expect(await readFile(join(fx.base, 'secret.txt'), 'utf8')).toBe(fx.marker);
  });
});

describe('traversal: forms only a raw HTTP POST can send', () => {
  test.each(RAW_ONLY)('$label -> -32602, no bytes', async ({ label, bytes }) => {
    routes.set(label, 'raw-http');
    const raw = await rawModernRead((fxHttp as HttpServe).url, bytes, 7);
    rawAnswers.push(raw.text);
    expect(raw.status, raw.text).toBe(200);
    expect(raw.body?.error?.code, raw.text).toBe(INVALID_PARAMS);
    expect(raw.text).not.toContain(fx.marker);
  });
});

// ---------------------------------------------------------------------------------------------
// 4. Files over the transport cap

describe.each(FIXTURE)('files over the cap ($label)', ({ label, kind }) => {
  test('read (auto) links the 64 MiB and 8 GiB sparse files at once, unread', async () => {
    const s = session(label);
    await readTool(s, 'a/inside.txt'); // warm up: process start, tool list
    for (const [name, size] of [
      [fx.huge, HUGE_BYTES],
      [fx.giant, GIANT_BYTES],
    ] as const) {
      const started = performance.now();
      const res = await readTool(s, name, 'auto');
      const ms = performance.now() - started;
      expect(res.isError).toBeFalsy();
      // Too large to read whole: the link points at the first part, and says so.
      expect(linkOf(res.content[1])).toEqual({
        type: 'resource_link',
        uri: `file:///${name}?offset=0&length=1048576`,
        name,
        mimeType: 'application/octet-stream',
        size: 1048576,
        description: expect.stringMatching(
          new RegExp(
            `^${name.replace('.', '\\.')}: [\\d.]+ [MG]iB \\(${size} B\\), too large to read whole over this connection; this is its first part`,
          ),
        ) as string,
      });
      // 8 GiB cannot even be buffered by Node: a link this fast was decided from the size.
      expect(ms, `${name} took ${ms.toFixed(0)} ms`).toBeLessThan(2000);
    }
    const insisted = await readTool(s, fx.huge, 'embed');
    expect(insisted.isError).toBe(true);
    expect(textOf(insisted.content[0])).toMatch(/^Cannot return huge\.bin .*too large/);
  });

  test('resources/read of the 64 MiB file fails clearly (-32603, size and cap), and the connection stays usable', async () => {
    const s = session(label);
    const error = await protocolError(() => readUri(s, `file:///${fx.huge}`));
    expectTooLarge(error, `file:///${fx.huge}`, HUGE_BYTES, DEFAULT_CAP[kind]);
    expect(error.message).toContain('64.0 MiB (67108864 bytes)');
    expect((await readUri(s, 'file:///a/inside.txt')).text).toBe('inside a/\n');
    const review = await protocolError(() => prompt(s, 'review-file', { path: fx.huge }));
    expect(review.code).toBe(INTERNAL_ERROR);
    expect(review.message).toMatch(/^review-file: huge\.bin \(64\.0 MiB\) cannot be embedded/);
    expect((await s.client.listPrompts()).prompts).toHaveLength(2);
  });

  test('the 64 MiB file reads in parts, from the first part its error names to the last, every byte once', async () => {
    const s = session(label);
    const uri = `file:///${fx.huge}`;
    const error = await protocolError(() => readUri(s, uri));
    let next: string | undefined = (error.data as TooLargeData).firstPart;
    let expected = 0;
    let parts = 0;
    let version: string | undefined;
    while (next !== undefined) {
      const contents = (await readUri(s, next)) as Contents & { _meta?: Record<string, unknown> };
      expect(contents.uri).toBe(next);
      const part = contents._meta?.['dev.mcpkit/part'] as {
        offset: number;
        length: number;
        size: number;
        version: string;
        next?: string;
      };
      expect(part.offset).toBe(expected);
      expect(part.size).toBe(HUGE_BYTES);
      version ??= part.version;
      expect(part.version).toBe(version);
      const bytes = Buffer.from(contents.blob ?? '', 'base64');
      expect(bytes.length).toBe(part.length);
      // The sparse file is all zeros.
      expect(bytes.every((b) => b === 0)).toBe(true);
      expected += part.length;
      parts++;
      next = part.next;
    }
    expect(expected).toBe(HUGE_BYTES);
    expect(parts).toBe(64);
  }, 60_000);

  test('the 6 MiB file read in 1 MiB parts gives its exact bytes (HTTP sends blob parts streamed)', async () => {
    const s = session(label);
    const got: Buffer[] = [];
    let next: string | undefined = `file:///${fx.six}?offset=0&length=${1024 * 1024}`;
    while (next !== undefined) {
      const contents = (await readUri(s, next)) as Contents & { _meta?: Record<string, unknown> };
      const part = contents._meta?.['dev.mcpkit/part'] as { length: number; next?: string };
      const bytes = Buffer.from(contents.blob ?? '', 'base64');
      expect(bytes.length).toBe(part.length);
      got.push(bytes);
      next = part.next;
    }
    expect(got).toHaveLength(6);
    expect(Buffer.concat(got).equals(fx.sixBytes)).toBe(true);
  });

  test('the 6 MiB file reads whole under the default outbound cap (stdio 10 MiB, HTTP 32 MiB)', async () => {
    const s = session(label);
    const contents = await readUri(s, `file:///${fx.six}`);
    expect(contents.mimeType).toBe('application/octet-stream');
    expect(Buffer.from(contents.blob ?? '', 'base64').equals(fx.sixBytes)).toBe(true);
  });
});

describe('the cap flips with --max-response-bytes; the inbound caps do not move it (6 MiB file, modern)', () => {
  test('stdio 4m fails clearly, stdio 16m and http 16m return every byte, --max-body-bytes 16m alone changes nothing', async () => {
    const uri = `file:///${fx.six}`;
    const args = [fx.dir, '--quiet'];
    const http16 = await startHttp([...args, '--max-response-bytes', '16m']);
    const httpBody = await startHttp([
      ...args,
      '--max-body-bytes',
      '16m',
      '--max-response-bytes',
      '4m',
    ]);
    const [small, large, http, body, line] = await Promise.all([
      openStdio('stdio 4m', 'modern', [...args, '--max-response-bytes', '4m']),
      openStdio('stdio 16m', 'modern', [...args, '--max-response-bytes', '16m']),
      openHttp('http 16m', 'modern', http16.url),
      openHttp('http body 16m, response 4m', 'modern', httpBody.url),
      openStdio('stdio line 64m, response 4m', 'modern', [
        ...args,
        '--max-line-bytes',
        '64m',
        '--max-response-bytes',
        '4m',
      ]),
    ]);
    for (const s of [small, body, line]) {
      const error = await protocolError(() => readUri(s, uri));
      expectTooLarge(error, uri, SIX_BYTES, capOf(s.kind, 4 * MiB));
      expect((await readUri(s, 'file:///a/inside.txt')).text).toBe('inside a/\n');
    }
    for (const s of [large, http]) {
      const contents = await readUri(s, uri);
      expect(Buffer.from(contents.blob ?? '', 'base64').equals(fx.sixBytes), s.label).toBe(true);
    }
    await Promise.all([small.close(), large.close(), http.close(), body.close(), line.close()]);
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Sniffed MIME types

const SNIFFED: Array<{ name: string; mimeType: string; from: string }> = [
  { name: 'picture.data', mimeType: 'image/png', from: join(EXAMPLE_DIR, 'images', 'mcpkit.png') },
  { name: 'scan', mimeType: 'image/png', from: join(EXAMPLE_DIR, 'images', 'mcpkit.png') },
  {
    name: 'doc.bin',
    mimeType: 'application/pdf',
    from: join(EXAMPLE_DIR, 'papers', 'overview.pdf'),
  },
  { name: 'mystery', mimeType: 'application/octet-stream', from: '' },
];

describe.each(FIXTURE)('MIME types sniffed from the bytes ($label)', ({ label }) => {
  test.each(SNIFFED)('$name is served as $mimeType', async ({ name, mimeType, from }) => {
    const s = session(label);
    const bytes = from === '' ? readFileSync(join(fx.dir, name)) : readFileSync(from);
    const uri = `file:///${name}`;
    const contents = await readUri(s, uri);
    expect(contents.mimeType).toBe(mimeType);
    expect(contents.text).toBeUndefined();
    expect(Buffer.from(contents.blob ?? '', 'base64').equals(bytes)).toBe(true);
    for (const mode of ['auto', 'embed'] as const) {
      const res = await readTool(s, name, mode);
      const resource = embeddedOf(res.content[1]);
      expect(resource.mimeType, mode).toBe(mimeType);
      expect(resource.blob, mode).toBe(contents.blob);
      expect(textOf(res.content[0])).toContain(`(${mimeType}, `);
    }
    expect(linkOf((await readTool(s, name, 'link')).content[1]).mimeType).toBe(mimeType);
    const review = await prompt(s, 'review-file', { path: name });
    expect(embeddedOf(review[0]?.content).mimeType).toBe(mimeType);
    const listed = (await s.client.listResources()).resources.find((r) => r.uri === uri);
    expect(listed?.mimeType).toBe(mimeType);
  });
});

// ---------------------------------------------------------------------------------------------
// 6. The example folder gives what its README documents

describe.each(EXAMPLE)('the example folder ($label)', ({ label, kind }) => {
  const disk = (path: string) => readFileSync(join(EXAMPLE_DIR, path));

  test('resources/list: every file, with its size, type and lastModified', async () => {
    const { resources } = await session(label).client.listResources();
    expect(resources.map((r) => r.name).sort()).toEqual([
      'README.md',
      'data/defaults.json',
      'data/requests.csv',
      'images/mcpkit.png',
      'notes/embed-or-link.md',
      'notes/getting-started.md',
      'notes/security.md',
      'notes/transports.md',
      'papers/overview.pdf',
    ]);
    for (const r of resources) {
      expect(r.uri).toBe(`file:///${r.name}`);
      expect(r.size).toBe(disk(r.name).length);
      expect(r.annotations?.lastModified).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    const types = Object.fromEntries(resources.map((r) => [r.name, r.mimeType]));
    expect(types).toMatchObject({
      'notes/security.md': 'text/markdown',
      'data/defaults.json': 'application/json',
      'images/mcpkit.png': 'image/png',
      'papers/overview.pdf': 'application/pdf',
      'data/requests.csv': 'text/csv',
    });
  });

  test('search "budget": a summary and one resource_link per match, each with a snippet', async () => {
    const res = await callTool(session(label), 'search', { query: 'budget' });
    expect(res.isError).toBeFalsy();
    const summary = textOf(res.content[0]);
    const links = res.content.slice(1).map(linkOf);
    expect(summary).toMatch(
      /^(\d+) files? match "budget" \(\d+ by name, \d+ by text only\)\. Ranked by relevance: .*\. Each link describes where the first match is; read a file with resources\/read or the "read" tool\.$/,
    );
    expect(Number(/^(\d+)/.exec(summary)?.[1])).toBe(links.length);
    expect(links.map((l) => l.name).sort()).toEqual([
      'README.md',
      'data/defaults.json',
      'notes/embed-or-link.md',
    ]);
    for (const l of links) {
      expect(l.description).toMatch(/^line \d+: .*budget/i);
      expect(l.size).toBe(disk(l.name).length);
    }
  });

  test('search matching the 1.2 MB CSV links it with a snippet, never embeds it', async () => {
    const res = await callTool(session(label), 'search', { query: 'duration_ms' });
    expect(textOf(res.content[0])).toMatch(
      /^1 file match "duration_ms" \(0 by name, 1 by text only\)/,
    );
    expect(res.content).toHaveLength(2);
    expect(linkOf(res.content[1])).toMatchObject({
      uri: 'file:///data/requests.csv',
      mimeType: 'text/csv',
      size: 1250047,
      description: expect.stringMatching(/^line 1: .*duration_ms/),
    });
  });

  test('read (auto) embeds small notes, JSON and images, and links the CSV with the reason', async () => {
    const s = session(label);
    for (const name of [
      'notes/embed-or-link.md',
      'notes/getting-started.md',
      'notes/security.md',
      'notes/transports.md',
      'data/defaults.json',
    ]) {
      const res = await readTool(s, name);
      expect(textOf(res.content[0])).toMatch(new RegExp(`^${name} \\(.*\\), embedded below\\.$`));
      expect(embeddedOf(res.content[1]).text).toBe(disk(name).toString('utf8'));
    }
    for (const [name, mimeType] of [
      ['images/mcpkit.png', 'image/png'],
      ['papers/overview.pdf', 'application/pdf'],
    ] as const) {
      const resource = embeddedOf((await readTool(s, name)).content[1]);
      expect(resource.mimeType).toBe(mimeType);
      expect(Buffer.from(resource.blob ?? '', 'base64').equals(disk(name))).toBe(true);
    }
    const csv = await readTool(s, 'data/requests.csv');
    expect(textOf(csv.content[0])).toBe(
      'data/requests.csv (text/csv, 1.2 MiB) is linked, not embedded: about 1.2 MiB on the wire is over what may be embedded ' +
        `(embed budgets: 1.0 MiB per block, 4.0 MiB per result; transport cap ${kind === 'stdio' ? '9.9 MiB' : '32.0 MiB'}). ` +
        'Read it with resources/read when you need its contents.',
    );
    expect(linkOf(csv.content[1])).toMatchObject({
      uri: 'file:///data/requests.csv',
      mimeType: 'text/csv',
      size: 1250047,
    });
    // "mode": "embed" insists on the contents.
    const insisted = await readTool(s, 'data/requests.csv', 'embed');
    expect(embeddedOf(insisted.content[1]).text).toBe(disk('data/requests.csv').toString('utf8'));
  });

  test('review-file embeds the file as a resource block, then the review instructions', async () => {
    const messages = await prompt(session(label), 'review-file', {
      path: 'notes/embed-or-link.md',
    });
    expect(messages.map((m) => [m.role, m.content.type])).toEqual([
      ['user', 'resource'],
      ['user', 'text'],
    ]);
    expect(embeddedOf(messages[0]?.content)).toEqual({
      uri: 'file:///notes/embed-or-link.md',
      mimeType: 'text/markdown',
      text: disk('notes/embed-or-link.md').toString('utf8'),
    });
    expect(textOf(messages[1]?.content)).toMatch(
      /^Review notes\/embed-or-link\.md, embedded above\. .*Quote the exact lines .* End with a short verdict/,
    );
  });

  test('survey "stdio" links the matches and says what each is and when to read it', async () => {
    const messages = await prompt(session(label), 'survey', { query: 'stdio' });
    const intro = textOf(messages[0]?.content);
    const links = messages.slice(1, -1).map((m) => linkOf(m.content));
    expect(textOf(messages.at(-1)?.content)).toBe(
      'Answer questions about "stdio" from the files you read, and cite their paths.',
    );
    expect(intro).toMatch(
      new RegExp(
        `^Survey of docs for "stdio": ${links.length} matching files are linked below, not embedded, so read only what you need \\(resources/read\\)\\.\n\nWhat each link is, and when to read it:\n`,
      ),
    );
    expect(links.map((l) => l.name).sort()).toEqual([
      'README.md',
      'data/defaults.json',
      'data/requests.csv',
      'notes/embed-or-link.md',
      'notes/getting-started.md',
      'notes/transports.md',
    ]);
    const lines = intro.split('\n').filter((l) => /^\d+\. /.test(l));
    expect(lines).toHaveLength(links.length);
    links.forEach((l, i) => {
      expect(lines[i]).toMatch(
        new RegExp(
          `^${i + 1}\\. ${l.name} \\(${l.mimeType}, [\\d.]+ (B|KiB|MiB)\\)\\. Its text matches \\(line \\d+: .*\\)\\. Read it when you need that passage\\.`,
        ),
      );
      expect(l.description).toMatch(/^line \d+: /);
    });
    expect(lines.find((l) => l.includes('data/requests.csv'))).toMatch(
      /It is large \(1\.2 MiB\): read it only if the others are not enough\.$/,
    );
    expect(messages.some((m) => isEmbedded(m.content))).toBe(false);
  });

  test('review-file completes its path argument', async () => {
    const s = session(label);
    const complete = (value: string) =>
      s.client.complete({
        ref: { type: 'ref/prompt', name: 'review-file' },
        argument: { name: 'path', value },
      });
    expect((await complete('notes/embed')).completion).toMatchObject({
      values: ['notes/embed-or-link.md'],
    });
    expect((await complete('notes/')).completion.values).toEqual([
      'notes/embed-or-link.md',
      'notes/getting-started.md',
      'notes/security.md',
      'notes/transports.md',
    ]);
    // Prefix matches first, then paths that contain the text.
    expect((await complete('png')).completion.values).toEqual(['images/mcpkit.png']);
    expect((await complete('')).completion.values).toHaveLength(9);
  });
});

// ---------------------------------------------------------------------------------------------

describe('nothing outside the folder ever reached a client', () => {
  test('the cleanup check can see the servers (the 6 shared processes are running now)', async () => {
    const live = await liveServeChildren();
    const known = [
      ...[...sessions.values()].filter((s) => s.kind === 'stdio').map((s) => s.pid),
      fxHttp?.child.pid,
      exHttp?.child.pid,
    ];
    for (const pid of known) expect(live).toContain(pid);
  });

  test('no message on any connection, nor any raw answer, holds the secret marker', () => {
    const seen = [...allSessions.flatMap((s) => s.inbound), ...rawAnswers];
    expect(seen.length).toBeGreaterThan(500);
    const leaks = seen.filter((m) => m.includes(fx.marker) || m.includes('root:x:0:0'));
    expect(leaks).toEqual([]);
  });
});
