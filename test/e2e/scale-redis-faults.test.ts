/**
 * Faults of a `mcpkit serve --http --redis` deployment, real processes on a real redis-server:
 * Redis stopped mid-stream ends the listen (`events-lost`), file reads keep working, and once
 * Redis is back a new listen hears changes again; an instance killed behind a round-robin TCP
 * proxy makes the client's relisten move to the survivor and end with the final state. Every
 * wait has a deadline; nothing is timed.
 */
import { writeFile } from 'node:fs/promises';
import { afterEach, expect, it } from 'vitest';
import type { McpClient } from '../../src/client/index.js';
import { RESYNC_META } from '../../src/client/resilient-listen.js';
import { ProtocolError } from '../../src/errors/index.js';
import { connect } from '../../src/transports/connect.js';
import { describeRedis, RedisProcess } from './redis-harness.js';
import { HttpServe } from './serve-harness.js';
import { TcpProxy } from './tcp-proxy.js';
import { folder, Recorded, until } from './watch-harness.js';

type Block = { text?: string };

/** Updates of `uri` that a server sent (not the resync frames a relisten makes up). */
function liveUpdates(stream: Recorded, uri: string): number {
  return stream.frames.filter(
    (f) =>
      f.method === 'notifications/resources/updated' &&
      f.params['uri'] === uri &&
      !(f.params['_meta'] as Record<string, unknown> | undefined)?.[RESYNC_META],
  ).length;
}

function resyncs(stream: Recorded): number {
  return stream.frames.filter(
    (f) => (f.params['_meta'] as Record<string, unknown> | undefined)?.[RESYNC_META] === true,
  ).length;
}

async function text(client: McpClient, uri: string, cache = true): Promise<string | undefined> {
  const { contents } = await client.readResource(uri, { cache });
  return (contents[0] as Block | undefined)?.text;
}

describeRedis('mcpkit serve --redis: faults', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  async function redisServer(): Promise<RedisProcess> {
    const redis = await RedisProcess.start();
    cleanups.push(() => redis.close());
    return redis;
  }

  async function serveHttp(dir: string, redis: RedisProcess, extra: string[] = []) {
    const http = await HttpServe.start([dir, '--redis', redis.url, '--quiet', ...extra]);
    cleanups.push(() => http.stop());
    return http;
  }

  async function client(url: string): Promise<McpClient> {
    // Pinned to 2026-07-28: stateless, so any instance answers any request.
    const c = await connect({ url, client: { era: 'modern', requestTimeoutMs: 20_000 } });
    cleanups.push(() => c.close());
    return c;
  }

  it('Redis stopped mid-stream: the listen ends (events-lost), reads work, and after the restart a new listen hears changes', async () => {
    const f = await folder({ 'a.md': 'one', 'b.md': 'b' });
    cleanups.push(() => f.remove());
    const redis = await redisServer();
    const watchingHttp = await serveHttp(f.dir, redis);
    const relyingHttp = await serveHttp(f.dir, redis, ['--no-watch']);
    const watching = await client(watchingHttp.url);
    const relying = await client(relyingHttp.url);

    const first = new Recorded(await relying.listen({ resourceSubscriptions: ['file:///a.md'] }));
    cleanups.push(() => first.close());
    await writeFile(f.path('a.md'), 'two');
    await until('an update through Redis before the outage', () => first.updates().length > 0);

    await redis.stop();
    await until('the listen ended after Redis stopped', () => first.ended !== undefined);
    expect(first.ended).toBeInstanceOf(ProtocolError);
    expect(first.ended).toMatchObject({ code: -32603, data: { reason: 'events-lost' } });

    // A listen opened during the outage cannot be trusted either: it must end once Redis is back.
    const during = new Recorded(await relying.listen({ resourceSubscriptions: ['file:///a.md'] }));
    cleanups.push(() => during.close());

    // Files are read from disk, not from Redis: both instances still answer.
    await writeFile(f.path('b.md'), 'b while Redis is down');
    for (const c of [watching, relying]) {
      expect(await text(c, 'file:///a.md', false)).toBe('two');
      expect(await text(c, 'file:///b.md', false)).toBe('b while Redis is down');
    }

    await redis.restart();
    // Both instances log every connection they lost, and again once it is back.
    const back = (stderr: string) => {
      const lost = stderr.match(/lost the connection to Redis/g)?.length ?? 0;
      const again = stderr.match(/reconnected to Redis/g)?.length ?? 0;
      return lost > 0 && again >= lost;
    };
    await until(
      'both instances reconnected to Redis',
      () => back(watchingHttp.stderr) && back(relyingHttp.stderr),
      15_000,
    ).catch((e: unknown) => {
      throw new Error(
        `${String(e)}\nwatching: ${watchingHttp.stderr}\nrelying: ${relyingHttp.stderr}`,
      );
    });

    await until('the listen opened during the outage ended', () => during.ended !== undefined);
    expect(during.ended).toMatchObject({ code: -32603, data: { reason: 'events-lost' } });

    // A listen opened while a bus is still resubscribing is ended once more (a gap): listen
    // again, then write after each acknowledgement until an update makes it through.
    const deadline = Date.now() + 15_000;
    let round = 0;
    let heard: Recorded | undefined;
    while (!heard) {
      if (Date.now() > deadline) throw new Error(`no update after the restart in ${round} rounds`);
      round++;
      const stream = new Recorded(
        await relying.listen({ resourceSubscriptions: ['file:///a.md'] }),
      );
      cleanups.push(() => stream.close());
      await writeFile(f.path('a.md'), `after the restart ${round}`);
      await until(
        `round ${round}: an update or the end of the listen`,
        () => stream.updates().length > 0 || stream.ended !== undefined,
        3000,
      ).catch(() => undefined);
      if (stream.updates().length > 0) heard = stream;
      else await stream.close();
    }
    expect(heard.ended).toBeUndefined();
    expect(await text(relying, 'file:///a.md')).toBe(`after the restart ${round}`);
    // The credentials-free URL is logged, never a stack trace.
    expect(relyingHttp.stderr).not.toMatch(/\n\s+at /);
  });

  // The store's own log says Redis was lost, once; each read answers -32603 naming why, unlogged.
  it('an artifact read while Redis is down fails at once, saying why, with no stack trace logged', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`f-${i}.txt`] = `okapi ${i}`;
    const f = await folder(files);
    cleanups.push(() => f.remove());
    const redis = await redisServer();
    const http = await serveHttp(f.dir, redis);
    const c = await client(http.url);
    const found = await c.callTool('search', { query: 'okapi', limit: 2 });
    const uri = (found.content as Array<{ uri?: string }>).at(-1)?.uri as string;
    expect(uri).toMatch(/^mcpkit:\/\/artifacts\//);
    expect(JSON.parse((await text(c, uri, false)) ?? '')).toMatchObject({ total: 12 });

    await redis.stop();
    const error = await c.readResource(uri, { cache: false, timeoutMs: 10_000 }).then(
      () => new Error('the artifact was read with Redis down'),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).message).toMatch(/redis/i);
    expect((error as ProtocolError).data).toMatchObject({ uri, reason: 'store-unavailable' });
    expect(await text(c, 'file:///f-0.txt', false)).toBe('okapi 0');
    expect(http.stderr).not.toMatch(/\n\s+at /);
  });

  // 'kill': the instance dies (SIGKILL; the proxy finds its port refusing and skips it).
  // 'drop': the proxy takes a live instance out of the rotation and cuts its connections.
  it.each(['kill', 'drop'] as const)(
    'behind a round-robin proxy, the instance holding the stream goes (%s): the client relistens on the other and ends with the final state',
    async (how) => {
      const f = await folder({ 'doc.md': 'v0' });
      cleanups.push(() => f.remove());
      const redis = await redisServer();
      const instances = [await serveHttp(f.dir, redis), await serveHttp(f.dir, redis)];
      const proxy = await TcpProxy.start(
        instances.map((i) => ({ host: '127.0.0.1', port: Number(new URL(i.url).port) })),
      );
      cleanups.push(() => proxy.close());
      const c = await client(proxy.url);
      const uri = 'file:///doc.md';
      const causes: unknown[] = [];
      const stream = new Recorded(
        await c.listen(
          { resourceSubscriptions: [uri] },
          {
            relisten: {
              minDelayMs: 50,
              maxDelayMs: 500,
              onRelisten: ({ cause }) => causes.push(cause),
            },
          },
        ),
      );
      cleanups.push(() => stream.close());

      // A live stream first; the read leaves v1 in the client's cache.
      expect(await text(c, uri)).toBe('v0');
      await writeFile(f.path('doc.md'), 'v1');
      await until('the first update', () => liveUpdates(stream, uri) > 0);
      expect(await text(c, uri)).toBe('v1');

      const [holder, ...others] = proxy.holding('subscriptions/listen');
      expect(others).toEqual([]);
      const survivor = 1 - (holder as number);
      if (how === 'drop') {
        proxy.drop(holder as number);
      } else {
        const victim = instances[holder as number] as HttpServe;
        const exited = new Promise((r) => victim.child.once('exit', r));
        victim.child.kill('SIGKILL');
        await exited;
      }
      // Changed while no stream is open: only the resync can tell the client.
      await writeFile(f.path('doc.md'), 'v2');
      await until('a resync after the relisten', () => resyncs(stream) > 0, 15_000);
      expect(causes).toHaveLength(1);
      expect(proxy.holding('subscriptions/listen')).toEqual([survivor]);
      expect(await text(c, uri)).toBe('v2');

      // The new stream is live on the survivor.
      const live = liveUpdates(stream, uri);
      await writeFile(f.path('doc.md'), 'v3 final');
      await until('an update from the survivor', () => liveUpdates(stream, uri) > live);
      expect(await text(c, uri)).toBe('v3 final');
      expect(stream.ended).toBeUndefined();
    },
  );
});
