import { describe, expect, it } from 'vitest';
import { modern } from '../../testing/messages.js';
import { connectInMemory } from '../../transports/memory.js';
import type { ServerCore } from '../core.js';
import { createServer } from '../server.js';
import { matchTemplates } from './templates.js';

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

  it('a read walks the templates of when it began: one removed meanwhile skips none after it', async () => {
    const server = createServer({ name: 's', version: '1' });
    const conn = connectInMemory(server);
    let off = (): void => undefined;
    // The first template gives way (undefined) after removing itself mid-read.
    off = server.resource('mem://{+p}', { name: 'first' }, async () => {
      await new Promise((r) => setTimeout(r, 5));
      off();
      return undefined;
    });
    server.resource('mem://x/{q}', { name: 'second' }, (_u, v) => `second ${String(v['q'])}`);
    const res = await conn.send(modern('resources/read', { uri: 'mem://x/y' }));
    expect(JSON.stringify(res)).toContain('second y');
  });

  it('a URI no template matches is not remembered, nor does it make room for itself', async () => {
    const server = createServer({ name: 's', version: '1' });
    server.resource('note://{name}', { name: 'n' }, () => 'x');
    const core = (server as unknown as { core: ServerCore }).core;
    const first = matchTemplates(core, 'note://0')[0];
    // Up to the bound (10,000 URIs), each matching URI is remembered: the same hit again.
    for (let i = 1; i < 10_000; i++) matchTemplates(core, `note://${i}`);
    expect(matchTemplates(core, 'note://0')[0]).toBe(first);
    for (let i = 0; i < 50; i++) expect(matchTemplates(core, `other://${i}`)).toEqual([]);
    expect(matchTemplates(core, 'note://0')[0]).toBe(first);
  });
});
