import { describe, expect, it } from 'vitest';
import { connectInMemory } from '../transports/memory.js';
import { modern } from '../testing/messages.js';
import { createServer } from './server.js';

const MiB = 1024 * 1024;

/** A template whose resources are sized by `stat`, counting the reads. */
function setup(capBytes?: number) {
  const server = createServer({
    name: 's',
    version: '1',
    ...(capBytes ? { content: { capBytes } } : {}),
  });
  const reads: string[] = [];
  server.resource(
    'blob://{id}',
    {
      name: 'blob',
      stat: (_uri, { id }) =>
        id === 'big'
          ? { size: 64 * MiB, mimeType: 'application/x-big' }
          : id === 'small'
            ? { size: 5 }
            : undefined,
    },
    (uri, { id }) => {
      reads.push(uri);
      return id === 'small'
        ? { text: 'small', mimeType: 'text/plain' }
        : id === 'unsized'
          ? 'unsized'
          : undefined;
    },
  );
  server.tool(
    'attach',
    { input: { type: 'object', properties: { id: { type: 'string' } } } },
    ({ id }: { id: string }, ctx) => ctx.result(ctx.attach(`blob://${id}`)),
  );
  server.tool('cap', {}, (_a, ctx) => String(ctx.capBytes));
  return { server, reads, conn: connectInMemory(server) };
}

describe('template stat: sizes without reading', () => {
  it('links a large resource with the size and type from stat, never reading it', async () => {
    const { conn, reads } = setup();
    const res = await conn.send(modern('tools/call', { name: 'attach', arguments: { id: 'big' } }));
    expect(res).toMatchObject({
      result: {
        content: [
          {
            type: 'resource_link',
            uri: 'blob://big',
            size: 64 * MiB,
            mimeType: 'application/x-big',
          },
        ],
      },
    });
    expect(reads).toEqual([]);
  });

  it('still reads what it embeds, and what stat cannot size', async () => {
    const { conn, reads } = setup();
    expect(
      await conn.send(modern('tools/call', { name: 'attach', arguments: { id: 'small' } })),
    ).toMatchObject({
      result: { content: [{ type: 'resource', resource: { uri: 'blob://small', text: 'small' } }] },
    });
    expect(
      await conn.send(modern('tools/call', { name: 'attach', arguments: { id: 'unsized' } })),
    ).toMatchObject({
      result: {
        content: [{ type: 'resource', resource: { uri: 'blob://unsized', text: 'unsized' } }],
      },
    });
    expect(reads).toEqual(['blob://small', 'blob://unsized']);
  });

  it('keeps stat off the wire', async () => {
    const { conn } = setup();
    const res = (await conn.send(modern('resources/templates/list'))) as unknown as {
      result: { resourceTemplates: object[] };
    };
    expect(res.result.resourceTemplates).toEqual([{ uriTemplate: 'blob://{id}', name: 'blob' }]);
  });
});

describe('ctx.capBytes', () => {
  it('is the transport cap less the envelope, or content.capBytes', async () => {
    const text = (res: unknown) =>
      (res as { result: { content: Array<{ text: string }> } }).result.content[0]?.text;
    expect(text(await setup().conn.send(modern('tools/call', { name: 'cap' })))).toBe(
      String(32 * MiB - 1024),
    );
    expect(text(await setup(5000).conn.send(modern('tools/call', { name: 'cap' })))).toBe('5000');
  });
});
