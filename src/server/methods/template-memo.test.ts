import { describe, expect, it } from 'vitest';
import { modern } from '../../testing/messages.js';
import { connectInMemory } from '../../transports/memory.js';
import { createServer } from '../server.js';

describe('template matches remembered per URI', () => {
  it('follow the template list: a removed template stops matching, a new one starts', async () => {
    const server = createServer({ name: 's', version: '1' });
    const conn = connectInMemory(server);
    const read = async () =>
      JSON.stringify(await conn.send(modern('resources/read', { uri: 'note://a' })));
    const off = server.resource(
      'note://{name}',
      { name: 'n' },
      (_u, v) => `one ${String(v['name'])}`,
    );
    expect(await read()).toContain('one a');
    expect(await read()).toContain('one a');
    off();
    expect(await read()).toContain('Resource not found');
    server.resource('note://{name}', { name: 'n' }, (_u, v) => `two ${String(v['name'])}`);
    expect(await read()).toContain('two a');
  });

  it('hand each read its own copy of the variables: a handler cannot change what the next one sees', async () => {
    const server = createServer({ name: 's', version: '1', onError: () => undefined });
    const conn = connectInMemory(server);
    const seen: unknown[] = [];
    server.resource('note://{name}', { name: 'n' }, (_u, v) => {
      seen.push(v['name']);
      try {
        (v as Record<string, unknown>)['name'] = 'changed';
      } catch {
        // frozen
      }
      return 'x';
    });
    await conn.send(modern('resources/read', { uri: 'note://a' }));
    await conn.send(modern('resources/read', { uri: 'note://a' }));
    expect(seen).toEqual(['a', 'a']);
  });
});
