import { describe, expect, it } from 'vitest';
import { connectInMemory } from '../transports/memory.js';
import { modern } from '../testing/messages.js';
import { createServer } from './server.js';

const GiB = 1024 * 1024 * 1024;

/** A store of one 1 GiB blob, read whole at `blob://{id}` or in parts at `blob://{id}{?offset}`. */
function setup() {
  const server = createServer({
    name: 's',
    version: '1',
    content: { capBytes: 100_000, linkCheck: 'error' },
  });
  const caps: Array<number | undefined> = [];
  server.resource(
    'blob://{id}',
    {
      name: 'blob',
      stat: (_uri, { id }, context) => {
        caps.push(context?.capBytes);
        if (id !== 'big') return undefined;
        const tooLarge = context !== undefined && GiB > context.capBytes;
        return {
          size: GiB,
          mimeType: 'text/plain',
          ...(tooLarge ? { firstPart: 'blob://big?offset=0' } : {}),
        };
      },
    },
    () => undefined,
  );
  server.resource(
    'blob://{id}{?offset}',
    { name: 'blob-parts', stat: () => ({ size: 4096 }) },
    () => ({ text: 'the first part', mimeType: 'text/plain' }),
  );
  server.tool('attach', {}, (_a, ctx) => ctx.result(ctx.attach('blob://big', { mode: 'link' })));
  server.tool('link', {}, async (_a, ctx) => [await ctx.link('blob://big')]);
  return { caps, conn: connectInMemory(server) };
}

describe('a stat that names a first part', () => {
  it('is told the request cap; ctx.attach and ctx.link then link the first part, sized as the part', async () => {
    const { caps, conn } = setup();
    for (const name of ['attach', 'link']) {
      const res = (await conn.send(modern('tools/call', { name }))) as {
        result?: { content: unknown[] };
      };
      expect(res.result?.content, name).toEqual([
        {
          type: 'resource_link',
          uri: 'blob://big?offset=0',
          name: 'big',
          description:
            'big: 1.00 GiB (1073741824 B), too large to read whole over this connection; this is ' +
            'its first part (read the next parts through _meta["dev.mcpkit/part"].next)',
          mimeType: 'text/plain',
          size: 4096,
        },
      ]);
    }
    expect(caps).toEqual([100_000, 100_000]);
  });

  it('keeps the link guarantee: the part link passes the link check and reads', async () => {
    const { conn } = setup();
    const res = (await conn.send(modern('tools/call', { name: 'attach' }))) as { error?: unknown };
    expect(res.error).toBeUndefined();
    expect(await conn.send(modern('resources/read', { uri: 'blob://big?offset=0' }))).toMatchObject(
      { result: { contents: [{ text: 'the first part' }] } },
    );
  });
});
