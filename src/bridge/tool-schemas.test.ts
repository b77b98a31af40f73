import { describe, expect, it } from 'vitest';
import { McpClient } from '../client/index.js';
import { DEFAULT_MAX_LIST_ITEMS } from '../client/options.js';
import type { Tool } from '../protocol/index.js';
import { createServer } from '../server/index.js';
import { MemoryClientTransport } from '../testing/memory-client-transport.js';
import { createBridge } from './create-bridge.js';
import { ToolSchemas } from './tool-schemas.js';

const PAGE = 1000;

/** A schema whose `q` argument is mirrored in an `Mcp-Param-Q` header (what the edge checks). */
const schema = (tag: string): Tool['inputSchema'] => ({
  type: 'object',
  properties: { q: { type: 'string', 'x-mcp-header': 'Q', description: tag } },
});

describe('the bridge keeps the schemas of the tools its upstream lists', () => {
  it('keeps as many names as a host takes in one listing; one more pushes out the oldest', async () => {
    // An upstream that lists `current` (registering 50,000 tools one by one takes long).
    let current: Tool[] = [];
    const upstream = createServer({ name: 'up', version: '1' });
    upstream.tool('seed', {}, () => 'ok');
    const connect = upstream.connect.bind(upstream);
    upstream.connect = (options) => {
      const peer = connect(options);
      const inner = peer.handle.bind(peer);
      peer.handle = async (raw, extra) => {
        const request = raw as { id: number; method: string };
        if (request.method !== 'tools/list') return inner(raw, extra);
        const answer = (await inner(raw, extra)) as { result: Record<string, unknown> };
        return { ...answer, result: { ...answer.result, tools: current } } as never;
      };
      return peer;
    };
    const bridge = await createBridge({
      transport: new MemoryClientTransport(upstream),
      client: { era: 'modern' },
      profile: { name: 'passthrough', readsResources: true },
    });
    const host = await new McpClient({
      transport: new MemoryClientTransport(bridge.server),
      era: 'modern',
      cache: false,
    }).connect();
    // Names that change on every listing (a version in them, a hostile upstream): each listing
    // shows only the newest ones.
    const list = async (round: number, count: number) => {
      current = Array.from({ length: count }, (_, i) => ({
        name: `t${round}-${i}`,
        inputSchema: schema(`${round}`),
      }));
      const page = await host.request('tools/list', {});
      expect((page['tools'] as Tool[]).length).toBe(count);
    };
    const rounds = DEFAULT_MAX_LIST_ITEMS / PAGE;
    for (let round = 0; round < rounds; round++) await list(round, PAGE);
    const schemaOf = (name: string) => bridge.server.toolInputSchema(name);
    expect(schemaOf('t0-0')).toEqual(schema('0'));
    expect(schemaOf(`t${rounds - 1}-${PAGE - 1}`)).toEqual(schema(`${rounds - 1}`));
    await list(rounds, 1);
    // The first name listed, long gone upstream, goes; the next is still kept.
    expect(schemaOf('t0-0')).toBeUndefined();
    expect(schemaOf('t0-1')).toEqual(schema('0'));
    expect(schemaOf(`t${rounds}-0`)).toEqual(schema(`${rounds}`));
    await host.close();
    await bridge.close();
  }, 60_000);
});

describe('ToolSchemas', () => {
  const tool = (name: string, size = 0): Tool => ({
    name,
    inputSchema: { type: 'object', ...(size ? { description: 'x'.repeat(size) } : {}) },
  });
  /** Bytes one entry costs: its schema's JSON and its name. */
  const cost = (t: Tool) => JSON.stringify(t.inputSchema).length + t.name.length;

  it('keeps at most maxNames, the least recently listed first out', () => {
    const kept = new ToolSchemas(3, 1_000_000);
    kept.setAll([tool('a'), tool('b'), tool('c')]);
    expect(kept.size).toBe(3);
    kept.setAll([tool('a')]);
    kept.setAll([tool('d')]);
    expect(['a', 'b', 'c', 'd'].map((n) => kept.get(n) !== undefined)).toEqual([
      true,
      false,
      true,
      true,
    ]);
  });

  it('keeps at most maxBytes: exactly at the bound all stay, a byte over the oldest goes', () => {
    const [a, b, c] = [tool('a', 10), tool('b', 20), tool('c', 30)];
    const kept = new ToolSchemas(100, cost(a) + cost(b) + cost(c));
    kept.setAll([a, b, c]);
    expect(kept.size).toBe(3);
    kept.setAll([tool('d')]);
    expect(kept.get('a')).toBeUndefined();
    expect(kept.get('b')).toBeDefined();
    // One schema over the whole bound is not kept, and pushes nothing out.
    kept.setAll([tool('huge', 1000)]);
    expect(kept.get('huge')).toBeUndefined();
    expect(kept.size).toBe(3);
  });

  it('a name listed again with another schema has the new one', () => {
    const kept = new ToolSchemas();
    kept.setAll([tool('a', 1)]);
    kept.setAll([tool('a', 2)]);
    expect(kept.get('a')).toEqual(tool('a', 2).inputSchema);
    expect(kept.size).toBe(1);
  });
});
