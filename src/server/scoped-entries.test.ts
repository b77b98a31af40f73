import { afterEach, describe, expect, it, vi } from 'vitest';
import { modern } from '../testing/messages.js';
import type { AuthInfo } from './auth-info.js';
import { Registry } from './registry.js';
import { createServer } from './server.js';

const alice: AuthInfo = { subject: 'alice', clientId: 'c', scopes: [], claims: {} };

function setup() {
  const server = createServer({ name: 's', version: '1' });
  server.tool('echo', {}, () => 'echo');
  server.resource('mem://doc/{id}', { name: 'doc' }, (_uri, { id }) => `doc ${id}`);
  const peer = server.connect({ transport: 'memory', send: () => undefined });
  const ask = async (message: unknown) =>
    (await peer.handle(message, { authInfo: alice })) as { result?: Record<string, unknown> };
  return { server, ask };
}

afterEach(() => vi.restoreAllMocks());

describe('scope work only on servers with scoped entries', () => {
  it('does none when nothing was registered with scopes', async () => {
    const { server, ask } = setup();
    const lists = vi.spyOn(Registry.prototype, 'list');
    // A template read needs no template matching to learn that it needs no scope.
    expect(server.scopesFor(modern('resources/read', { uri: 'mem://doc/1' }))).toBeUndefined();
    expect(server.scopesFor(modern('tools/call', { name: 'echo' }))).toBeUndefined();
    expect(server.declaredScopes()).toEqual([]);
    expect(lists).not.toHaveBeenCalled();
    // The same list for every caller: nothing makes it private.
    const tools = await ask(modern('tools/list'));
    expect(tools.result?.['cacheScope']).not.toBe('private');
  });

  it('starts with the first scoped registration', async () => {
    const { server, ask } = setup();
    server.resource('mem://vault/{key}', { name: 'vault', scopes: ['admin'] }, () => 'v');
    expect(server.scopesFor(modern('resources/read', { uri: 'mem://vault/a' }))).toEqual(['admin']);
    expect(server.scopesFor(modern('resources/read', { uri: 'mem://doc/1' }))).toBeUndefined();
    server.tool('admin', { scopes: ['admin'] }, () => 'done');
    expect(server.scopesFor(modern('tools/call', { name: 'admin' }))).toEqual(['admin']);
    expect(server.declaredScopes()).toEqual(['admin']);
    const tools = await ask(modern('tools/list'));
    expect((tools.result?.['tools'] as Array<{ name: string }>).map((t) => t.name)).toEqual([
      'echo',
    ]);
    expect(tools.result?.['cacheScope']).toBe('private');
  });
});
