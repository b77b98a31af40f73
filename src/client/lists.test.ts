import { describe, expect, it } from 'vitest';
import { ScriptedTransport, result, rpcError } from '../testing/scripted-transport.js';
import { McpClient } from './client.js';
import { collect, paginate, type ListLimits } from './lists.js';

type Obj = Record<string, unknown>;

const limits = (maxPages: number, more: Partial<ListLimits> = {}): ListLimits => ({
  maxPages,
  maxItems: 50_000,
  maxBytes: 64 * 1024 * 1024,
  maxCursorBytes: 64 * 1024,
  ...more,
});

const page = (names: string[], nextCursor?: string): Obj => ({
  prompts: names.map((name) => ({ name })),
  ...(nextCursor === undefined ? {} : { nextCursor }),
});

describe('paginate', () => {
  it('follows nextCursor until it is absent; "" is a cursor too', async () => {
    const pages: Record<string, Obj> = {
      start: page(['a', 'b'], ''),
      '': page(['c'], 'p3'),
      p3: page([]),
    };
    const asked: (string | undefined)[] = [];
    const names = await collect(
      paginate<{ name: string }>(
        'prompts/list',
        async (cursor) => {
          asked.push(cursor);
          return pages[cursor ?? 'start']!;
        },
        limits(10),
      ),
    );
    expect(names.map((p) => p.name)).toEqual(['a', 'b', 'c']);
    expect(asked).toEqual([undefined, '', 'p3']);
  });

  it('a never-ending cursor ends with PAGE_LIMIT at maxPages', async () => {
    let n = 0;
    const seen: string[] = [];
    const iterate = async () => {
      for await (const p of paginate<{ name: string }>(
        'prompts/list',
        async () => page([`x${n}`], `c${++n}`),
        limits(5),
      ))
        seen.push(p.name);
    };
    await expect(iterate()).rejects.toMatchObject({
      code: 'PAGE_LIMIT',
      message: expect.stringContaining('5'),
    });
    expect(n).toBe(5);
    expect(seen).toHaveLength(5);
  });

  it('a repeated cursor is PAGE_LIMIT early', async () => {
    let n = 0;
    await expect(
      collect(
        paginate('prompts/list', async () => page([`x${n++}`], n % 2 ? 'a' : 'b'), limits(1000)),
      ),
    ).rejects.toMatchObject({ code: 'PAGE_LIMIT', message: expect.stringContaining('repeated') });
    expect(n).toBe(3);
  });

  it('past maxItems: LIST_TOO_LARGE naming the limit, before the page is yielded', async () => {
    let n = 0;
    const seen: string[] = [];
    const run = async () => {
      for await (const p of paginate<{ name: string }>(
        'prompts/list',
        async () =>
          page(
            ['a', 'b', 'c'].map((x) => `${x}${n}`),
            `c${++n}`,
          ),
        limits(1000, { maxItems: 10 }),
        {
          names: {
            maxPages: 'P',
            maxItems: '--max-list-items',
            maxBytes: 'B',
            maxCursorBytes: 'C',
          },
        },
      ))
        seen.push(p.name);
    };
    await expect(run()).rejects.toMatchObject({
      code: 'LIST_TOO_LARGE',
      message: expect.stringContaining('past 10 entries (--max-list-items)'),
    });
    expect(seen).toHaveLength(9);
    expect(n).toBe(4);
  });

  it('past maxBytes: LIST_TOO_LARGE naming maxListBytes', async () => {
    let n = 0;
    const big = 'x'.repeat(400);
    await expect(
      collect(
        paginate(
          'prompts/list',
          async () => page([big + n], `c${++n}`),
          limits(1000, { maxBytes: 2000 }),
        ),
      ),
    ).rejects.toMatchObject({
      code: 'LIST_TOO_LARGE',
      message: expect.stringMatching(/prompts\/list: .*past 2000 bytes \(maxListBytes\)/),
    });
    expect(n).toBe(5);
  });

  it('a cursor over maxCursorBytes is refused, never followed', async () => {
    const asked: (string | undefined)[] = [];
    await expect(
      collect(
        paginate(
          'prompts/list',
          async (cursor) => {
            asked.push(cursor);
            return page(['a'], cursor === undefined ? 'ok' : 'é'.repeat(600));
          },
          limits(1000, { maxCursorBytes: 1000 }),
        ),
      ),
    ).rejects.toMatchObject({
      code: 'LIST_TOO_LARGE',
      message: expect.stringContaining('a cursor of 1200 bytes, over 1000 (maxCursorBytes)'),
    });
    expect(asked).toEqual([undefined, 'ok']);
  });
});

describe('list iterators on the client', () => {
  const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });
  const meta = { resultType: 'complete', ttlMs: 0, cacheScope: 'public' };

  it('sends the cursor the server gave, and collects every page', async () => {
    const t = new ScriptedTransport().modern().onRequest('tools/list', (m) => {
      const cursor = m.params?.['cursor'];
      return result(
        cursor === undefined
          ? { tools: [tool('a')], nextCursor: 'n1', ...meta }
          : { tools: [tool(`b-${String(cursor)}`)], ...meta },
      );
    });
    const c = await new McpClient({ transport: t }).connect();
    expect((await c.listTools()).map((x) => x.name)).toEqual(['a', 'b-n1']);
    expect(t.requests('tools/list').map((r) => r.params['cursor'])).toEqual([undefined, 'n1']);
  });

  it('for await over resources, prompts and templates', async () => {
    const t = new ScriptedTransport()
      .modern()
      .onRequest('resources/list', result({ resources: [{ uri: 'mem://a', name: 'a' }], ...meta }))
      .onRequest('prompts/list', result({ prompts: [{ name: 'p' }], ...meta }))
      .onRequest(
        'resources/templates/list',
        result({ resourceTemplates: [{ uriTemplate: 'mem://{x}', name: 'x' }], ...meta }),
      );
    const c = await new McpClient({ transport: t }).connect();
    const uris: string[] = [];
    for await (const r of c.resources()) uris.push(r.uri);
    expect(uris).toEqual(['mem://a']);
    expect((await c.listPrompts()).map((p) => p.name)).toEqual(['p']);
    expect((await c.listResourceTemplates()).map((r) => r.uriTemplate)).toEqual(['mem://{x}']);
  });

  it('a server whose cursor never ends: PAGE_LIMIT at maxPages', async () => {
    let n = 0;
    const t = new ScriptedTransport()
      .modern()
      .onRequest('tools/list', () => result({ tools: [], nextCursor: `c${n++}`, ...meta }));
    const c = await new McpClient({ transport: t, maxPages: 7 }).connect();
    await expect(c.listTools()).rejects.toMatchObject({ code: 'PAGE_LIMIT' });
    expect(t.requests('tools/list')).toHaveLength(7);
  });

  it('listTools() past maxListItems rejects with LIST_TOO_LARGE naming maxListItems', async () => {
    let n = 0;
    const t = new ScriptedTransport()
      .modern()
      .onRequest('tools/list', () =>
        result({ tools: [tool(`a${n}`), tool(`b${n}`)], nextCursor: `c${n++}`, ...meta }),
      );
    const c = await new McpClient({ transport: t, maxListItems: 5 }).connect();
    await expect(c.listTools()).rejects.toMatchObject({
      code: 'LIST_TOO_LARGE',
      message: expect.stringContaining('maxListItems'),
    });
    expect(t.requests('tools/list')).toHaveLength(3);
  });

  it('a failing page fails the iteration with the server error', async () => {
    const t = new ScriptedTransport()
      .modern()
      .onRequests('tools/list', [
        result({ tools: [tool('a')], nextCursor: 'x', ...meta }),
        rpcError(-32602, 'Invalid cursor'),
      ]);
    const c = await new McpClient({ transport: t }).connect();
    const seen: string[] = [];
    const run = async () => {
      for await (const x of c.tools()) seen.push(x.name);
    };
    await expect(run()).rejects.toMatchObject({ code: -32602 });
    expect(seen).toEqual(['a']);
  });
});
