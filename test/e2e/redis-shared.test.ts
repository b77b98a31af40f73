/**
 * Two servers (two createRedisShared, as two processes would have) on one redis-server act as
 * one: a link minted on one resolves on the other, a requestState signed by one verifies on the
 * other, an update published on one reaches a listener on the other, and a dropped bus ends the
 * open listen streams (a listen after the reconnect hears again).
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createRedisShared, type RedisShared } from '../../src/bus/index.js';
import { createServer, type McpServer } from '../../src/server/index.js';
import { modern } from '../../src/testing/messages.js';
import { connectInMemory } from '../../src/transports/memory.js';
import { describeRedis, RedisProcess, waitFor } from './redis-harness.js';

const elicit = {
  method: 'elicitation/create' as const,
  params: {
    message: 'Name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
  },
};

/** A text artifact over the 16 KB cap the servers below answer with. */
const DUMP = Array.from({ length: 2_000 }, (_, i) => `line ${i} é😀\n`).join('');

describeRedis('servers sharing one Redis', () => {
  let redis: RedisProcess;
  const open: RedisShared[] = [];

  async function instance(
    name: string,
    env: Record<string, string> = {},
  ): Promise<{ server: McpServer; shared: RedisShared }> {
    const shared = await createRedisShared({
      url: redis.url,
      env,
      onLog: () => {},
      backoff: { baseMs: 20, maxMs: 100 },
    });
    open.push(shared);
    const server = createServer({
      name,
      version: '1',
      ...shared.serverOptions,
      content: { capBytes: 16_000 },
    });
    server.tool('report', {}, (_a, ctx) =>
      ctx.result(
        ctx.attach({
          name: 'report.txt',
          mimeType: 'text/plain',
          text: `made by ${name}`,
          mode: 'link',
        }),
      ),
    );
    server.tool('greet', {}, async (_a, ctx) => {
      const { who } = await ctx.ask({ who: elicit });
      return `hello ${String(who['content'] && (who['content'] as { name: string }).name)} from ${name}`;
    });
    server.tool('snapshot', {}, (_a, ctx) =>
      ctx.result(ctx.attach({ name: 'snap.txt', mimeType: 'text/plain', text: `snap ${name}` })),
    );
    server.tool('dump', {}, (_a, ctx) =>
      ctx.result(ctx.attach({ name: 'dump.txt', mimeType: 'text/plain', text: DUMP })),
    );
    server.resource('mem://doc', { name: 'doc', mimeType: 'text/plain' }, () => 'doc');
    return { server, shared };
  }

  beforeAll(async () => {
    redis = await RedisProcess.start();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await redis?.close();
  });

  it('share one secret, created by the first', async () => {
    const one = await instance('one');
    const two = await instance('two');
    expect(one.shared.secret.secret).toBe(two.shared.secret.secret);
    expect(two.shared.secret.source).toBe('redis');
    expect(one.shared.where).toBe(redis.url);
  });

  it('passes maxCachedBytes to the link store: a bad one is refused, naming it', async () => {
    await expect(
      createRedisShared({ url: redis.url, onLog: () => {}, maxCachedBytes: -1 }),
    ).rejects.toMatchObject({ code: 'BAD_ARGUMENTS', message: /maxCachedBytes/ });
    const shared = await createRedisShared({ url: redis.url, onLog: () => {}, maxCachedBytes: 0 });
    open.push(shared);
  });

  it('a link minted on one resolves on the other', async () => {
    const one = connectInMemory((await instance('one')).server);
    const two = connectInMemory((await instance('two')).server);
    const called = (await one.send(modern('tools/call', { name: 'report' }))) as unknown as {
      result: { content: Array<{ type: string; uri: string }> };
    };
    const link = called.result.content[0];
    expect(link).toMatchObject({ type: 'resource_link', uri: expect.stringMatching(/^mcpkit:/) });
    expect(await two.send(modern('resources/read', { uri: link?.uri }))).toMatchObject({
      result: { contents: [{ uri: link?.uri, mimeType: 'text/plain', text: 'made by one' }] },
    });
  });

  it('an embedded artifact and the parts of one over the cap read on the other', async () => {
    const one = connectInMemory((await instance('one')).server);
    const two = connectInMemory((await instance('two')).server);
    type Called = { result: { content: Array<Record<string, unknown>> } };
    const embedded = (
      (await one.send(modern('tools/call', { name: 'snapshot' }))) as unknown as Called
    ).result.content[0] as { type: string; resource: { uri: string } };
    expect(embedded.type).toBe('resource');
    expect(await two.send(modern('resources/read', { uri: embedded.resource.uri }))).toMatchObject({
      result: { contents: [{ text: 'snap one' }] },
    });

    const link = ((await one.send(modern('tools/call', { name: 'dump' }))) as unknown as Called)
      .result.content[0] as { uri: string };
    expect(link.uri).toMatch(/\?offset=0&length=\d+$/);
    let text = '';
    for (let uri: string | undefined = link.uri, n = 0; uri !== undefined && n < 50; n++) {
      const res = (await (n % 2 === 0 ? two : one).send(
        modern('resources/read', { uri }),
      )) as unknown as {
        result: { contents: Array<{ text: string; _meta: Record<string, { next?: string }> }> };
      };
      const [part] = res.result.contents;
      text += part?.text ?? '';
      uri = part?._meta['dev.mcpkit/part']?.next;
    }
    expect(text).toBe(DUMP);

    // A restart: a new instance (a new process would do the same) reads what Redis holds.
    await Promise.all(open.splice(0).map((s) => s.close()));
    const three = connectInMemory((await instance('three')).server);
    expect(
      await three.send(modern('resources/read', { uri: embedded.resource.uri })),
    ).toMatchObject({ result: { contents: [{ text: 'snap one' }] } });
  });

  it('a requestState signed by one verifies on the other', async () => {
    const caps = { elicitation: {} };
    const one = connectInMemory((await instance('one')).server);
    const two = connectInMemory((await instance('two')).server);
    const round1 = (await one.send(modern('tools/call', { name: 'greet' }, caps))) as unknown as {
      result: { resultType: string; requestState: string };
    };
    expect(round1.result.resultType).toBe('input_required');
    const round2 = await two.send(
      modern(
        'tools/call',
        {
          name: 'greet',
          inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
          requestState: round1.result.requestState,
        },
        caps,
      ),
    );
    expect(round2).toMatchObject({
      result: { resultType: 'complete', content: [{ text: 'hello Ada from two' }] },
    });
  });

  it('with MCPKIT_SECRET, instances share it without storing one in Redis', async () => {
    const env = { MCPKIT_SECRET: 'operator-chosen-secret' };
    const one = connectInMemory((await instance('one', env)).server);
    const { server, shared } = await instance('two', env);
    const two = connectInMemory(server);
    expect(shared.secret).toEqual({ secret: 'operator-chosen-secret', source: 'env' });
    const called = (await one.send(modern('tools/call', { name: 'report' }))) as unknown as {
      result: { content: Array<{ uri: string }> };
    };
    const uri = called.result.content[0]?.uri;
    expect(await two.send(modern('resources/read', { uri }))).toMatchObject({
      result: { contents: [{ text: 'made by one' }] },
    });
  });

  it("an update published on one reaches a listener on the other's", async () => {
    const one = await instance('one');
    const two = connectInMemory((await instance('two')).server);
    void two.send(
      modern('subscriptions/listen', { notifications: { resourceSubscriptions: ['mem://doc'] } }),
    );
    await waitFor(() => two.received.length > 0, 'the acknowledgement');
    one.server.notifyResourceUpdated('mem://doc');
    const updates = () =>
      two.received.filter((m) => 'method' in m && m.method === 'notifications/resources/updated');
    await waitFor(() => updates().length === 1, 'the update through Redis');
    expect(updates()[0]).toMatchObject({ params: { uri: 'mem://doc' } });
    two.close();
  });

  it('a dropped bus ends every open listen stream; a listen after the reconnect hears again', async () => {
    const one = await instance('one');
    const other = await instance('two');
    const two = connectInMemory(other.server);
    const listen = modern('subscriptions/listen', {
      notifications: { resourceSubscriptions: ['mem://doc'] },
    });
    const ended = two.send(listen);
    await waitFor(() => two.received.length > 0, 'the acknowledgement');
    const admin = other.shared.redis;
    await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    // The stream ends with an error the client sees, so that it listens again and re-reads.
    expect(await ended).toMatchObject({ id: listen.id, error: { code: expect.any(Number) } });
    await waitFor(() => one.shared.bus.connected && other.shared.bus.connected, 'resubscribed');
    const again = modern('subscriptions/listen', {
      notifications: { resourceSubscriptions: ['mem://doc'] },
    });
    void two.send(again);
    const acks = () =>
      two.received.filter(
        (m) => 'method' in m && m.method === 'notifications/subscriptions/acknowledged',
      );
    await waitFor(() => acks().length === 2, 'the second acknowledgement');
    one.server.notifyResourceUpdated('mem://doc');
    const updates = () =>
      two.received.filter((m) => 'method' in m && m.method === 'notifications/resources/updated');
    await waitFor(() => updates().length === 1, 'the update after the reconnect');
    two.close();
  });
});
