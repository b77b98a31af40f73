import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '../protocol/jsonrpc.js';
import { modern } from '../testing/messages.js';
import { coreOf } from '../testing/server-core.js';
import { createContentEnv } from './content-env.js';
import type { RequestContext } from './context.js';
import { MemoryLinkStore } from './link-store.js';
import { ENVELOPE_RESERVE_BYTES, type ServerOptions } from './options.js';
import { createServer } from './server.js';

const artifact = (text: string) => ({ name: 'n.txt', mimeType: 'text/plain', text, size: 4 });

/** A server with a static resource and a template with `stat`, and the context of a real request. */
async function setup(options: Partial<ServerOptions> = {}) {
  const server = createServer({ name: 'env', version: '1', onError: () => {}, ...options });
  const readBy: RequestContext[] = [];
  server.resource(
    'mem://static',
    { name: 'Static', mimeType: 'text/plain', size: 6 },
    (_u, _v, c) => {
      readBy.push(c);
      return 'static';
    },
  );
  server.resource(
    'mem://files/{name}',
    { name: 'file', stat: (_u, v) => (v['name'] === 'big' ? { size: 9_999 } : undefined) },
    (_u, v) => `file ${String(v['name'])}`,
  );
  let captured: RequestContext | undefined;
  server.prompt('capture', {}, (_args, c) => {
    captured = c;
    return 'ok';
  });
  const sent: JSONRPCMessage[] = [];
  const peer = server.connect({
    transport: 'memory',
    send: (m) => sent.push(m),
    maxMessageBytes: 5000,
  });
  await peer.handle(modern('prompts/get', { name: 'capture' }));
  if (!captured) throw new Error('the prompt did not run');
  const core = coreOf(server);
  return { server, core, ctx: captured, env: createContentEnv(core, captured), readBy };
}

describe('createContentEnv', () => {
  it("takes capBytes and method from the request's context", async () => {
    const { ctx, env } = await setup();
    expect(ctx.method).toBe('prompts/get');
    expect(env.method).toBe('prompts/get');
    expect(ctx.capBytes).toBe(5000 - ENVELOPE_RESERVE_BYTES);
    expect(env.capBytes).toBe(ctx.capBytes);
  });

  it("uses the server's content options, or {} without them", async () => {
    const content = { explain: true, blockBudgetBytes: 10 };
    expect((await setup({ content })).env.options).toBe(content);
    expect((await setup()).env.options).toEqual({});
  });

  it("reads through the server's own read path, with this request's context", async () => {
    const { env, ctx, readBy } = await setup();
    expect(await env.read('mem://static')).toMatchObject({
      contents: [{ uri: 'mem://static', mimeType: 'text/plain', text: 'static' }],
    });
    expect(readBy).toEqual([ctx]);
    expect(await env.read('mem://files/x')).toMatchObject({
      contents: [{ uri: 'mem://files/x', text: 'file x' }],
    });
  });

  it('describes registered resources only', async () => {
    const { env } = await setup();
    expect(env.describe('mem://static')).toEqual({
      uri: 'mem://static',
      name: 'Static',
      mimeType: 'text/plain',
      size: 6,
    });
    expect(env.describe('mem://files/x')).toBeUndefined();
    expect(env.describe('mem://nothing')).toBeUndefined();
  });

  it("sizes templated resources with the template's stat", async () => {
    const { env } = await setup();
    expect(await env.stat('mem://files/big')).toEqual({ size: 9_999 });
    expect(await env.stat('mem://files/small')).toBeUndefined();
    expect(await env.stat('mem://static')).toBeUndefined();
  });

  it('resolves resources, template matches and live artifacts only', async () => {
    const { env, core } = await setup();
    expect(await env.resolves('mem://static')).toBe(true);
    expect(await env.resolves('mem://files/anything')).toBe(true);
    expect(await env.resolves('mem://nothing')).toBe(false);
    const stored = await core.linkStore.put(artifact('kept'));
    expect(await env.resolves(stored)).toBe(true);
    expect(await env.resolves(await core.linkStore.uriFor(artifact('not kept')))).toBe(false);
  });

  it("puts artifacts in the server's store for content.artifactTtlMs, embedded ones as long as linked ones", async () => {
    const clock = { now: 0 };
    const linkStore = new MemoryLinkStore({ now: () => clock.now, ttlMs: 1_000 });
    const { env, server } = await setup({ linkStore, content: { artifactTtlMs: 50 } });
    expect(server.linkStore).toBe(linkStore);

    const embedded = await env.artifactUri(artifact('embedded'), false);
    expect(embedded).toBe(await linkStore.uriFor(artifact('embedded')));
    const linked = await env.artifactUri(artifact('linked'), true);
    for (const [uri, text] of [
      [embedded, 'embedded'],
      [linked, 'linked'],
    ] as const) {
      expect(await linkStore.get(uri)).toMatchObject({ found: { text, expiresAt: 50 } });
    }
    clock.now = 50;
    expect(await linkStore.get(embedded)).toEqual({ expired: true });
    expect(await linkStore.get(linked)).toEqual({ expired: true });
  });

  it('sizes artifacts and their parts with stat, naming the first part of one too large here', async () => {
    const linkStore = new MemoryLinkStore({ now: () => 0 });
    const { env, ctx } = await setup({ linkStore });
    const small = await linkStore.put(artifact('small'));
    expect(await env.stat(small)).toEqual({ size: 4, mimeType: 'text/plain' });
    const text = 'line\n'.repeat(2_000);
    const big = await linkStore.put({ ...artifact(text), size: text.length });
    const found = await env.stat(big);
    expect(found).toMatchObject({ size: 10_000, mimeType: 'text/plain' });
    const firstPart = found?.firstPart ?? '';
    expect(firstPart).toMatch(new RegExp(`^${big}\\?offset=0&length=\\d+$`));
    const length = Number(firstPart.split('=').at(-1));
    expect(length).toBeLessThan(ctx.capBytes);
    expect(length % 5).toBe(0); // ends after a newline
    expect(await env.stat(firstPart)).toEqual({ size: length, mimeType: 'text/plain' });
    expect(await env.stat(`${big}?offset=10000`)).toBeUndefined();
    expect(await env.stat(`${big}?nonsense=1`)).toBeUndefined();
  });

  it('names an embedded artifact even when the store cannot keep it', async () => {
    const linkStore = new MemoryLinkStore({ now: () => 0 });
    linkStore.put = () => Promise.reject(new Error('store down'));
    const { env } = await setup({ linkStore });
    expect(await env.artifactUri(artifact('embedded'), false)).toBe(
      await linkStore.uriFor(artifact('embedded')),
    );
    await expect(env.artifactUri(artifact('linked'), true)).rejects.toThrow('store down');
  });

  it("uses the store's own lifetime without content.artifactTtlMs", async () => {
    const linkStore = new MemoryLinkStore({ now: () => 0, ttlMs: 1_000 });
    const { env } = await setup({ linkStore });
    const kept = await env.artifactUri(artifact('linked'), true);
    expect(await linkStore.get(kept)).toMatchObject({ found: { expiresAt: 1_000 } });
  });
});
