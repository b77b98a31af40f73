import { describe, expect, it } from 'vitest';
import { testServer } from '../../testing/server-core.js';
import { matchTemplates, statResource } from './templates.js';

const noRead = () => undefined;

/** Hits as plain data: which template, and its variables or refusal. */
function hits(core: ReturnType<typeof testServer>['core'], uri: string) {
  return [...matchTemplates(core, uri)].map((hit) =>
    'refused' in hit
      ? { template: hit.entry.template.uriTemplate, refused: hit.refused, variable: hit.variable }
      : { template: hit.entry.template.uriTemplate, variables: hit.variables },
  );
}

describe('matchTemplates', () => {
  it('yields every matching template in registration order, with decoded variables', () => {
    const { server, core } = testServer();
    server.resource('docs://{a}/{b}', { name: 'pair' }, noRead);
    server.resource('other://{x}', { name: 'other' }, noRead);
    server.resource('docs://{+path}', { name: 'path' }, noRead);
    expect(hits(core, 'docs://a%20b/c')).toEqual([
      { template: 'docs://{a}/{b}', variables: { a: 'a b', b: 'c' } },
      { template: 'docs://{+path}', variables: { path: 'a b/c' } },
    ]);
  });

  it('yields nothing when no template matches', () => {
    const { server, core } = testServer();
    server.resource('docs://{id}', { name: 'doc' }, noRead);
    expect(hits(core, 'mail://x')).toEqual([]);
  });

  it.each([
    ['a literal ".." segment', 'docs://../x'],
    ['an encoded "%2e%2e" segment', 'docs://%2e%2e/x'],
  ])('ends the walk at a refused match (%s): later templates are not tried', (_what, uri) => {
    const { server, core } = testServer();
    server.resource('docs://{+path}', { name: 'path' }, noRead);
    // Would accept the URI safely, but comes after the refusing template.
    server.resource(
      uri === 'docs://../x' ? 'docs://../{name}' : 'docs://%2e%2e/{name}',
      { name: 'later' },
      noRead,
    );
    expect(hits(core, uri)).toEqual([
      {
        template: 'docs://{+path}',
        refused: 'variable "path" contains a ".." segment',
        variable: 'path',
      },
    ]);
  });

  it('lets an earlier safe match through before a later template refuses', () => {
    const { server, core } = testServer();
    server.resource('docs://../{name}', { name: 'first' }, noRead);
    server.resource('docs://{+path}', { name: 'second' }, noRead);
    const found = hits(core, 'docs://../x');
    expect(found).toHaveLength(2);
    expect(found[0]).toEqual({ template: 'docs://../{name}', variables: { name: 'x' } });
    expect(found[1]).toMatchObject({ template: 'docs://{+path}', variable: 'path' });
  });

  it('refuses an encoded "/" in a simple variable', () => {
    const { server, core } = testServer();
    server.resource('docs://{id}', { name: 'doc' }, noRead);
    expect(hits(core, 'docs://a%2Fb')).toEqual([
      { template: 'docs://{id}', refused: expect.stringContaining('"/"'), variable: 'id' },
    ]);
  });

  it('follows registration changes (a removed template is no longer matched)', () => {
    const { server, core } = testServer();
    const remove = server.resource('docs://{id}', { name: 'doc' }, noRead);
    expect(hits(core, 'docs://x')).toHaveLength(1);
    remove();
    expect(hits(core, 'docs://x')).toEqual([]);
  });
});

describe('statResource', () => {
  it('asks the first safe match with a stat hook, with the decoded variables', async () => {
    const { server, core } = testServer();
    const calls: unknown[] = [];
    server.resource('blob://{id}', { name: 'no stat' }, noRead);
    server.resource(
      'blob://{key}',
      {
        name: 'sized',
        stat: (uri, variables) => {
          calls.push([uri, variables]);
          return { size: 7, mimeType: 'text/plain' };
        },
      },
      noRead,
    );
    expect(await statResource(core, 'blob://a%20b')).toEqual({ size: 7, mimeType: 'text/plain' });
    expect(calls).toEqual([['blob://a%20b', { key: 'a b' }]]);
  });

  it('goes on to the next template when a stat hook knows nothing', async () => {
    const { server, core } = testServer();
    server.resource('blob://{id}', { name: 'a', stat: () => undefined }, noRead);
    server.resource('blob://{key}', { name: 'b', stat: () => ({ size: 3 }) }, noRead);
    expect(await statResource(core, 'blob://x')).toEqual({ size: 3 });
  });

  it('sizes nothing when the first matching template refuses the URI', async () => {
    const { server, core } = testServer();
    let asked = false;
    server.resource('blob://{+path}', { name: 'guarded' }, noRead);
    const stat = () => ((asked = true), { size: 1 });
    server.resource('blob://../{name}', { name: 'later', stat }, noRead);
    expect(await statResource(core, 'blob://../x')).toBeUndefined();
    expect(asked).toBe(false);
  });

  it('sizes nothing when no template matches or none has a stat hook', async () => {
    const { server, core } = testServer();
    server.resource('blob://{id}', { name: 'plain' }, noRead);
    expect(await statResource(core, 'blob://x')).toBeUndefined();
    expect(await statResource(core, 'other://x')).toBeUndefined();
  });
});
