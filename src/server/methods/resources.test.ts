import { describe, expect, it } from 'vitest';
import { rejection, testContext, testEnv, testServer } from '../../testing/server-core.js';
import { MemoryLinkStore } from '../link-store.js';
import { readResource, resourceMethods } from './resources.js';
import { boundTarget } from './target.js';

function read(core: ReturnType<typeof testServer>['core'], uri: string, era?: 'legacy') {
  return readResource(core, uri, testContext(core, era ? { era } : {}));
}

describe('readResource: what a read returns', () => {
  it('wraps a string in one text content, with the definition mimeType when there is one', async () => {
    const { server, core } = testServer();
    server.resource('docs://typed', { name: 't', mimeType: 'text/markdown' }, () => '# hi');
    server.resource('docs://plain', { name: 'p' }, () => 'hi');
    expect(await read(core, 'docs://typed')).toEqual({
      contents: [{ uri: 'docs://typed', mimeType: 'text/markdown', text: '# hi' }],
    });
    expect(await read(core, 'docs://plain')).toEqual({
      contents: [{ uri: 'docs://plain', text: 'hi' }],
    });
  });

  it('fills in the uri and mimeType that contents leave out, keeping their own', async () => {
    const { server, core } = testServer();
    server.resource('docs://{id}', { name: 'd', mimeType: 'text/plain' }, (_uri, { id }) =>
      id === 'one'
        ? { blob: 'AAEC' }
        : id === 'list'
          ? [
              { uri: 'docs://list#1', text: 'a', mimeType: 'text/csv' },
              { uri: 'docs://list#2', text: 'b' },
            ]
          : { contents: [{ uri: 'docs://wrapped', text: 'w' }] },
    );
    expect(await read(core, 'docs://one')).toEqual({
      contents: [{ uri: 'docs://one', mimeType: 'text/plain', blob: 'AAEC' }],
    });
    expect(await read(core, 'docs://list')).toEqual({
      contents: [
        { uri: 'docs://list#1', text: 'a', mimeType: 'text/csv' },
        { uri: 'docs://list#2', text: 'b', mimeType: 'text/plain' },
      ],
    });
    expect(await read(core, 'docs://other')).toEqual({
      contents: [{ uri: 'docs://wrapped', text: 'w', mimeType: 'text/plain' }],
    });
  });

  it('adds the cache hints of the resource or template definition, and none by default', async () => {
    const { server, core } = testServer();
    server.resource('docs://a', { name: 'a', ttlMs: 5_000, cacheScope: 'public' }, () => 'a');
    server.resource('docs://b', { name: 'b' }, () => 'b');
    server.resource('tpl://{id}', { name: 't', ttlMs: 7 }, () => 't');
    expect(await read(core, 'docs://a')).toMatchObject({ ttlMs: 5_000, cacheScope: 'public' });
    expect(await read(core, 'docs://b')).not.toHaveProperty('ttlMs');
    expect(await read(core, 'docs://b')).not.toHaveProperty('cacheScope');
    const viaTemplate = await read(core, 'tpl://x');
    expect(viaTemplate).toMatchObject({ ttlMs: 7 });
    expect(viaTemplate).not.toHaveProperty('cacheScope');
  });

  it('passes the request context and the decoded variables to read', async () => {
    const { server, core } = testServer();
    const seen: unknown[] = [];
    server.resource('docs://{id}', { name: 'd' }, (uri, variables, ctx) => {
      seen.push([uri, variables, ctx]);
      return 'x';
    });
    const ctx = testContext(core);
    await readResource(core, 'docs://a%20b', ctx);
    expect(seen).toEqual([['docs://a%20b', { id: 'a b' }, ctx]]);
  });
});

describe('readResource: lookup order', () => {
  it('prefers a registered resource over a template that matches the same URI', async () => {
    const { server, core } = testServer();
    server.resource('docs://{id}', { name: 'tpl' }, () => 'from template');
    server.resource('docs://fixed', { name: 'fixed' }, () => 'from resource');
    expect(await read(core, 'docs://fixed')).toMatchObject({
      contents: [{ text: 'from resource' }],
    });
  });

  it('falls through to the next template when a read returns undefined', async () => {
    const { server, core } = testServer();
    const tried: string[] = [];
    server.resource('docs://{a}', { name: 'first' }, () => void tried.push('first'));
    server.resource(
      'docs://{b}',
      { name: 'second' },
      (_u, v) => (tried.push('second'), `b=${v['b']}`),
    );
    server.resource('docs://{c}', { name: 'third' }, () => (tried.push('third'), 'third'));
    expect(await read(core, 'docs://x')).toMatchObject({ contents: [{ text: 'b=x' }] });
    expect(tried).toEqual(['first', 'second']);
  });

  it('refuses a traversal with -32602 naming the URI and variable, reading nothing', async () => {
    const { server, core } = testServer();
    let reads = 0;
    server.resource('files://{+path}', { name: 'files' }, () => (reads++, 'x'));
    server.resource('files://../{name}', { name: 'later' }, () => (reads++, 'x'));
    const error = await rejection(read(core, 'files://%2e%2e/etc', 'legacy'));
    expect(error).toMatchObject({ code: -32602, data: { uri: 'files://%2e%2e/etc' } });
    expect((error as Error).message).toContain('(variable "path")');
    expect(reads).toBe(0);
  });

  it('serves a live link-store artifact with its remaining lifetime as a private cache hint', async () => {
    let shift = 0;
    const linkStore = new MemoryLinkStore({ now: () => Date.now() + shift, ttlMs: 60_000 });
    const { core } = testServer({ linkStore });
    const text = await linkStore.put({ name: 'a', mimeType: 'text/plain', text: 'hello', size: 5 });
    const blob = await linkStore.put({ name: 'b', mimeType: 'image/png', blob: 'iVBO', size: 3 });
    const result = await read(core, text);
    expect(result).toMatchObject({
      contents: [{ uri: text, mimeType: 'text/plain', text: 'hello' }],
      cacheScope: 'private',
    });
    expect(result['ttlMs']).toBeGreaterThan(59_000);
    expect(result['ttlMs']).toBeLessThanOrEqual(60_000);
    expect(await read(core, blob)).toMatchObject({
      contents: [{ uri: blob, mimeType: 'image/png', blob: 'iVBO' }],
    });
    shift = 60_000;
    const expired = await rejection(read(core, text));
    expect(expired).toMatchObject({ code: -32602, data: { uri: text } });
    expect((expired as Error).message).toBe(
      `Resource not found: ${text} (this artifact expired: call the tool that produced it again)`,
    );
  });

  it('answers an artifact the store never held as plainly not found', async () => {
    const linkStore = new MemoryLinkStore();
    const { core } = testServer({ linkStore });
    const uri = await linkStore.uriFor({ mimeType: 'text/plain', text: 'never' });
    expect((await rejection(read(core, uri))) as Error).toMatchObject({
      message: `Resource not found: ${uri}`,
    });
  });
});

describe('readResource: not found', () => {
  it.each([
    ['modern', undefined, -32602],
    ['legacy', 'legacy' as const, -32002],
  ])('%s era: code %d with data.uri', async (_era, era, code) => {
    const { server, core } = testServer();
    server.resource('docs://empty', { name: 'e' }, () => undefined);
    server.resource('tpl://{id}', { name: 't' }, () => undefined);
    for (const uri of ['docs://empty', 'tpl://x', 'nothing://here']) {
      const error = await rejection(read(core, uri, era));
      expect(error).toMatchObject({ code, message: `Resource not found: ${uri}`, data: { uri } });
    }
  });
});

describe('resourceMethods', () => {
  it('lists static resources, then what each template lists, in registration order', async () => {
    const { server, core } = testServer();
    const list = () => [{ uri: 'tpl://1', name: 'one' }];
    server.resource('tpl://{id}', { name: 't', list }, () => 't');
    server.resource('docs://a', { name: 'a' }, () => 'a');
    server.resource(
      'other://{id}',
      { name: 'o', list: async () => [{ uri: 'other://2', name: 'two' }] },
      () => 'o',
    );
    const result = await resourceMethods['resources/list']!.run({}, testEnv(core));
    expect(result).toEqual({
      resources: [
        { uri: 'docs://a', name: 'a' },
        { uri: 'tpl://1', name: 'one' },
        { uri: 'other://2', name: 'two' },
      ],
    });
  });

  it('lists templates without their server-side hooks', async () => {
    const { server, core } = testServer();
    server.resource(
      'tpl://{id}',
      { name: 't', ttlMs: 1, list: () => [], stat: () => undefined },
      () => 'x',
    );
    const result = await resourceMethods['resources/templates/list']!.run({}, testEnv(core));
    expect(result).toEqual({ resourceTemplates: [{ uriTemplate: 'tpl://{id}', name: 't' }] });
  });

  it('reads params.uri, and binds requestState to the URI and caller', async () => {
    const { server, core } = testServer();
    server.resource('docs://a', { name: 'a' }, () => 'a');
    const spec = resourceMethods['resources/read']!;
    expect(await spec.run({ uri: 'docs://a' }, testEnv(core))).toEqual({
      contents: [{ uri: 'docs://a', text: 'a' }],
    });
    expect(spec.target!({ uri: 'docs://a' }, { user: 1 })).toBe(
      boundTarget('resources/read', 'docs://a', undefined, { user: 1 }),
    );
  });
});
