// The resolver's cache against a real mcpkit server and client (in memory): a read is kept for the
// server's ttlMs, and a resource-updated notification on an open listen stream drops it.
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/index.js';
import { LinkCache, Resolver } from '../../src/host/index.js';
import type { ResolvedLink } from '../../src/host/index.js';
import type { ContentBlock } from '../../src/protocol/index.js';
import { createServer } from '../../src/server/server.js';
import { MemoryClientTransport } from '../../src/testing/memory-client-transport.js';

const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function setup(era: 'modern' | 'legacy') {
  let version = 1;
  let reads = 0;
  const server = createServer({
    name: 'notes',
    version: '1',
    readCache: { ttlMs: 60_000, cacheScope: 'private' },
  });
  server.resource('note://today', { name: 'today', mimeType: 'text/plain' }, () => {
    reads++;
    return `version ${version}`;
  });
  const client = new McpClient({ transport: new MemoryClientTransport(server), era, cache: false });
  clients.push(client);
  await client.connect();
  const change = () => {
    version++;
    server.notifyResourceUpdated('note://today');
  };
  return { client, change, reads: () => reads };
}

const link = { type: 'resource_link', uri: 'note://today', name: 'today' } as ContentBlock;
const text = (r: { blocks: unknown[] }) => {
  const o = (r.blocks[0] as ResolvedLink).outcome;
  return `${o.source} ${o.contents?.[0]?.text}`;
};

describe('Resolver cache and listen streams', () => {
  it('a cached read is dropped when the resource changes (2026-07-28 listen stream)', async () => {
    const { client, change, reads } = await setup('modern');
    const stream = await client.listen({ resourceSubscriptions: ['note://today'] });
    const resolver = new Resolver(client, { select: 'all' });
    expect(text(await resolver.resolve([link]))).toBe('server version 1');
    expect(text(await resolver.resolve([link]))).toBe('cache version 1');
    expect(reads()).toBe(1);
    change();
    await stream[Symbol.asyncIterator]().next(); // the update reached the client
    expect(text(await resolver.resolve([link]))).toBe('server version 2');
    expect(reads()).toBe(2);
    resolver.close();
  });

  it('a 2025-11-25 server gives no ttlMs: nothing is cached, every turn reads again', async () => {
    const { client, reads } = await setup('legacy');
    const resolver = new Resolver(client, { select: 'all' });
    expect(text(await resolver.resolve([link]))).toBe('server version 1');
    expect(text(await resolver.resolve([link]))).toBe('server version 1');
    expect(reads()).toBe(2);
    resolver.close();
  });
});

describe('Resolver shared cache against a real server', () => {
  it('a `cacheScope: "public"` read is shared by the resolvers of one server key', async () => {
    let reads = 0;
    const server = createServer({
      name: 'docs',
      version: '1',
      readCache: { ttlMs: 60_000, cacheScope: 'public' },
    });
    server.resource('doc://readme', { name: 'readme', mimeType: 'text/plain' }, () => {
      reads++;
      return 'hello';
    });
    const open = async () => {
      const client = new McpClient({ transport: new MemoryClientTransport(server), cache: false });
      clients.push(client);
      return client.connect();
    };
    const cache = new LinkCache();
    const readme = { type: 'resource_link', uri: 'doc://readme', name: 'readme' } as ContentBlock;
    const first = new Resolver(await open(), { select: 'all' }, { cache, serverKey: 'docs' });
    const second = new Resolver(await open(), { select: 'all' }, { cache, serverKey: 'docs' });
    expect(text(await first.resolve([readme]))).toBe('server hello');
    expect(text(await second.resolve([readme]))).toBe('cache hello');
    expect(reads).toBe(1);
    first.close();
    second.close();
  });
});
