import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectInMemory, type MemoryConnection } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import { createFilesystemProvider } from './filesystem-provider.js';
import { serveFolder } from './folder-server.js';

const CAP = 10_000;
const TEMPLATE = 'file:///{+path}{?offset,length,version}';
const NOTE =
  'too large to read whole over this connection; this is its first part ' +
  '(read the next parts through _meta["dev.mcpkit/part"].next)';

type Block = { type: string; uri?: string; text?: string; [key: string]: unknown };
type Res = {
  result?: Record<string, unknown> & {
    contents?: Array<Record<string, unknown>>;
    content?: Block[];
    messages?: Array<{ content: Block }>;
  };
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

let root: string;
let conn: MemoryConnection;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcpkit-parts-links-'));
  await writeFile(join(root, 'large.md'), `# Large\n${'backoff words\n'.repeat(2000)}`);
  await writeFile(join(root, 'small.md'), '# Small\n');
  const server = createServer({ name: 'links', version: '1', content: { capBytes: CAP } });
  serveFolder(server, { root, settleMs: 0 });
  server.tool('attach', {}, (_a, ctx) => ctx.result(ctx.attach('file:///large.md')));
  server.tool('link', {}, async (_a, ctx) => [await ctx.link('file:///large.md')]);
  server.tool('part', {}, (_a, ctx) =>
    ctx.result(ctx.attach('file:///large.md?offset=0&length=100')),
  );
  conn = connectInMemory(server);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const send = async (method: string, params: Record<string, unknown>): Promise<Res> =>
  (await conn.send(modern(method, params))) as Res;

describe('a whole read that cannot fit', () => {
  it('answers -32603 with sizes, the cap it compared with, the parts template and the first part', async () => {
    const res = await send('resources/read', { uri: 'file:///large.md' });
    expect(res.error).toMatchObject({
      code: -32603,
      data: {
        uri: 'file:///large.md',
        size: 28_008,
        wireBytes: 28_010,
        capBytes: expect.any(Number),
        partsTemplate: TEMPLATE,
        firstPart: 'file:///large.md?offset=0&length=1048576',
        reason: 'too-large',
      },
    });
    expect(res.error?.message).toContain(TEMPLATE);
    expect(res.error?.message).toContain('file:///large.md?offset=0&length=1048576');
    expect(res.error?.message).toContain('mcpkit serve --max-response-bytes');
    expect(res.error?.data?.['capBytes']).toBeLessThan(CAP);
  });

  it('reads a body of exactly capBytes on the wire, and refuses one byte more', async () => {
    const server = createServer({ name: 'edge', version: '1', content: { capBytes: CAP } });
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-parts-edge-'));
    try {
      const provider = createFilesystemProvider({ root: dir, settleMs: 0, cacheBytes: 0 });
      provider.register(server);
      const edge = connectInMemory(server);
      const uri = 'file:///edge.txt';
      const readEdge = async (chars: number): Promise<Res> => {
        await writeFile(join(dir, 'edge.txt'), 'x'.repeat(chars));
        return (await edge.send(modern('resources/read', { uri }))) as Res;
      };
      const limit = (await readEdge(CAP)).error?.data?.['capBytes'] as number;
      // The body's wire size is its characters and its two quotes.
      const fits = await readEdge(limit - 2);
      expect(fits.error).toBeUndefined();
      expect((fits.result?.contents?.[0]?.['text'] as string).length).toBe(limit - 2);
      const over = await readEdge(limit - 1);
      expect(over.error).toMatchObject({
        code: -32603,
        data: { capBytes: limit, wireBytes: limit + 1, size: limit - 1 },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('links to a file too large to read whole point at its first part', () => {
  const firstPart = {
    type: 'resource_link',
    uri: 'file:///large.md?offset=0&length=1048576',
    name: 'large.md',
    description: `large.md: 27.4 KiB (28008 B), ${NOTE}`,
    mimeType: 'text/markdown',
    size: 28_008,
  };

  it('ctx.attach and ctx.link, through the template stat', async () => {
    for (const name of ['attach', 'link']) {
      const res = await send('tools/call', { name, arguments: {} });
      expect(res.error, name).toBeUndefined();
      expect(res.result?.content, name).toEqual([firstPart]);
    }
  });

  it('the link resolves: resources/read of it is the first part, cut to fit', async () => {
    const res = await send('resources/read', { uri: firstPart.uri });
    const part = res.result?.contents?.[0]?.['_meta'] as Record<string, Record<string, unknown>>;
    expect(part['dev.mcpkit/part']).toMatchObject({ offset: 0, size: 28_008 });
    expect(part['dev.mcpkit/part']?.['next']).toMatch(
      /^file:\/\/\/large\.md\?offset=\d+&length=1048576&version=/,
    );
  });

  it('the "read" tool links it and says how to read it', async () => {
    const res = await send('tools/call', { name: 'read', arguments: { path: 'large.md' } });
    expect(res.result?.content?.[1]).toEqual(firstPart);
    expect(res.result?.content?.[0]?.text).toMatch(/first part: read it with resources\/read/);
  });

  it('the "search" tool and the "survey" prompt link it the same way; small files stay whole', async () => {
    const search = await send('tools/call', { name: 'search', arguments: { query: 'md' } });
    const links = (search.result?.content ?? []).filter((b) => b.type === 'resource_link');
    const large = links.find((b) => b.name === 'large.md');
    expect(large).toMatchObject({ uri: firstPart.uri, size: 28_008 });
    expect(large?.['description']).toMatch(
      /^name matches .*\. large\.md: 27\.4 KiB \(28008 B\), too large/,
    );
    expect(links.find((b) => b.name === 'small.md')).toMatchObject({ uri: 'file:///small.md' });
    const survey = await send('prompts/get', { name: 'survey', arguments: { query: 'large' } });
    const link = survey.result?.messages
      ?.map((m) => m.content)
      .find((b) => b.type === 'resource_link');
    expect(link).toMatchObject({ uri: firstPart.uri, description: expect.stringContaining(NOTE) });
  });

  it('a part URI itself is sized by its stat and embedded when it fits', async () => {
    const res = await send('tools/call', { name: 'part', arguments: {} });
    expect(res.result?.content).toEqual([
      {
        type: 'resource',
        resource: {
          uri: 'file:///large.md?offset=0&length=100',
          mimeType: 'text/markdown',
          text: `# Large\n${'backoff words\n'.repeat(6)}`,
        },
      },
    ]);
  });
});

describe('the parts template', () => {
  it('is advertised with a name and a description of its parameters, and completes paths', async () => {
    const res = await send('resources/templates/list', {});
    expect(res.result?.['resourceTemplates']).toContainEqual(
      expect.objectContaining({
        uriTemplate: TEMPLATE,
        name: 'files-parts',
        description: expect.stringMatching(/"offset".*"length".*"version".*next/s),
      }),
    );
    const done = await send('completion/complete', {
      ref: { type: 'ref/resource', uri: TEMPLATE },
      argument: { name: 'path', value: 'lar' },
    });
    expect(done.result?.['completion']).toMatchObject({ values: ['large.md'] });
  });
});
