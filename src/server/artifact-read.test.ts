import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from '../content/blob.js';
import { PART_META_KEY } from '../content/policy.js';
import { connectInMemory } from '../transports/memory.js';
import { modern } from '../testing/messages.js';
import { ARTIFACT_PARTS_TEMPLATE } from '../content/artifact-parts.js';
import { MemoryLinkStore } from './link-store.js';
import { createServer } from './server.js';

const CAP = 20_000;

/** Lines of text with multi-byte characters and characters JSON escapes, about 60 KiB. */
const TEXT = Array.from(
  { length: 900 },
  (_, i) => `${i}: é€😀 "quoted" \\ tab\t — ${'x'.repeat(i % 40)}\n`,
).join('');
const BYTES = Uint8Array.from({ length: 50_000 }, (_, i) => (i * 7919) % 256);

function setup() {
  const clock = { now: 0 };
  const server = createServer({
    name: 's',
    version: '1',
    linkStore: new MemoryLinkStore({ now: () => clock.now, ttlMs: 60_000 }),
    content: { capBytes: CAP },
  });
  server.tool('embed', {}, (_a, ctx) =>
    ctx.result(ctx.attach({ name: 'small.txt', mimeType: 'text/plain', text: 'small' })),
  );
  server.tool('text', {}, (_a, ctx) =>
    ctx.result(ctx.attach({ name: 'big.txt', mimeType: 'text/plain', text: TEXT })),
  );
  server.tool('blob', {}, (_a, ctx) =>
    ctx.result(ctx.attach({ name: 'big.bin', mimeType: 'application/octet-stream', bytes: BYTES })),
  );
  server.tool('many', {}, (_a, ctx) =>
    ctx.result(
      ctx.attach({ name: 'small.txt', mimeType: 'text/plain', text: 'y'.repeat(12_000) }),
      ...Array.from({ length: 25 }, (_, i) =>
        ctx.attach({ name: `part-${i}.txt`, mimeType: 'text/plain', text: `${i} ${TEXT}` }),
      ),
    ),
  );
  server.tool(
    'relink',
    { input: { type: 'object', properties: { uri: { type: 'string' } } } },
    (a, ctx) => ctx.result(ctx.attach(String(a['uri']), { mode: 'link' })),
  );
  return { clock, conn: connectInMemory(server) };
}

/** Bytes of a result on the wire, as the cap counts them (the JSON-RPC envelope is outside it). */
function resultBytes(res: Answer): number {
  // The result's _meta (serverInfo) is in the room the server keeps beside capBytes.
  return Buffer.byteLength(JSON.stringify({ ...res.result, _meta: undefined }));
}

type Answer = {
  result?: Record<string, unknown> & {
    content?: Array<Record<string, unknown>>;
    contents?: Array<Record<string, unknown>>;
  };
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

async function call(conn: ReturnType<typeof connectInMemory>, name: string) {
  const res = (await conn.send(modern('tools/call', { name }))) as Answer;
  expect(res.error).toBeUndefined();
  return res.result?.content?.[0] as Record<string, unknown>;
}

async function read(conn: ReturnType<typeof connectInMemory>, uri: string) {
  return (await conn.send(modern('resources/read', { uri }))) as Answer;
}

/** Follows `next` from `first`, checking every answer fits the cap; returns every part's contents. */
async function walk(conn: ReturnType<typeof connectInMemory>, first: string) {
  const parts: Array<Record<string, unknown>> = [];
  for (let uri: string | undefined = first; uri !== undefined;) {
    const res = await read(conn, uri);
    expect(res.error, uri).toBeUndefined();
    expect(resultBytes(res)).toBeLessThanOrEqual(CAP);
    const contents = res.result?.contents?.[0] as Record<string, unknown>;
    parts.push(contents);
    uri = (contents['_meta'] as Record<string, { next?: string }>)[PART_META_KEY]?.next;
    expect(parts.length).toBeLessThan(100);
  }
  return parts;
}

describe('artifacts in resources/read', () => {
  it('an embedded artifact resolves for as long as a linked one would', async () => {
    const { clock, conn } = setup();
    const block = await call(conn, 'embed');
    expect(block['type']).toBe('resource');
    const { uri } = block['resource'] as { uri: string };
    expect(uri).toMatch(/^mcpkit:\/\/artifacts\/[0-9a-f]{64}$/);
    expect((await read(conn, uri)).result?.contents).toEqual([
      { uri, mimeType: 'text/plain', text: 'small' },
    ]);
    clock.now = 60_000;
    const gone = await read(conn, uri);
    expect(gone.error?.code).toBe(-32602);
    expect(gone.error?.message).toContain('expired');
  });

  it('a text artifact over the cap is linked by its first part and read in parts, every byte once', async () => {
    const { conn } = setup();
    const link = await call(conn, 'text');
    expect(link).toMatchObject({ type: 'resource_link', name: 'big.txt', mimeType: 'text/plain' });
    const first = link['uri'] as string;
    const base = first.slice(0, first.indexOf('?'));
    // The link names the first part exactly as it reads, and says how large it is.
    expect(first).toBe(`${base}?offset=0&length=${String(link['size'])}`);
    expect(link['size']).toBeLessThan(CAP);
    expect(link['description']).toContain('too large to read whole over this connection');

    const whole = await read(conn, base);
    expect(whole.error).toMatchObject({
      code: -32603,
      data: {
        uri: base,
        reason: 'too-large',
        partsTemplate: ARTIFACT_PARTS_TEMPLATE,
        firstPart: first,
        size: Buffer.byteLength(TEXT),
        capBytes: CAP,
      },
    });

    const parts = await walk(conn, first);
    expect(parts.length).toBeGreaterThan(2);
    expect(Buffer.byteLength(parts[0]?.['text'] as string)).toBe(link['size']);
    expect(parts.map((p) => p['text']).join('')).toBe(TEXT);
    let offset = 0;
    for (const p of parts) {
      const info = (p['_meta'] as Record<string, Record<string, number>>)[PART_META_KEY];
      expect(info).toMatchObject({ offset, size: Buffer.byteLength(TEXT) });
      expect(info?.['length']).toBe(Buffer.byteLength(p['text'] as string));
      offset += info?.['length'] ?? 0;
      // Parts end after a newline when one lies in their second half.
      if (p !== parts.at(-1)) expect(p['text']).toMatch(/\n$/);
    }
  });

  it('a blob artifact over the cap reads in exact byte ranges', async () => {
    const { conn } = setup();
    const link = await call(conn, 'blob');
    const parts = await walk(conn, link['uri'] as string);
    const joined = Buffer.concat(parts.map((p) => Buffer.from(decodeBase64(p['blob'] as string))));
    expect(encodeBase64(joined)).toBe(encodeBase64(BYTES));
    expect(parts.length).toBeGreaterThan(3);
  });

  it('sizes links to first parts before fitting: 25 of them leave no room for a 12 KB embed', async () => {
    const { conn } = setup();
    const res = (await conn.send(modern('tools/call', { name: 'many' }))) as Answer;
    expect(res.error).toBeUndefined();
    expect(res.result?.content).toHaveLength(26);
    expect(res.result?.content?.[0]).toMatchObject({ type: 'resource_link', name: 'small.txt' });
    expect(resultBytes(res)).toBeLessThanOrEqual(CAP);
  });

  it('ctx.attach of an artifact URI too large to read whole links its first part', async () => {
    const { conn } = setup();
    const first = (await call(conn, 'text'))['uri'] as string;
    const base = first.split('?')[0] as string;
    const res = (await conn.send(
      modern('tools/call', { name: 'relink', arguments: { uri: base } }),
    )) as Answer;
    expect(res.error).toBeUndefined();
    expect(res.result?.content?.[0]).toMatchObject({ type: 'resource_link', uri: first });
  });

  it("takes the artifact's own version, defaults for a bare '?', and refuses a link past the end", async () => {
    const { conn } = setup();
    const first = (await call(conn, 'text'))['uri'] as string;
    const base = first.split('?')[0] as string;
    const own = base.slice('mcpkit://artifacts/'.length, 'mcpkit://artifacts/'.length + 16);
    const pinned = await read(conn, `${first}&version=${own}`);
    expect(pinned.error).toBeUndefined();
    const other = await read(conn, `${first}&version=AAAAAAAAAAAAAAAA`);
    expect(other.error).toMatchObject({ code: -32602, data: { parameter: 'version' } });
    const bare = await read(conn, `${base}?`);
    expect(bare.result?.contents?.[0]?.['_meta']).toMatchObject({
      [PART_META_KEY]: { offset: 0 },
    });
    const past = `${base}?offset=${Buffer.byteLength(TEXT)}`;
    const res = (await conn.send(
      modern('tools/call', { name: 'relink', arguments: { uri: past } }),
    )) as Answer;
    // An artifact URI is the server's own: past its end it keeps its own error, never the
    // author-mistake advice to register it.
    expect(JSON.stringify(res)).toMatch(/nothing serves|Resource not found|past the end/);
    expect(res.error?.message).not.toMatch(/register it/);
  });

  it('a text part asked from inside a character starts at that character', async () => {
    const { conn } = setup();
    const base = ((await call(conn, 'text'))['uri'] as string).split('?')[0] as string;
    const at = Buffer.byteLength(TEXT.slice(0, 3)) + 1; // inside "é"
    const res = await read(conn, `${base}?offset=${at}&length=10`);
    const contents = res.result?.contents?.[0] as Record<string, unknown>;
    expect((contents['text'] as string).startsWith('é€')).toBe(true);
    expect((contents['_meta'] as Record<string, { offset: number }>)[PART_META_KEY]?.offset).toBe(
      at - 1,
    );
  });

  it('refuses part URIs it cannot serve with -32602 naming the parameter', async () => {
    const { conn } = setup();
    const base = ((await call(conn, 'text'))['uri'] as string).split('?')[0] as string;
    const size = Buffer.byteLength(TEXT);
    for (const [query, parameter, reason] of [
      ['offset=-1', 'offset', 'not-an-integer'],
      ['offset=1e3', 'offset', 'not-an-integer'],
      ['length=0', 'length', 'zero'],
      ['length=99999999999999999999', 'length', 'unsafe-integer'],
      ['from=3', 'from', 'unknown'],
      ['offset=1&offset=2', 'offset', 'repeated'],
      [`offset=${size}`, 'offset', 'past-end'],
    ] as const) {
      const res = await read(conn, `${base}?${query}`);
      expect(res.error, query).toMatchObject({ code: -32602, data: { parameter, reason } });
      expect(res.error?.message, query).toContain(`"${parameter}"`);
    }
    // A part of an artifact nobody stored is not found, as the artifact itself.
    const unknown = await read(conn, `mcpkit://artifacts/${'0'.repeat(64)}?offset=0`);
    expect(unknown.error?.code).toBe(-32602);
    expect(unknown.error?.message).toContain('Resource not found');
  });
});
