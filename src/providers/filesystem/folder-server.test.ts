import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectInMemory, type MemoryConnection } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import { serveFolder } from './folder-server.js';
import { nodeFs, type ProviderFs } from './fs-types.js';
import type { FilesystemProvider } from './filesystem-provider.js';

const MiB = 1024 * 1024;
/** A content block, loosely: the fields these tests look at. */
type Block = { type: string; text?: string; [key: string]: unknown };
type Res = {
  result?: {
    content?: Block[];
    messages?: Array<{ role: string; content: Block }>;
    completion?: unknown;
    isError?: boolean;
  };
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

let base: string;
let conn: MemoryConnection;
let provider: FilesystemProvider;
const opens: string[] = [];

async function call(name: string, args: Record<string, unknown>): Promise<Res> {
  return (await conn.send(modern('tools/call', { name, arguments: args }))) as Res;
}

async function prompt(name: string, args: Record<string, string>): Promise<Res> {
  return (await conn.send(modern('prompts/get', { name, arguments: args }))) as Res;
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mcpkit-folder-server-'));
  await mkdir(join(base, 'notes'));
  await writeFile(
    join(base, 'notes', 'retry.md'),
    '# Retries\n\nUse exponential Backoff with jitter.\nNever retry a 400.\n',
  );
  await writeFile(join(base, 'notes', 'backoff-table.md'), '| attempt | delay |\n| 1 | 100 ms |\n');
  await writeFile(join(base, 'notes', 'other.md'), 'Nothing to see here.');
  await writeFile(
    join(base, 'backoff.png'),
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
  await writeFile(
    join(base, 'log.csv'),
    `when,what\n${'2026-01-01,backoff retry\n'.repeat(60_000)}`,
  ); // ~1.5 MB
  await writeFile(join(base, 'huge.bin'), '');
  await truncate(join(base, 'huge.bin'), 64 * MiB);
  for (let i = 0; i < 120; i++)
    await writeFile(
      join(base, 'notes', `many-${String(i).padStart(3, '0')}.txt`),
      `item ${i} mentions zebra`,
    );
  const fs: ProviderFs = { ...nodeFs, open: (p, f) => (opens.push(p), nodeFs.open(p, f)) };
  const server = createServer({ name: 'folder', version: '1' });
  provider = serveFolder(server, { root: base, fs });
  await provider.ready();
  conn = connectInMemory(server);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('tool "search"', () => {
  it('returns a summary and one link per match, ranked with name matches first, with a snippet of the first match', async () => {
    const res = await call('search', { query: 'BACKOFF' });
    const [summary, ...links] = res.result?.content as Block[];
    expect(summary).toEqual({
      type: 'text',
      text: expect.stringMatching(/^4 files match "BACKOFF" \(2 by name, 2 by text only\)\./),
    });
    expect(
      links
        .slice(0, 2)
        .map((l) => l['name'])
        .sort(),
    ).toEqual(['backoff.png', 'notes/backoff-table.md']);
    expect(
      links
        .slice(2)
        .map((l) => l['name'])
        .sort(),
    ).toEqual(['log.csv', 'notes/retry.md']);
    const png = links.find((l) => l['name'] === 'backoff.png');
    expect(png).toEqual({
      type: 'resource_link',
      uri: 'file:///backoff.png',
      name: 'backoff.png',
      mimeType: 'image/png',
      size: 70,
      description: 'name matches (image/png, 70 B)',
      annotations: { lastModified: expect.any(String) },
    });
    const described = (name: string) => links.find((l) => l['name'] === name)?.['description'];
    expect(described('notes/backoff-table.md')).toBe('name matches (text/markdown, 35 B)');
    expect(described('notes/retry.md')).toBe(
      'line 3: # Retries Use exponential Backoff with jitter. Never retry a 400.',
    );
    expect(described('log.csv')).toMatch(/^line 2: when,what 2026-01-01,backoff retry .*…$/);
  });

  it('honours limit (default 10, at most 100) and links every match when more match', async () => {
    const ten = await call('search', { query: 'zebra' });
    // The summary, 10 links, and the JSON artifact of all 120 matches.
    expect(ten.result?.content).toHaveLength(12);
    expect(ten.result?.content?.[0]?.text).toMatch(
      /^120 files match "zebra" .*showing the best 10, the last link is a JSON list of all 120/,
    );
    expect(ten.result?.content?.[11]).toMatchObject({
      type: 'resource_link',
      mimeType: 'application/json',
    });
    const all = await call('search', { query: 'zebra', limit: 100 });
    expect(all.result?.content).toHaveLength(102);
    const over = await call('search', { query: 'zebra', limit: 101 });
    expect(over.result).toMatchObject({ isError: true });
  });

  it('refuses a "path" that is not a glob as invalid arguments, naming it', async () => {
    for (const [path, why] of [
      ['notes/{a,b', 'a "{" without its "}"'],
      ['[a-', 'a "[" without its "]"'],
    ]) {
      const res = await call('search', { query: 'backoff', path });
      expect(res.result).toMatchObject({ isError: true });
      expect(res.result?.content?.[0]?.text).toBe(
        `Invalid arguments for tool "search": "path" ${JSON.stringify(path)} is not a glob: the glob has ${why}`,
      );
    }
  });

  it('says so when nothing matches', async () => {
    const res = await call('search', { query: 'no such words' });
    expect(res.result?.content).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(/^No file name or text matches "no such words"/),
      },
    ]);
  });
});

describe('tool "read"', () => {
  it('embeds a small file in auto mode', async () => {
    const res = await call('read', { path: 'notes/retry.md' });
    expect(res.result?.content).toEqual([
      { type: 'text', text: 'notes/retry.md (text/markdown, 67 B), embedded below.' },
      {
        type: 'resource',
        resource: {
          uri: 'file:///notes/retry.md',
          mimeType: 'text/markdown',
          text: expect.stringContaining('Backoff'),
        },
      },
    ]);
  });

  it('links a file over the block budget in auto mode, and says why', async () => {
    const res = await call('read', { path: 'log.csv' });
    expect(res.result?.content).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(
          /^log\.csv \(text\/csv, 1\.4 MiB\) is linked, not embedded: .*1\.0 MiB per block/,
        ),
      },
      {
        type: 'resource_link',
        uri: 'file:///log.csv',
        name: 'log.csv',
        mimeType: 'text/csv',
        size: 1_500_010,
      },
    ]);
  });

  it('links a 64 MiB file without opening it: to its first part, which the description says', async () => {
    const before = opens.length;
    const res = await call('read', { path: 'huge.bin', mode: 'auto' });
    expect(res.result?.content?.[1]).toEqual({
      type: 'resource_link',
      uri: 'file:///huge.bin?offset=0&length=1048576',
      name: 'huge.bin',
      description:
        'huge.bin: 64.00 MiB (67108864 B), too large to read whole over this connection; this is ' +
        'its first part (read the next parts through _meta["dev.mcpkit/part"].next)',
      mimeType: 'application/octet-stream',
      size: MiB,
    });
    expect(res.result?.content?.[0]?.text).toMatch(
      /is linked, not embedded: .*too large to read whole over this connection, so the link is its first part/,
    );
    expect(opens.length).toBe(before);
  });

  it('embeds on request, up to the transport cap, and fails as a tool error beyond it', async () => {
    const res = await call('read', { path: 'log.csv', mode: 'embed' });
    expect(res.result?.content?.[1]).toMatchObject({
      type: 'resource',
      resource: { uri: 'file:///log.csv', mimeType: 'text/csv' },
    });
    const before = opens.length;
    const huge = await call('read', { path: 'huge.bin', mode: 'embed' });
    expect(huge.result).toMatchObject({
      isError: true,
      content: [
        { type: 'text', text: expect.stringMatching(/^Cannot return huge\.bin .*too large/) },
      ],
    });
    expect(opens.length).toBe(before);
  });

  it('links on request without reading', async () => {
    const before = opens.length;
    const res = await call('read', { path: 'notes/other.md', mode: 'link' });
    expect(res.result?.content).toEqual([
      {
        type: 'text',
        text: 'notes/other.md (text/markdown, 20 B) is linked, not embedded: as asked. Read it with resources/read when you need its contents.',
      },
      {
        type: 'resource_link',
        uri: 'file:///notes/other.md',
        name: 'notes/other.md',
        mimeType: 'text/markdown',
        size: 20,
      },
    ]);
    expect(opens.length).toBe(before);
  });

  it.each([
    ['../etc/passwd', /Refused path.*"\.\." segment/],
    ['/etc/passwd', /Refused path.*absolute/],
    ['notes\\..\\..\\x', /Refused path.*backslash/],
    ['nope.md', /No file "nope\.md"/],
    ['notes', /No file "notes"/],
    [`${'a'.repeat(300)}.md`, /^No file "a{300}\.md"/],
  ])('answers %s with a tool error', async (path, message) => {
    const res = await call('read', { path });
    expect(res.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(message) }],
    });
    expect(JSON.stringify(res)).not.toContain(base);
  });
});

describe('prompt "review-file"', () => {
  it('embeds the file, then asks for a review', async () => {
    const res = await prompt('review-file', { path: 'notes/retry.md' });
    expect(res.result?.messages).toEqual([
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: 'file:///notes/retry.md',
            mimeType: 'text/markdown',
            text: expect.any(String),
          },
        },
      },
      {
        role: 'user',
        content: {
          type: 'text',
          text: expect.stringMatching(/^Review notes\/retry\.md, embedded above\./),
        },
      },
    ]);
  });

  it('completes its path argument', async () => {
    const res = (await conn.send(
      modern('completion/complete', {
        ref: { type: 'ref/prompt', name: 'review-file' },
        argument: { name: 'path', value: 'notes/r' },
      }),
    )) as Res;
    expect(res.result?.completion).toEqual({
      values: ['notes/retry.md'],
      total: 1,
      hasMore: false,
    });
  });

  it('embeds a required file over the block budget when it fits the result budget', async () => {
    const res = await prompt('review-file', { path: 'log.csv' });
    expect(res.result?.messages?.[0]?.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'file:///log.csv', mimeType: 'text/csv' },
    });
  });

  it('fails clearly when the file cannot be embedded, or does not exist', async () => {
    const server = createServer({
      name: 'tight',
      version: '1',
      content: { resultBudgetBytes: MiB },
    });
    serveFolder(server, { root: base });
    const tight = connectInMemory(server);
    const big = (await tight.send(
      modern('prompts/get', { name: 'review-file', arguments: { path: 'log.csv' } }),
    )) as Res;
    expect(big.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(
        /^review-file: log\.csv \(1\.4 MiB\) cannot be embedded: .*1\.0 MiB per result/,
      ),
      data: { reason: 'too-large' },
    });
    const before = opens.length;
    const huge = await prompt('review-file', { path: 'huge.bin' });
    expect(huge.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/huge\.bin .*too large/),
    });
    expect(opens.length).toBe(before);
    expect((await prompt('review-file', { path: 'nope.md' })).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/no file "nope\.md"/),
    });
    expect((await prompt('review-file', { path: '%2e%2e/x' })).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/refused/),
    });
  });
});

describe('prompt "survey"', () => {
  it('links the matching files and says what each is and when to read it', async () => {
    const res = await prompt('survey', { query: 'retry' });
    const messages = res.result?.messages as Array<{
      role: string;
      content: Block;
    }>;
    const intro = messages[0]?.content['text'] as string;
    expect(intro).toMatch(
      /^Survey of mcpkit-folder-server-\w+ for "retry": 2 matching files are linked below, not embedded/,
    );
    expect(intro).toMatch(
      /1\. notes\/retry\.md \(text\/markdown, 67 B\)\. Its name and its text match \(line 4: .*\)\. Read it first\./,
    );
    expect(intro).toMatch(
      /2\. log\.csv \(text\/csv, 1\.4 MiB\)\. Its text matches .*Read it when you need that passage\. It is large \(1\.4 MiB\): read it only if/,
    );
    expect(messages.slice(1, 3).map((m) => m.content)).toEqual([
      expect.objectContaining({ type: 'resource_link', uri: 'file:///notes/retry.md' }),
      expect.objectContaining({ type: 'resource_link', uri: 'file:///log.csv' }),
    ]);
    expect(messages[3]?.content).toMatchObject({
      type: 'text',
      text: expect.stringContaining('cite their paths'),
    });
    expect(JSON.stringify(res)).not.toContain('"type":"resource"');
  });

  it('says so when nothing matches', async () => {
    const res = await prompt('survey', { query: 'quux' });
    expect(res.result?.messages).toEqual([
      {
        role: 'user',
        content: { type: 'text', text: expect.stringMatching(/matches "quux" by name or text/) },
      },
    ]);
  });
});

describe('serveFolder options', () => {
  it('can leave out the tools and prompts', async () => {
    const server = createServer({ name: 'bare', version: '1' });
    serveFolder(server, { root: base, tools: false, prompts: false });
    expect(server.registered().tools).toHaveLength(0);
    expect(server.registered().prompts).toHaveLength(0);
    expect(server.registered().resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'file:///{+path}',
      'file:///{+path}{?offset,length,version}',
    ]);
  });

  it('the provider is reachable for callers', () => {
    expect(provider.uriOf('notes/a b.md')).toBe('file:///notes/a%20b.md');
  });
});

describe('the text around a file counts in the fitting (regressions)', () => {
  const CAP = 8000;
  let dir: string;
  let tight: MemoryConnection;
  const long = `${'d'.repeat(200)}/${'n'.repeat(200)}.txt`;

  /** Bytes the content blocks of a result take as JSON. */
  const wire = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpkit-folder-cap-'));
    await mkdir(join(dir, 'd'.repeat(200)));
    // The largest text the read handler itself accepts under CAP (its limit leaves room for the
    // contents' own uri, mimeType and _meta): the embed alone fits, the summary line does not.
    const uri = `file:///${long}`;
    const envelope =
      Buffer.byteLength(
        JSON.stringify({
          uri,
          mimeType: 'application/octet-stream',
          _meta: { 'dev.mcpkit/size': 0, 'dev.mcpkit/lastModified': new Date(0).toISOString() },
        }),
      ) + 16;
    await writeFile(join(dir, long), 'a'.repeat(CAP - envelope - 2));
    // review-file: fits alone, not with the ~350 bytes of review instructions.
    await writeFile(join(dir, 'window.md'), 'a'.repeat(CAP - 300));
    await writeFile(join(dir, 'fits.md'), 'a'.repeat(1000));
    const server = createServer({ name: 'cap', version: '1', content: { capBytes: CAP } });
    serveFolder(server, { root: dir });
    tight = connectInMemory(server);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the "read" tool fits its summary line with the file: links it when both would not fit the cap', async () => {
    const res = (await tight.send(
      modern('tools/call', { name: 'read', arguments: { path: long } }),
    )) as Res;
    expect(res.error).toBeUndefined();
    const content = res.result?.content as Block[];
    expect(content.map((b) => b.type)).toEqual(['text', 'resource_link']);
    expect(content[0]?.text).toMatch(/ is linked, not embedded: .*transport cap 7\.8 KiB/);
    expect(wire(content)).toBeLessThanOrEqual(CAP);
    // A small file is still embedded, with the summary that says so.
    const small = (await tight.send(
      modern('tools/call', { name: 'read', arguments: { path: 'fits.md' } }),
    )) as Res;
    expect(small.result?.content?.map((b) => b.type)).toEqual(['text', 'resource']);
    expect(small.result?.content?.[0]?.text).toBe(
      'fits.md (text/markdown, 1000 B), embedded below.',
    );
  });

  it('the "read" tool says only "linked" when its reason for linking would not fit the cap', async () => {
    // So small a cap cannot carry the file whole either: the link is its first part.
    const link = {
      type: 'resource_link',
      uri: 'file:///fits.md?offset=0&length=1048576',
      name: 'fits.md',
      description:
        'fits.md: 1000 B, too large to read whole over this connection; this is its first part ' +
        '(read the next parts through _meta["dev.mcpkit/part"].next)',
      mimeType: 'text/markdown',
      size: 1000,
    };
    const fitted = [
      { type: 'text', text: 'fits.md (text/markdown, 1000 B), embedded below.' },
      link,
    ];
    const cap = wire(fitted) + 20;
    const server = createServer({ name: 'cap', version: '1', content: { capBytes: cap } });
    serveFolder(server, { root: dir });
    const res = (await connectInMemory(server).send(
      modern('tools/call', { name: 'read', arguments: { path: 'fits.md' } }),
    )) as Res;
    expect(res.result?.content).toEqual([
      { type: 'text', text: 'fits.md (text/markdown, 1000 B) is linked.' },
      link,
    ]);
    expect(wire(res.result?.content)).toBeLessThanOrEqual(cap);
  });

  it('"review-file" sizes the file with its instructions and says clearly when they do not fit', async () => {
    const fits = (await tight.send(
      modern('prompts/get', { name: 'review-file', arguments: { path: 'fits.md' } }),
    )) as Res;
    expect(fits.result?.messages).toHaveLength(2);
    const window = (await tight.send(
      modern('prompts/get', { name: 'review-file', arguments: { path: 'window.md' } }),
    )) as Res;
    expect(window.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(
        /^review-file: window\.md \(7\.5 KiB\) cannot be embedded: .*with the review instructions.*"read" tool/,
      ),
      data: { path: 'window.md', size: CAP - 300, capBytes: CAP, reason: 'too-large' },
    });
  });
});
