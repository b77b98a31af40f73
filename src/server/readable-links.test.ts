import { describe, expect, it } from 'vitest';
import { encodeBase64 } from '../content/blob.js';
import { modern } from '../testing/messages.js';
import { createServer } from './server.js';

type Obj = Record<string, unknown>;

function setup(readableLinks: boolean) {
  const server = createServer({ name: 'unit', version: '1', readableLinks, pageSize: 2 });
  server.resource(
    'mem://notes/a.md',
    { name: 'a', mimeType: 'text/markdown' },
    () => '# Ä\nexact “text”\n',
  );
  server.resource('mem://bin', { name: 'bin' }, () => ({
    blob: encodeBase64(new Uint8Array([0, 1, 2, 250, 251, 252])),
    mimeType: 'application/octet-stream',
  }));
  server.resource('mem://other', { name: 'zeta' }, () => 'z');
  const peer = server.connect({ transport: 'memory', send: () => undefined });
  const call = async (name: string, args: Obj): Promise<Obj> => {
    const res = (await peer.handle(modern('tools/call', { name, arguments: args }))) as {
      result: Obj;
    };
    return res.result;
  };
  const text = (r: Obj): string => (r['content'] as Array<{ text: string }>)[0]?.text as string;
  return { server, peer, call, text };
}

describe('readableLinks: true', () => {
  it('lists read_resource and list_resources only when asked for', () => {
    expect(
      setup(true)
        .server.registered()
        .tools.map((t) => t.name),
    ).toEqual(['read_resource', 'list_resources']);
    expect(setup(false).server.registered().tools).toEqual([]);
  });

  it('read_resource gives the exact text, a blob as base64, and byte ranges as base64', async () => {
    const { call, text } = setup(true);
    expect(text(await call('read_resource', { uri: 'mem://notes/a.md' }))).toBe(
      '# Ä\nexact “text”\n',
    );
    expect(text(await call('read_resource', { uri: 'mem://bin' }))).toBe(
      encodeBase64(new Uint8Array([0, 1, 2, 250, 251, 252])),
    );
    const range = await call('read_resource', { uri: 'mem://bin', offset: 2, length: 3 });
    expect(Buffer.from(text(range), 'base64')).toEqual(Buffer.from([2, 250, 251]));
    expect(range['_meta']).toMatchObject({ 'dev.mcpkit/range': { offset: 2, length: 3, size: 6 } });
    // Ä is two bytes in UTF-8: the range counts bytes, not characters.
    const utf8 = await call('read_resource', { uri: 'mem://notes/a.md', offset: 2, length: 2 });
    expect(Buffer.from(text(utf8), 'base64').toString('utf8')).toBe('Ä');
  });

  it('read_resource of an unknown URI or a bad range is a tool error naming it', async () => {
    const { call, text } = setup(true);
    const missing = await call('read_resource', { uri: 'mem://nope' });
    expect(missing['isError']).toBe(true);
    const past = await call('read_resource', { uri: 'mem://bin', offset: 99 });
    expect(past['isError']).toBe(true);
    expect(text(past)).toContain('offset 99');
  });

  it('list_resources pages with the server cursor and filters by query', async () => {
    const { call } = setup(true);
    const first = (await call('list_resources', {}))['structuredContent'] as {
      resources: Obj[];
      nextCursor?: string;
    };
    expect(first.resources).toHaveLength(2);
    expect(typeof first.nextCursor).toBe('string');
    const second = (await call('list_resources', { cursor: first.nextCursor }))[
      'structuredContent'
    ] as { resources: Obj[] };
    expect(second.resources.map((r) => r['uri'])).toEqual(['mem://other']);
    const found = (await call('list_resources', { query: 'ZETA', cursor: first.nextCursor }))[
      'structuredContent'
    ] as { resources: Obj[] };
    expect(found.resources.map((r) => r['name'])).toEqual(['zeta']);
  });
});
