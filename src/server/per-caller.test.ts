import { describe, expect, it } from 'vitest';
import { initializeRequest, legacy, modern } from '../testing/messages.js';
import type { AuthInfo } from './auth-info.js';
import { createServer } from './server.js';
import { versionedRead } from './versioned-read.js';

const who = (subject: string, scopes: string[] = []): AuthInfo => ({
  subject,
  clientId: 'c',
  issuer: 'https://as.example',
  scopes,
  claims: { sub: subject },
});
const alice = who('alice');
const bob = who('bob');

type Answer = {
  result?: Record<string, unknown> & { content?: Array<Record<string, unknown>> };
  error?: { code: number; message: string };
};

function setup() {
  const server = createServer({ name: 's', version: '1', content: { capBytes: 8_000 } });
  // One version object for every caller: only the cache key can keep their answers apart.
  const version = {};
  server.resource('mem://me', { name: 'me' }, (_uri, _v, ctx) =>
    versionedRead(`you are ${ctx.auth?.subject ?? 'nobody'}`, version),
  );
  server.tool('report', {}, (_a, ctx) =>
    ctx.result(ctx.attach({ name: 'r.txt', mimeType: 'text/plain', text: 'q'.repeat(20_000) })),
  );
  server.tool('admin', { scopes: ['admin'] }, () => 'done');
  server.prompt(
    'audit',
    {
      scopes: ['admin'],
      arguments: [{ name: 'who' }],
      complete: { who: () => ['alice-secret'] },
    },
    () => 'audit everything',
  );
  server.resource('mem://secret', { name: 'secret', scopes: ['admin'] }, () => 'the secret');
  server.resource(
    'mem://vault/{key}',
    {
      name: 'vault',
      scopes: ['admin'],
      list: () => [{ uri: 'mem://vault/a', name: 'a' }],
      complete: { key: () => ['hidden-key'] },
    },
    (_uri, { key }) => `vault ${key}`,
  );
  const sent: Array<{ method?: string; params?: Record<string, unknown> }> = [];
  const peer = server.connect({ transport: 'memory', send: (m) => void sent.push(m as never) });
  const ask = async (message: unknown, auth?: AuthInfo) =>
    (await peer.handle(message, auth ? { authInfo: auth } : {})) as Answer;
  return { ask, server, sent };
}

const textOf = (a: Answer) =>
  (a.result?.['contents'] as Array<{ text?: string }> | undefined)?.[0]?.text;

describe('per-caller data', () => {
  it('never answers a private read encoded for another caller', async () => {
    const { ask } = setup();
    expect(textOf(await ask(modern('resources/read', { uri: 'mem://me' }), alice))).toBe(
      'you are alice',
    );
    expect(textOf(await ask(modern('resources/read', { uri: 'mem://me' }), bob))).toBe(
      'you are bob',
    );
  });

  it('gives an artifact made for one caller to that caller only', async () => {
    const { ask } = setup();
    const made = await ask(modern('tools/call', { name: 'report', arguments: {} }), alice);
    const link = made.result?.content?.find((c) => c['type'] === 'resource_link');
    const uri = String(link?.['uri']);
    expect(uri).toMatch(/^mcpkit:\/\/artifacts\//);
    const mine = await ask(modern('resources/read', { uri }), alice);
    expect(textOf(mine)).toMatch(/^q+$/);
    const theirs = await ask(modern('resources/read', { uri }), bob);
    expect(theirs.error?.code).toBe(-32602);
    // The same content made for bob has a URI of its own.
    const again = await ask(modern('tools/call', { name: 'report', arguments: {} }), bob);
    const other = again.result?.content?.find((c) => c['type'] === 'resource_link')?.['uri'];
    expect(other).not.toBe(uri);
  });

  it('refuses a tool to a caller without its scope, and runs it for one with it', async () => {
    const { ask } = setup();
    const refused = await ask(modern('tools/call', { name: 'admin', arguments: {} }), alice);
    expect(refused.error?.message).toMatch(/needs the scope admin/);
    const ok = await ask(
      modern('tools/call', { name: 'admin', arguments: {} }),
      who('root', ['admin']),
    );
    expect(ok.result?.content?.[0]?.['text']).toBe('done');
  });

  it('holds prompts, resources and templates to their scopes, in lists too', async () => {
    const { ask } = setup();
    const root = who('root', ['admin']);
    for (const message of [
      modern('prompts/get', { name: 'audit' }),
      modern('resources/read', { uri: 'mem://secret' }),
      modern('resources/read', { uri: 'mem://vault/a' }),
    ]) {
      expect((await ask(message, alice)).error?.message).toMatch(/needs the scope admin/);
      expect((await ask(message, root)).result).toBeDefined();
    }
    const names = async (method: string, field: string, key: string, auth: AuthInfo) =>
      ((await ask(modern(method), auth)).result?.[field] as Array<Record<string, string>>).map(
        (e) => e[key],
      );
    expect(await names('prompts/list', 'prompts', 'name', alice)).toEqual([]);
    expect(await names('prompts/list', 'prompts', 'name', root)).toEqual(['audit']);
    expect(await names('resources/list', 'resources', 'uri', alice)).toEqual(['mem://me']);
    expect(await names('resources/list', 'resources', 'uri', root)).toEqual([
      'mem://me',
      'mem://secret',
      'mem://vault/a',
    ]);
    expect(
      await names('resources/templates/list', 'resourceTemplates', 'uriTemplate', alice),
    ).toEqual([]);
    // Scopes never reach the wire.
    const tools = (await ask(modern('tools/list'), root)).result?.['tools'] as object[];
    expect(JSON.stringify(tools)).not.toContain('scopes');
  });

  it('holds completion to the scopes of its prompt or template (engine and HTTP gate)', async () => {
    const { ask, server } = setup();
    const root = who('root', ['admin']);
    const refs = [
      { ref: { type: 'ref/prompt', name: 'audit' }, argument: { name: 'who', value: '' } },
      {
        ref: { type: 'ref/resource', uri: 'mem://vault/{key}' },
        argument: { name: 'key', value: '' },
      },
      { ref: { type: 'ref/resource', uri: 'mem://vault/a' }, argument: { name: 'key', value: '' } },
    ];
    for (const params of refs) {
      const message = modern('completion/complete', params);
      const refused = await ask(message, alice);
      expect(refused.error?.message).toMatch(/needs the scope admin/);
      expect(JSON.stringify(refused)).not.toMatch(/secret|hidden-key/);
      const ok = await ask(message, root);
      expect((ok.result?.['completion'] as { values: string[] }).values.length).toBe(1);
      expect(server.scopesFor(message)).toEqual(['admin']);
    }
  });

  it('marks lists private for a caller when entries have scopes (they differ per caller)', async () => {
    const { ask } = setup();
    for (const method of [
      'tools/list',
      'prompts/list',
      'resources/list',
      'resources/templates/list',
    ]) {
      expect((await ask(modern(method), alice)).result?.['cacheScope']).toBe('private');
      // No caller (stdio): nothing is filtered, the list is the same for everyone.
      expect((await ask(modern(method))).result?.['cacheScope']).toBe('public');
    }
  });

  it('leaves URIs the caller may not read out of a listen, and refuses their legacy subscribe', async () => {
    const { ask, server, sent } = setup();
    const listening = ask(
      modern('subscriptions/listen', {
        notifications: { resourceSubscriptions: ['mem://me', 'mem://secret', 'mem://vault/a'] },
      }),
      alice,
    );
    const acknowledged = () =>
      sent.find((m) => m.method === 'notifications/subscriptions/acknowledged');
    for (let i = 0; i < 50 && !acknowledged(); i++) await new Promise((r) => setImmediate(r));
    expect(acknowledged()?.params?.['notifications']).toEqual({
      resourceSubscriptions: ['mem://me'],
    });
    server.close();
    await listening.catch(() => undefined);

    const other = setup();
    expect((await other.ask(initializeRequest(), alice)).result).toBeDefined();
    const refused = await other.ask(legacy('resources/subscribe', { uri: 'mem://secret' }), alice);
    expect(refused.error?.message).toMatch(/needs the scope admin/);
    const root = who('root', ['admin']);
    expect(
      (await other.ask(legacy('resources/subscribe', { uri: 'mem://vault/a' }), root)).result,
    ).toEqual({});
    expect(other.server.scopesFor(legacy('resources/subscribe', { uri: 'mem://secret' }))).toEqual([
      'admin',
    ]);
  });

  it('sends no update of a sub-resource the caller may not read through a parent it follows', async () => {
    const { ask, server, sent } = setup();
    const tick = async () => {
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    };
    const updates = () =>
      sent
        .filter((m) => m.method === 'notifications/resources/updated')
        .map((m) => m.params?.['uri']);
    // mem://vault names no resource: following it is allowed, yet it covers mem://vault/{key}.
    const listening = ask(
      modern('subscriptions/listen', { notifications: { resourceSubscriptions: ['mem://vault'] } }),
      alice,
    );
    await tick();
    server.notifyResourceUpdated('mem://vault/a');
    server.notifyResourceUpdated('mem://vault');
    await tick();
    expect(updates()).toEqual(['mem://vault']);
    server.close();
    await listening;

    const other = setup();
    expect((await other.ask(initializeRequest(), alice)).result).toBeDefined();
    expect(
      (await other.ask(legacy('resources/subscribe', { uri: 'mem://vault' }), alice)).result,
    ).toEqual({});
    other.server.notifyResourceUpdated('mem://vault/a');
    other.server.notifyResourceUpdated('mem://vault');
    await tick();
    expect(
      other.sent
        .filter((m) => m.method === 'notifications/resources/updated')
        .map((m) => m.params?.['uri']),
    ).toEqual(['mem://vault']);
    other.server.close();
  });
});
