import { describe, expect, it } from 'vitest';
import { connectInMemory } from '../transports/memory.js';
import { modern, legacy, initializeRequest } from '../testing/messages.js';
import { MemoryLinkStore } from './link-store.js';
import { createServer } from './server.js';
import type { ServerOptions } from './options.js';

const MiB = 1024 * 1024;

function setup(options: Partial<ServerOptions> = {}) {
  const server = createServer({ name: 's', version: '1', ...options });
  server.resource('mem://small', { name: 'small', mimeType: 'text/plain' }, () => 'small text');
  server.resource(
    'mem://large',
    { name: 'large', mimeType: 'application/octet-stream', size: 2 * MiB },
    () => ({ blob: Buffer.alloc(2 * MiB).toString('base64') }),
  );
  server.tool('report', {}, (_a, ctx) =>
    ctx.result(
      { type: 'text', text: 'Here:' },
      ctx.attach('mem://small'),
      ctx.attach('mem://large'),
    ),
  );
  server.tool('artifact', {}, (_a, ctx) =>
    ctx.result(
      ctx.attach({ name: 'out.csv', mimeType: 'text/csv', text: 'a,b\n'.repeat(400_000) }),
    ),
  );
  server.tool('dangling', {}, () => [{ type: 'resource_link', uri: 'mem://nowhere', name: 'x' }]);
  server.prompt('review', {}, async (_a, ctx) =>
    ctx.messages(
      { role: 'user', content: await ctx.embed('mem://small') },
      { role: 'user', content: { type: 'text', text: 'Review it.' } },
    ),
  );
  server.prompt('too-big', {}, async (_a, ctx) =>
    ctx.messages({ role: 'user', content: await ctx.embed('mem://large') }),
  );
  return { server, conn: connectInMemory(server) };
}

describe('ctx.result, ctx.embed and the link guarantee', () => {
  it('embeds the small resource and links the large one', async () => {
    const { conn } = setup({ content: { blockBudgetBytes: MiB } });
    const res = await conn.send(modern('tools/call', { name: 'report' }));
    expect(res).toMatchObject({
      result: {
        content: [
          { type: 'text', text: 'Here:' },
          {
            type: 'resource',
            resource: { uri: 'mem://small', mimeType: 'text/plain', text: 'small text' },
          },
          {
            type: 'resource_link',
            uri: 'mem://large',
            name: 'large',
            size: 2 * MiB,
            mimeType: 'application/octet-stream',
          },
        ],
      },
    });
  });

  it('explains decisions in _meta when asked, and reports them to onDecision', async () => {
    const seen: string[] = [];
    const { conn } = setup({
      content: {
        explain: true,
        onDecision: (r, m) => seen.push(`${m}:${r.name}:${r.decision.reason}`),
      },
    });
    const res = (await conn.send(modern('tools/call', { name: 'report' }))) as unknown as {
      result: { _meta: Record<string, unknown> };
    };
    expect(res.result._meta['dev.mcpkit/decisions']).toEqual([
      expect.objectContaining({ uri: 'mem://small', kind: 'embed', reason: 'fits' }),
      expect.objectContaining({ uri: 'mem://large', kind: 'link', reason: 'over-block-budget' }),
    ]);
    expect(res.result._meta['io.modelcontextprotocol/serverInfo']).toBeDefined();
    expect(seen).toEqual(['tools/call:small:fits', 'tools/call:large:over-block-budget']);
  });

  it('puts a large artifact in the link store; the link reads back; an expired one says so', async () => {
    let clock = Date.now();
    const store = new MemoryLinkStore({ ttlMs: 60_000, now: () => clock });
    const { conn } = setup({ linkStore: store });
    const res = (await conn.send(modern('tools/call', { name: 'artifact' }))) as unknown as {
      result: { content: Array<{ type: string; uri: string }> };
    };
    const link = res.result.content[0]!;
    expect(link).toMatchObject({ type: 'resource_link', name: 'out.csv', mimeType: 'text/csv' });
    expect(link.uri).toMatch(/^mcpkit:\/\/artifacts\/[0-9a-f]{64}$/);
    // Unguessable: another store (another secret) gives the same content another URI.
    const other = new MemoryLinkStore();
    expect(await other.uriFor({ mimeType: 'text/csv', text: 'a,b\n'.repeat(400_000) })).not.toBe(
      link.uri,
    );
    expect(await store.uriFor({ mimeType: 'text/csv', text: 'a,b\n'.repeat(400_000) })).toBe(
      link.uri,
    );
    const read = await conn.send(modern('resources/read', { uri: link.uri }));
    expect(read).toMatchObject({
      result: {
        contents: [{ uri: link.uri, mimeType: 'text/csv', text: 'a,b\n'.repeat(400_000) }],
      },
    });
    clock += 60_001;
    expect(await conn.send(modern('resources/read', { uri: link.uri }))).toMatchObject({
      error: { code: -32602, message: expect.stringContaining('expired'), data: { uri: link.uri } },
    });
  });

  it('catches a link that nothing serves (error by default, warning when configured)', async () => {
    const a = setup();
    const errors: unknown[] = [];
    a.server.options.onError = (e) => errors.push(e);
    expect(await a.conn.send(modern('tools/call', { name: 'dangling' }))).toMatchObject({
      error: { code: -32603, message: expect.stringContaining('mem://nowhere') },
    });
    const warnings: string[] = [];
    const b = setup({ content: { linkCheck: 'warn' }, onWarning: (m) => warnings.push(m) });
    expect(await b.conn.send(modern('tools/call', { name: 'dangling' }))).toMatchObject({
      result: { content: [{ uri: 'mem://nowhere' }] },
    });
    expect(warnings[0]).toContain('mem://nowhere');
  });

  it('embeds a required resource in a prompt, and fails clearly when it cannot fit', async () => {
    const { conn } = setup({ content: { capBytes: MiB } });
    expect(await conn.send(modern('prompts/get', { name: 'review' }))).toMatchObject({
      result: {
        messages: [
          {
            role: 'user',
            content: { type: 'resource', resource: { uri: 'mem://small', text: 'small text' } },
          },
          { content: { text: 'Review it.' } },
        ],
      },
    });
    const errors: unknown[] = [];
    const s = setup({ content: { capBytes: MiB }, onError: (e) => errors.push(e) });
    const res = await s.conn.send(modern('prompts/get', { name: 'too-big' }));
    expect(res).toMatchObject({ error: { code: -32603 } });
    expect(String((errors[0] as Error).message)).toMatch(
      /required resource "large" \(mem:\/\/large\) cannot be embedded/,
    );
  });

  it('uses the transport cap: a small stdio line cap links what would not fit', async () => {
    const { server } = setup({
      content: { resultBudgetBytes: 64 * MiB, blockBudgetBytes: 64 * MiB },
    });
    const peer = server.connect({ transport: 'memory', send: () => {}, maxMessageBytes: MiB });
    const res = await peer.handle(modern('tools/call', { name: 'report' }));
    expect(res).toMatchObject({
      result: {
        content: [{}, { type: 'resource' }, { type: 'resource_link', uri: 'mem://large' }],
      },
    });
  });

  it('answers -32002 for an unknown artifact in the legacy era', async () => {
    const { conn } = setup();
    await conn.send(initializeRequest());
    expect(
      await conn.send(legacy('resources/read', { uri: `mcpkit://artifacts/${'0'.repeat(64)}` })),
    ).toMatchObject({ error: { code: -32002 } });
  });
});

describe('URIs we emit', () => {
  it('refuses content with an invalid URI, whatever linkCheck says', async () => {
    const server = createServer({
      name: 's',
      version: '1',
      content: { linkCheck: 'off' },
      onError: () => {},
    });
    server.tool('bad', {}, () => [{ type: 'resource', resource: { uri: 'not a uri', text: 'x' } }]);
    const conn = connectInMemory(server);
    expect(await conn.send(modern('tools/call', { name: 'bad' }))).toMatchObject({
      error: {
        code: -32603,
        message: expect.stringContaining('content[0] with an invalid URI "not a uri"'),
      },
    });
  });
});

describe('the debug log', () => {
  it('writes one line per decision to stderr when MCPKIT_DEBUG names policy', async () => {
    const { conn } = setup();
    const lines: string[] = [];
    const original = console.error;
    console.error = (line: string) => lines.push(line);
    process.env['MCPKIT_DEBUG'] = 'transport,policy';
    try {
      await conn.send(modern('tools/call', { name: 'report' }));
    } finally {
      delete process.env['MCPKIT_DEBUG'];
      console.error = original;
    }
    expect(lines).toEqual([
      expect.stringMatching(
        /^mcpkit policy: tools\/call small <mem:\/\/small> -> embed \(fits\): /,
      ),
      expect.stringMatching(
        /^mcpkit policy: tools\/call large <mem:\/\/large> -> link \(over-block-budget\): .*per-block budget/,
      ),
    ]);
    await conn.send(modern('tools/call', { name: 'report' }));
    expect(lines).toHaveLength(2);
  });
});

describe('blobs from read handlers', () => {
  it('repairs a line-wrapped blob and sizes it by its decoded bytes', async () => {
    const server = createServer({ name: 's', version: '1', content: { blockBudgetBytes: 10 } });
    const b64 = Buffer.alloc(100, 1).toString('base64');
    server.resource(
      'mem://wrapped',
      { name: 'wrapped', mimeType: 'application/octet-stream' },
      () => ({ blob: `${b64.slice(0, 60)}\n${b64.slice(60)}` }),
    );
    server.resource('mem://junk', { name: 'junk', mimeType: 'application/octet-stream' }, () => ({
      blob: '"not base64"',
    }));
    server.tool(
      'get',
      { input: { type: 'object', properties: { uri: { type: 'string' } } } },
      ({ uri }: { uri: string }, ctx) => ctx.result(ctx.attach(uri)),
    );
    const conn = connectInMemory(server);
    expect(
      await conn.send(modern('tools/call', { name: 'get', arguments: { uri: 'mem://wrapped' } })),
    ).toMatchObject({
      result: { content: [{ type: 'resource_link', uri: 'mem://wrapped', size: 100 }] },
    });
    expect(
      await conn.send(modern('tools/call', { name: 'get', arguments: { uri: 'mem://junk' } })),
    ).toMatchObject({
      result: { isError: true, content: [{ text: expect.stringContaining('not base64') }] },
    });
  });
});
