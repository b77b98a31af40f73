import { describe, expect, it } from 'vitest';
import { McpKitError, ProtocolError } from '../errors/index.js';
import type { ContentBlock, ReadResourceResult } from '../protocol/index.js';
import { LinkCache } from './link-cache.js';
import { Resolver, resolve } from './resolver.js';
import type { LinkInfo, ResolvedEmbedded, ResolvedLink, ResolverClient } from './types.js';

type Served = Record<string, ReadResourceResult | Error>;

/** A client whose server serves `served`; it counts reads and the most in flight at once. */
function fakeClient(served: Served, name = 'fake') {
  let listener: ((n: { method: string; params?: Record<string, unknown> }) => void) | undefined;
  const stats = { reads: [] as string[], inFlight: 0, maxInFlight: 0 };
  const client: ResolverClient = {
    serverInfo: { name, version: '1.0.0' },
    async readResource(uri) {
      stats.reads.push(uri);
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      await new Promise((r) => setTimeout(r, 2));
      stats.inFlight--;
      const answer = served[uri];
      if (answer === undefined) throw new ProtocolError(-32602, `Resource not found: ${uri}`);
      if (answer instanceof Error) throw answer;
      return answer;
    },
    addNotificationListener(l) {
      listener = l;
      return () => (listener = undefined);
    },
  };
  return {
    client,
    stats,
    notify: (uri: string) =>
      listener?.({ method: 'notifications/resources/updated', params: { uri } }),
  };
}

const text = (uri: string, body: string, extra: Record<string, unknown> = {}): ReadResourceResult =>
  ({ contents: [{ uri, mimeType: 'text/plain', text: body }], ...extra }) as ReadResourceResult;
const link = (uri: string, more: Record<string, unknown> = {}): ContentBlock =>
  ({ type: 'resource_link', uri, name: uri.split('/').pop(), ...more }) as ContentBlock;
const outcomes = (r: { blocks: unknown[] }) =>
  (r.blocks as ResolvedLink[]).filter((b) => b.type === 'resource_link').map((b) => b.outcome);
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
  0, 0, 0, 1, 8, 6, 0, 0, 0,
]);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('resolve: defaults', () => {
  it('reads no link without a policy that selects it, and says so for each', async () => {
    const { client, stats } = fakeClient({ 'file:///a.txt': text('file:///a.txt', 'A') });
    const r = await resolve([{ type: 'text', text: 'hi' }, link('file:///a.txt')], client);
    expect(stats.reads).toEqual([]);
    expect(r.blocks[0]).toEqual({ type: 'text', block: { type: 'text', text: 'hi' } });
    expect(outcomes(r)).toEqual([
      expect.objectContaining({ status: 'skipped', code: 'not-requested' }),
    ]);
    expect(outcomes(r)[0]!.reason).toMatch(/^not-requested: /);
  });

  it('decodes embedded resources: text, a blob without mimeType sniffed with a warning, bad base64 an error', async () => {
    const { client } = fakeClient({});
    const r = await resolve(
      [
        { type: 'resource', resource: { uri: 'file:///t', text: 'héllo' } },
        { type: 'resource', resource: { uri: 'file:///p', blob: b64(PNG) } },
        {
          type: 'resource',
          resource: { uri: 'file:///x', blob: 'not base64!', mimeType: 'image/png' },
        },
      ] as ContentBlock[],
      client,
    );
    const [t, p, x] = r.blocks as ResolvedEmbedded[];
    expect(t!.contents).toMatchObject({ mimeType: 'text/plain', text: 'héllo', size: 6 });
    expect(t!.warnings[0]).toMatch(/no mimeType; text\/plain assumed/);
    expect(p!.contents).toMatchObject({ mimeType: 'image/png', size: PNG.length });
    expect(p!.warnings[0]).toMatch(/sniffed as image\/png/);
    expect(x!.contents).toBeUndefined();
    expect(x!.error).toMatch(
      /^INVALID_BASE64: content\[2\]\.resource\.blob is not canonical base64 at offset 3/,
    );
    expect(r.bytesRead).toBe(0);
  });
});

describe('resolve: policy', () => {
  it('reads selected links through resources/read on their server', async () => {
    const { client, stats } = fakeClient({ 'file:///a.txt': text('file:///a.txt', 'AAAA') });
    const r = await resolve([link('file:///a.txt')], client, { select: 'all' });
    expect(stats.reads).toEqual(['file:///a.txt']);
    const [o] = outcomes(r);
    expect(o).toMatchObject({ status: 'read', bytes: 4, source: 'server' });
    expect(o!.contents![0]).toMatchObject({
      uri: 'file:///a.txt',
      text: 'AAAA',
      mimeType: 'text/plain',
    });
    expect(r.bytesRead).toBe(4);
  });

  it('puts each link to consent once, one at a time, with what it needs to decide; refusals are outcomes', async () => {
    const { client, stats } = fakeClient({
      'file:///a': text('file:///a', 'A'),
      'file:///b': text('file:///b', 'B'),
    });
    const seen: LinkInfo[] = [];
    let asking = 0;
    let overlapped = false;
    const r = await resolve(
      [
        link('file:///a', {
          title: 'A',
          mimeType: 'text/plain',
          size: 1,
          annotations: { priority: 1 },
        }),
        link('file:///b'),
        link('file:///a', { name: 'same URI, other name' }),
      ],
      client,
      {
        consent: async (l) => {
          if (asking++) overlapped = true;
          seen.push(l);
          await new Promise((res) => setTimeout(res, 5));
          asking--;
          return l.uri === 'file:///a' ? true : { allow: false, reason: 'the user said no' };
        },
      },
    );
    expect(overlapped).toBe(false);
    expect(seen.map((l) => l.uri)).toEqual(['file:///a', 'file:///b']);
    expect(seen[0]).toEqual({
      uri: 'file:///a',
      name: 'a',
      title: 'A',
      mimeType: 'text/plain',
      size: 1,
      annotations: { priority: 1 },
      server: { name: 'fake', version: '1.0.0' },
    });
    expect(stats.reads).toEqual(['file:///a']);
    const [a, b, a2] = outcomes(r);
    expect(a).toMatchObject({ status: 'read', bytes: 1 });
    expect(b).toEqual({
      status: 'refused',
      by: 'consent',
      code: 'consent',
      reason: 'consent: the user said no',
    });
    expect(a2).toMatchObject({ status: 'read', bytes: 1 });
  });

  it('fails closed when the consent callback throws', async () => {
    const { client, stats } = fakeClient({ 'file:///a': text('file:///a', 'A') });
    const r = await resolve([link('file:///a')], client, {
      consent: () => {
        throw new Error('boom');
      },
    });
    expect(stats.reads).toEqual([]);
    expect(outcomes(r)[0]).toMatchObject({ status: 'refused', by: 'consent', code: 'consent' });
    expect(outcomes(r)[0]!.reason).toMatch(/^consent: the consent callback failed \(Error: boom\)/);
  });

  it('refuses by scheme and declared MIME type before reading, and judges a link without one after', async () => {
    const { client, stats } = fakeClient({
      'file:///n': {
        contents: [{ uri: 'file:///n', mimeType: 'application/pdf', blob: b64(PNG) }],
      } as ReadResourceResult,
      'file:///ok': text('file:///ok', 'fine'),
    });
    const r = await resolve(
      [
        link('secret://x'),
        link('file:///declared', { mimeType: 'application/pdf' }),
        link('file:///n'),
        link('file:///ok'),
      ],
      client,
      { select: 'all', schemes: ['file'], mimeTypes: ['text/*'] },
    );
    expect(stats.reads).toEqual(['file:///n', 'file:///ok']);
    const [s, d, n, ok] = outcomes(r);
    expect(s).toMatchObject({ status: 'refused', by: 'policy', code: 'scheme' });
    expect(d).toMatchObject({ status: 'refused', by: 'policy', code: 'mime' });
    expect(d!.reason).toMatch(/^mime: the link declares "application\/pdf"/);
    expect(n).toMatchObject({ status: 'refused', by: 'policy', code: 'mime', bytes: PNG.length });
    expect(n!.reason).toMatch(/^mime: the contents of "file:\/\/\/n" are "application\/pdf"/);
    expect(ok).toMatchObject({ status: 'read' });
    expect(r.bytesRead).toBe(4);
  });

  it('checks the size a link claims before the read and the bytes after it (a size that lies)', async () => {
    const { client, stats } = fakeClient({
      'file:///liar': text('file:///liar', 'x'.repeat(2000)),
    });
    const r = await resolve(
      [link('file:///big', { size: 5000 }), link('file:///liar', { size: 10 })],
      client,
      { select: 'all', maxLinkBytes: 1000 },
    );
    expect(stats.reads).toEqual(['file:///liar']);
    const [big, liar] = outcomes(r);
    expect(big).toMatchObject({ status: 'refused', code: 'size' });
    expect(big!.reason).toMatch(
      /^size: the link declares 5000 bytes, over the per-link limit of 1000/,
    );
    expect(liar).toMatchObject({ status: 'refused', code: 'size', bytes: 2000 });
    expect(liar!.reason).toMatch(/^size: the read brought 2000 bytes/);
    expect(r.bytesRead).toBe(0);
  });

  it('keeps to the turn budget: a 2 GiB claim is skipped unread, reads past the budget are skipped', async () => {
    const served: Served = {};
    for (const n of ['1', '2', '3']) served[`file:///${n}`] = text(`file:///${n}`, 'y'.repeat(400));
    const { client, stats } = fakeClient(served);
    const r = await resolve(
      [
        link('file:///huge', { size: 2 * 1024 ** 3 }),
        link('file:///1'),
        link('file:///2'),
        link('file:///3'),
      ],
      client,
      { select: 'all', budgetBytes: 1000, maxLinkBytes: 4 * 1024 ** 3, concurrency: 1 },
    );
    expect(stats.reads).toEqual(['file:///1', 'file:///2', 'file:///3']);
    const [huge, one, two, three] = outcomes(r);
    expect(huge).toMatchObject({ status: 'skipped', code: 'budget' });
    expect(huge!.reason).toMatch(/^budget: the link declares 2147483648 bytes/);
    expect(one).toMatchObject({ status: 'read', bytes: 400 });
    expect(two).toMatchObject({ status: 'read', bytes: 400 });
    expect(three).toMatchObject({ status: 'skipped', code: 'budget', bytes: 400 });
    expect(r.bytesRead).toBe(800);
  });

  it('never lets annotations bypass consent or the budget', async () => {
    const { client, stats } = fakeClient({ 'file:///a': text('file:///a', 'z'.repeat(50)) });
    const hinted = link('file:///a', { annotations: { priority: 1, audience: ['assistant'] } });
    const refused = await resolve([hinted], client, { consent: () => false });
    expect(outcomes(refused)[0]).toMatchObject({ status: 'refused', by: 'consent' });
    const over = await resolve([hinted], client, { select: 'all', budgetBytes: 10 });
    expect(outcomes(over)[0]).toMatchObject({ status: 'skipped', code: 'budget' });
    expect(stats.reads).toEqual(['file:///a']);
  });

  it('reads at most `concurrency` links at once', async () => {
    const served: Served = {};
    const blocks: ContentBlock[] = [];
    for (let i = 0; i < 12; i++) {
      served[`file:///${i}`] = text(`file:///${i}`, String(i));
      blocks.push(link(`file:///${i}`));
    }
    const { client, stats } = fakeClient(served);
    const r = await resolve(blocks, client, { select: 'all', concurrency: 3 });
    expect(outcomes(r).every((o) => o.status === 'read')).toBe(true);
    expect(stats.maxInFlight).toBe(3);
  });

  it('gives failures as outcomes: a server error, a timeout, undecodable contents, a URI with control characters', async () => {
    const { client, stats } = fakeClient({
      'file:///slow': new McpKitError('REQUEST_TIMEOUT', 'resources/read timed out after 10 ms'),
      'file:///bad': {
        contents: [{ uri: 'file:///bad', blob: '@@@@', mimeType: 'image/png' }],
      } as ReadResourceResult,
    });
    const r = await resolve(
      [
        link('file:///missing'),
        link('file:///slow'),
        link('file:///bad'),
        link('file:///a\u001b[31mb\n'),
      ],
      client,
      { select: 'all' },
    );
    const [missing, slow, bad, ctl] = outcomes(r);
    expect(missing).toMatchObject({ status: 'failed', code: 'JSONRPC_-32602' });
    expect(missing!.reason).toMatch(/^JSONRPC_-32602: Resource not found/);
    expect(slow).toMatchObject({ status: 'failed', code: 'REQUEST_TIMEOUT' });
    expect(bad).toMatchObject({ status: 'failed', code: 'INVALID_BASE64' });
    expect(ctl).toMatchObject({ status: 'failed', code: 'INVALID_URI' });
    expect(ctl!.reason).toContain('\\u001b');
    expect(stats.reads).toEqual(['file:///missing', 'file:///slow', 'file:///bad']);
  });
});

describe('resolve: fetching http(s) links', () => {
  it('fetches through the given fetcher only; a guard refusal is a refusal by the guard', async () => {
    const { client, stats } = fakeClient({
      'https://example.test/via-server': text('https://example.test/via-server', 'S'),
    });
    const fetched: string[] = [];
    const fetchUrls = async (url: string, o: { maxBytes: number }) => {
      fetched.push(`${url} max=${o.maxBytes}`);
      if (url.includes('169.254'))
        throw new McpKitError(
          'GUARD_BLOCKED',
          `${url}: 169.254.169.254 is a cloud metadata address`,
        );
      return {
        url,
        bytes: new TextEncoder().encode('{"a":1}'),
        mimeType: 'application/json; charset=utf-8',
      };
    };
    const blocks = [
      link('https://example.test/doc'),
      link('http://169.254.169.254/latest/meta-data'),
    ];
    const r = await resolve(blocks, client, { select: 'all', fetchUrls, maxLinkBytes: 500 });
    expect(stats.reads).toEqual([]);
    expect(fetched).toEqual([
      'https://example.test/doc max=500',
      'http://169.254.169.254/latest/meta-data max=500',
    ]);
    const [doc, meta] = outcomes(r);
    expect(doc).toMatchObject({ status: 'read', source: 'fetch', bytes: 7 });
    expect(doc!.contents![0]).toMatchObject({ mimeType: 'application/json', text: '{"a":1}' });
    expect(meta).toMatchObject({ status: 'refused', by: 'guard', code: 'guard' });
    expect(meta!.reason).toMatch(/^guard: .*metadata/);
    const plain = await resolve([link('https://example.test/via-server')], client, {
      select: 'all',
    });
    expect(outcomes(plain)[0]).toMatchObject({ status: 'read', source: 'server' });
    expect(stats.reads).toEqual(['https://example.test/via-server']);
  });
});

describe('Resolver: the cache', () => {
  it('serves a read again while ttlMs allows, keyed by URI (not name), until the resource is updated', async () => {
    const { client, stats, notify } = fakeClient({
      'file:///c': text('file:///c', 'C', { ttlMs: 60_000, cacheScope: 'private' }),
      'file:///n': text('file:///n', 'N', { ttlMs: 0 }),
    });
    const resolver = new Resolver(client, { select: 'all' });
    await resolver.resolve([link('file:///c'), link('file:///n')]);
    const again = await resolver.resolve([
      link('file:///c', { name: 'renamed' }),
      link('file:///n'),
    ]);
    expect(outcomes(again).map((o) => o.source)).toEqual(['cache', 'server']);
    expect(again.bytesRead).toBe(2);
    notify('file:///c');
    const after = await resolver.resolve([link('file:///c')]);
    expect(outcomes(after)[0]!.source).toBe('server');
    expect(stats.reads).toEqual(['file:///c', 'file:///n', 'file:///n', 'file:///c']);
    resolver.close();
  });

  it('shares `public` entries across clients of one server key, never `private` ones', async () => {
    const cache = new LinkCache();
    const served = {
      'file:///s': text('file:///s', 'S', { ttlMs: 60_000, cacheScope: 'public' }),
      'file:///p': text('file:///p', 'P', { ttlMs: 60_000, cacheScope: 'private' }),
    } as Served;
    const one = fakeClient(served);
    const two = fakeClient(served);
    const blocks = [link('file:///s'), link('file:///p')];
    await new Resolver(one.client, { select: 'all' }, { cache, serverKey: 'http://x/mcp' }).resolve(
      blocks,
    );
    const r = await new Resolver(
      two.client,
      { select: 'all' },
      { cache, serverKey: 'http://x/mcp' },
    ).resolve(blocks);
    expect(outcomes(r).map((o) => o.source)).toEqual(['cache', 'server']);
    expect(two.stats.reads).toEqual(['file:///p']);
    const other = fakeClient(served);
    await new Resolver(other.client, { select: 'all' }, { cache }).resolve(blocks);
    expect(other.stats.reads).toEqual(['file:///s', 'file:///p']);
  });

  it("keys a client's `private` entries alike in every resolver of that client, per cache", async () => {
    const served = {
      'file:///p': text('file:///p', 'P', { ttlMs: 60_000, cacheScope: 'private' }),
    } as Served;
    // A client seen first by another cache must not take the number of a client of this one.
    const other = fakeClient(served);
    await new Resolver(other.client, { select: 'all' }, { cache: new LinkCache() }).resolve([
      link('file:///p'),
    ]);
    const cache = new LinkCache();
    const one = fakeClient(served);
    const two = fakeClient(served);
    for (const c of [two, one, one])
      await new Resolver(c.client, { select: 'all' }, { cache }).resolve([link('file:///p')]);
    expect(one.stats.reads).toEqual(['file:///p']);
    expect(two.stats.reads).toEqual(['file:///p']);
  });
});

describe('resolve: blocks taken as received', () => {
  it('never throws on junk: non-blocks are invalid entries, a link without a string URI fails', async () => {
    const { client, stats } = fakeClient({});
    const junk = [
      null,
      42,
      { text: 'no type' },
      { type: 'resource_link', uri: 7, name: 'x' },
      { type: 'resource' },
    ];
    const r = await resolve(junk as unknown as ContentBlock[], client, { select: 'all' });
    expect(r.blocks.map((b) => b.type)).toEqual([
      'invalid',
      'invalid',
      'invalid',
      'resource_link',
      'resource',
    ]);
    expect(outcomes(r)[0]).toMatchObject({ status: 'failed', code: 'INVALID_URI' });
    expect((r.blocks[4] as ResolvedEmbedded).error).toMatch(
      /content\[4\]\.resource is not an object/,
    );
    expect(r.warnings.filter((w) => w.includes('is not a content block'))).toHaveLength(3);
    expect(stats.reads).toEqual([]);
  });
});

describe('resolve: after a cold review', () => {
  it('starts no read once the turn has read its budget (unsized links)', async () => {
    const served: Served = {};
    const blocks: ContentBlock[] = [];
    for (let i = 0; i < 20; i++) {
      served[`file:///${i}`] = text(`file:///${i}`, 'q'.repeat(100));
      blocks.push(link(`file:///${i}`));
    }
    const { client, stats } = fakeClient(served);
    const r = await resolve(blocks, client, { select: 'all', budgetBytes: 150, concurrency: 1 });
    expect(stats.reads).toEqual(['file:///0', 'file:///1']);
    const o = outcomes(r);
    expect(o[0]).toMatchObject({ status: 'read', bytes: 100 });
    expect(o[1]).toMatchObject({ status: 'skipped', code: 'budget', bytes: 100 });
    expect(o[1]!.discarded?.[0]?.text).toBe('q'.repeat(100));
    expect(o[1]!.contents).toBeUndefined();
    for (const later of o.slice(2)) {
      expect(later).toMatchObject({ status: 'skipped', code: 'budget' });
      expect(later.reason).toMatch(/its whole budget of 150; not read$/);
    }
    expect(r.bytesRead).toBe(100);
  });

  it('what failed reads brought (error data) counts against the turn budget', async () => {
    const data = { detail: 'x'.repeat(256 * 1024) };
    const served: Served = {};
    const blocks: ContentBlock[] = [];
    for (let i = 0; i < 40; i++) {
      served[`file:///${i}`] = new ProtocolError(-32603, 'internal error', data);
      blocks.push(link(`file:///${i}`));
    }
    const { client, stats } = fakeClient(served);
    const r = await resolve(blocks, client, { select: 'all', budgetBytes: 1024 * 1024 });
    // About 1 MiB of error data, and the reads in flight when it was reached: not 10 MiB.
    expect(stats.reads.length).toBeLessThanOrEqual(4 + 4);
    const o = outcomes(r);
    expect(o[0]).toMatchObject({ status: 'failed', code: 'JSONRPC_-32603' });
    expect(o.at(-1)).toMatchObject({ status: 'skipped', code: 'budget' });
  });

  it('a select predicate that throws reads nothing and fails no other link', async () => {
    const { client, stats } = fakeClient({ 'file:///ok': text('file:///ok', 'ok') });
    const r = await resolve([link('file:///boom'), link('file:///ok')], client, {
      select: (l) => {
        if (l.uri.endsWith('boom')) throw new Error('predicate broke');
        return true;
      },
    });
    const [boom, ok] = outcomes(r);
    expect(boom).toMatchObject({ status: 'skipped', code: 'not-requested' });
    expect(boom!.reason).toMatch(/the select predicate failed \(Error: predicate broke\)/);
    expect(ok).toMatchObject({ status: 'read' });
    expect(stats.reads).toEqual(['file:///ok']);
  });

  it('does not cache a read that a resource-updated notification overtook', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const { client, notify } = fakeClient({});
    let reads = 0;
    client.readResource = async (uri) => {
      reads++;
      if (reads === 1) await gate;
      return text(uri, `v${reads}`, { ttlMs: 60_000 });
    };
    const resolver = new Resolver(client, { select: 'all' });
    const first = resolver.resolve([link('file:///doc')]);
    await new Promise((r) => setTimeout(r, 5));
    notify('file:///doc');
    release();
    expect(outcomes(await first)[0]!.contents![0]!.text).toBe('v1');
    const second = await resolver.resolve([link('file:///doc')]);
    expect(outcomes(second)[0]).toMatchObject({ source: 'server' });
    expect(outcomes(second)[0]!.contents![0]!.text).toBe('v2');
  });

  it("in a shared cache, one server's update drops only its own entries", async () => {
    const cache = new LinkCache();
    const served = {
      'file:///x': text('file:///x', 'X', { ttlMs: 60_000, cacheScope: 'public' }),
    } as Served;
    const a = fakeClient(served, 'a');
    const b = fakeClient(served, 'b');
    const ra = new Resolver(a.client, { select: 'all' }, { cache, serverKey: 'A' });
    const rb = new Resolver(b.client, { select: 'all' }, { cache, serverKey: 'B' });
    await ra.resolve([link('file:///x')]);
    await rb.resolve([link('file:///x')]);
    b.notify('file:///');
    expect(outcomes(await ra.resolve([link('file:///x')]))[0]!.source).toBe('cache');
    expect(outcomes(await rb.resolve([link('file:///x')]))[0]!.source).toBe('server');
  });
});
