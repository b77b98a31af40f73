import { describe, expect, it } from 'vitest';
import type { Era } from '../../protocol/versions.js';
import { rejection, testEnv, testServer } from '../../testing/server-core.js';
import { lister, pageSize } from './lists.js';
import { toolMethods } from './tools.js';

type Page = { items: string[]; nextCursor?: string };

/** A lister over a fixed list of names, as `{ items, nextCursor }`. */
function listerOver(names: () => readonly string[], seenEras: Era[] = []) {
  return lister(
    'items',
    'things/list',
    async (_core, era) => (seenEras.push(era), names()),
    (name) => name,
  );
}

describe('pageSize', () => {
  it('is 100 by default, else the server option', () => {
    expect(pageSize(testServer().core)).toBe(100);
    expect(pageSize(testServer({ pageSize: 7 }).core)).toBe(7);
  });
});

describe('lister', () => {
  it('puts everything on one page, without a cursor, when it fits', async () => {
    const { core } = testServer();
    const run = listerOver(() => ['a', 'b']);
    expect(await run({}, testEnv(core))).toEqual({ items: ['a', 'b'] });
  });

  it('pages with the cursor it hands out, until the last page has none', async () => {
    const { core } = testServer({ pageSize: 2 });
    const run = listerOver(() => ['a', 'b', 'c', 'd', 'e']);
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = (await run(cursor ? { cursor } : {}, testEnv(core))) as Page;
      pages.push(page.items);
      cursor = page.nextCursor;
    } while (cursor && pages.length < 10);
    expect(pages).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('continues after the last item served when an earlier one is removed', async () => {
    const { core } = testServer({ pageSize: 2 });
    let names = ['a', 'b', 'c', 'd', 'e'];
    const run = listerOver(() => names);
    const first = (await run({}, testEnv(core))) as Page;
    names = names.filter((n) => n !== 'a');
    const second = (await run({ cursor: first.nextCursor }, testEnv(core))) as Page;
    expect(second.items).toEqual(['c', 'd']);
  });

  it.each(['garbage', '', 'eyJvIjotMSwiayI6ImEifQ', 'eyJvIjoxfQ'])(
    'fails the cursor %j with -32602 naming the method',
    async (cursor) => {
      const { core } = testServer();
      const error = await rejection(listerOver(() => ['a'])({ cursor }, testEnv(core)));
      expect(error).toMatchObject({
        code: -32602,
        message: 'things/list: params.cursor is not a cursor this server issued',
        data: { cursor },
      });
    },
  );

  it("gives the item source the request's era", async () => {
    const { core } = testServer();
    const eras: Era[] = [];
    const run = listerOver(() => [], eras);
    await run({}, testEnv(core, { era: 'legacy' }));
    await run({}, testEnv(core));
    expect(eras).toEqual(['legacy', 'modern']);
  });

  it('pages a real list method (tools/list) under the field it names', async () => {
    const { server, core } = testServer({ pageSize: 1 });
    server.tool('one', {}, () => '1');
    server.tool('two', {}, () => '2');
    const run = toolMethods['tools/list']!.run;
    const first = (await run({}, testEnv(core))) as {
      tools: Array<{ name: string }>;
      nextCursor: string;
    };
    expect(first.tools.map((t) => t.name)).toEqual(['one']);
    const second = await run({ cursor: first.nextCursor }, testEnv(core));
    expect(second).toEqual({ tools: [expect.objectContaining({ name: 'two' })] });
  });
});
