import { describe, expect, it } from 'vitest';
import { preEncodedOf } from '../protocol/pre-encoded.js';
import { modern } from '../testing/messages.js';
import { connectInMemory } from '../transports/memory.js';
import { encodeMessage } from '../transports/oversize.js';
import { createServer } from './server.js';

function setup(ttlMs?: number) {
  let generation: number | undefined = 1;
  const runs: string[] = [];
  const server = createServer({ name: 's', version: '1' });
  const memo = { generation: () => generation, ...(ttlMs !== undefined ? { ttlMs } : {}) };
  server.tool(
    'echo',
    { input: { type: 'object', properties: { q: { type: 'string' } } }, memo },
    (args) => (runs.push(`tool ${String(args['q'])}`), `echo ${String(args['q'])} @${generation}`),
  );
  server.prompt('ask', { arguments: [{ name: 'q' }], memo }, async ({ q }, ctx) => {
    runs.push(`prompt ${q}`);
    if (q === 'ask') {
      const { who } = await ctx.ask({
        who: {
          method: 'elicitation/create',
          params: { message: 'Who?', requestedSchema: { type: 'object', properties: {} } },
        },
      });
      return `asked: ${String(who['action'])}`;
    }
    return `prompt ${q}`;
  });
  return {
    conn: connectInMemory(server),
    runs,
    bump: (g: number | undefined) => (generation = g),
  };
}

const call = (q: string, id?: number | string) => ({
  ...modern('tools/call', { name: 'echo', arguments: { q } }),
  ...(id !== undefined ? { id } : {}),
});

describe('memo of tools and prompts', () => {
  it('answers the same call at the same generation from the kept encoding, without the handler', async () => {
    const { conn, runs } = setup();
    const first = await conn.send(call('a', 1));
    const second = await conn.send(call('a', 'two'));
    expect(runs).toEqual(['tool a']);
    expect(preEncodedOf(second?.['result' as never])).toBe(
      preEncodedOf(first?.['result' as never]),
    );
    expect(
      encodeMessage(second as never)
        .parts.map((p) => (typeof p === 'string' ? p : Buffer.from(p as Uint8Array).toString()))
        .join(''),
    ).toBe(JSON.stringify(second));
    expect(JSON.parse(JSON.stringify(second))).toMatchObject({
      id: 'two',
      result: { content: [{ text: 'echo a @1' }], resultType: 'complete' },
    });
    await conn.send(call('b'));
    expect(runs).toEqual(['tool a', 'tool b']);
    const listed = await conn.send(modern('tools/list'));
    expect(JSON.stringify(listed)).not.toContain('memo');
  });

  it('builds anew at a new generation, every time without one, and after its lifetime', async () => {
    const { conn, runs, bump } = setup(20);
    await conn.send(call('a'));
    bump(2);
    expect(JSON.stringify(await conn.send(call('a')))).toContain('echo a @2');
    bump(undefined);
    await conn.send(call('a'));
    await conn.send(call('a'));
    expect(runs).toEqual(['tool a', 'tool a', 'tool a', 'tool a']);
    bump(3);
    await conn.send(call('a'));
    await new Promise((r) => setTimeout(r, 40));
    await conn.send(call('a'));
    expect(runs).toHaveLength(6);
  });

  it('keeps nothing of a round that asked for input, or answered it', async () => {
    const { conn, runs } = setup();
    const caps = { elicitation: {} };
    const ask = () =>
      conn.send(modern('prompts/get', { name: 'ask', arguments: { q: 'ask' } }, caps));
    const round1 = (await ask()) as unknown as {
      result: { resultType: string; requestState: string };
    };
    expect(round1.result.resultType).toBe('input_required');
    const round2 = await conn.send(
      modern(
        'prompts/get',
        {
          name: 'ask',
          arguments: { q: 'ask' },
          inputResponses: { who: { action: 'decline' } },
          requestState: round1.result.requestState,
        },
        caps,
      ),
    );
    expect(JSON.stringify(round2)).toContain('asked: decline');
    // The same plain request asks again: the answer was not kept as the arguments' result.
    expect(((await ask()) as unknown as { result: { resultType: string } }).result.resultType).toBe(
      'input_required',
    );
    expect(runs).toEqual(['prompt ask', 'prompt ask', 'prompt ask']);
    // A prompt that asks nothing is kept like a tool.
    await conn.send(modern('prompts/get', { name: 'ask', arguments: { q: 'x' } }));
    await conn.send(modern('prompts/get', { name: 'ask', arguments: { q: 'x' } }));
    expect(runs.filter((r) => r === 'prompt x')).toHaveLength(1);
  });

  it('keeps nothing for a new registration of the name, long keys, unkeepable results or artifact links', async () => {
    const server = createServer({ name: 's', version: '1' });
    const conn = connectInMemory(server);
    const memo = { generation: () => 1 };
    const runs: string[] = [];
    const input = { type: 'object', properties: { q: { type: 'string' } } } as const;
    const off = server.tool('x', { input, memo }, () => (runs.push('old'), 'old'));
    const x = (q = 'a') => conn.send(modern('tools/call', { name: 'x', arguments: { q } }));
    await x();
    off();
    server.tool('x', { input, memo }, (args, ctx) => {
      runs.push(`new ${String(args['q']).length}`);
      if (args['q'] === 'volatile') ctx.keepable = false;
      if (args['q'] === 'artifact')
        return ctx.result(
          ctx.attach({ name: 'r.txt', mimeType: 'text/plain', text: 'r', mode: 'link' }),
        );
      return 'new';
    });
    expect(JSON.stringify(await x())).toContain('new');
    await x();
    const long = 'y'.repeat(5000);
    await x(long);
    await x(long);
    await x('volatile');
    await x('volatile');
    await x('artifact');
    await x('artifact');
    expect(runs).toEqual([
      'old',
      'new 1',
      'new 5000',
      'new 5000',
      'new 8',
      'new 8',
      'new 8',
      'new 8',
    ]);
  });
});
