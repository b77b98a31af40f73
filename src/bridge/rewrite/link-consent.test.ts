import { describe, expect, it } from 'vitest';
import type { ContentBlock, ReadResourceResult } from '../../protocol/index.js';
import type { ResolverClient } from '../../host/index.js';
import { parseProfile } from '../profiles/index.js';
import { DECISIONS_META_KEY, rewriteToolResult, type Decision } from './index.js';
import {
  blockedLinkHost,
  compileUriPattern,
  MAX_LINK_URI_CHARS,
  refuseLink,
} from './link-consent.js';

function upstream(resources: Record<string, ReadResourceResult> = {}) {
  const calls: string[] = [];
  const client: ResolverClient = {
    async readResource(uri) {
      calls.push(uri);
      const r = resources[uri];
      if (!r) throw Object.assign(new Error(`no resource ${uri}`), { code: -32002 });
      return r;
    },
  };
  return { client, calls };
}

const profile = (json: object = {}) =>
  parseProfile({ extends: 'generic-text-only', ...json }, 'test', 'test');

const linkTo = (uri: string): ContentBlock => ({ type: 'resource_link', uri, name: 'l' });

describe('URI patterns', () => {
  it('match as before: `*` any run (slashes too), `?` one character', () => {
    const md = compileUriPattern('file:///*/*/*.md');
    expect(md('file:///a/b/c.md')).toBe(true);
    expect(md('file:///a/b/c/d/e.md')).toBe(true);
    expect(md('file:///a/b.md')).toBe(false);
    expect(md('file:///a/b/c.mdx')).toBe(false);
    expect(compileUriPattern('test://?')('test://a')).toBe(true);
    expect(compileUriPattern('test://?')('test://ab')).toBe(false);
    expect(compileUriPattern('a.c')('abc')).toBe(false);
    expect(compileUriPattern('*')('')).toBe(true);
    expect(compileUriPattern('')('x')).toBe(false);
  });

  it('take bounded time on a long URI that almost matches (a regular expression took 30 s)', () => {
    const uri = `file:///${'a/'.repeat(2000)}x.mdx`;
    expect(compileUriPattern('file:///*/*/*/*/*.md')(uri)).toBe(false);
    expect(refuseLink(uri, [compileUriPattern('file:///*/*/*.md')])).toMatch(/^consent: /);
  }, 10_000);

  it('a URI over 8 KiB is not read, with a reason naming the limit', async () => {
    const uri = `test://${'x'.repeat(MAX_LINK_URI_CHARS)}`;
    const { client, calls } = upstream();
    const out = await rewriteToolResult({ content: [linkTo(uri)] }, ctx(client));
    expect(calls).toEqual([]);
    const [d] = decisionsOf(out);
    expect(d).toMatchObject({ action: 'text' });
    expect(d?.reason).toBe(
      `consent: the URI is ${uri.length} characters long, over the ${MAX_LINK_URI_CHARS} the bridge reads links for`,
    );
    expect((out.content[0] as { text: string }).text).toContain('Read it with read_resource');
  });
});

function ctx(client: ResolverClient) {
  return {
    profile: profile(),
    upstream: client,
    maxLinkBytes: 1 << 16,
    readToolName: 'read_resource',
  };
}
const decisionsOf = (r: { _meta?: Record<string, unknown> }) =>
  (r._meta?.[DECISIONS_META_KEY] ?? []) as Decision[];

describe('the guard on link hosts', () => {
  it.each([
    'http://localhost./x',
    'http://LOCALHOST/x',
    'http://metadata.google.internal./x',
    'https://metadata.goog/x',
    'http://169.254.169.254.nip.io/',
    'ws://127.0.0.1/',
    'wss://[::1]/',
    'ftp://10.0.0.1/f',
    'http://0x7f000001/',
    'http://[::ffff:127.0.0.1]/',
    'https://docs.example.com/guide.md',
    'http://93.184.215.14/',
    'file://fileserver/share/x.txt',
    'x-custom://127.0.0.1/y',
    'x-custom://localhost./y',
  ])('%s is not asked of the upstream', async (uri) => {
    const { client, calls } = upstream();
    const out = await rewriteToolResult({ content: [linkTo(uri)] }, ctx(client));
    expect(calls).toEqual([]);
    const [d] = decisionsOf(out);
    expect(d).toMatchObject({ uri, action: 'text' });
    expect(d?.reason).toMatch(/^guard: /);
    expect((out.content[0] as { text: string }).text).toContain('not read by the bridge (guard: ');
    expect((out.content[0] as { text: string }).text).not.toContain('read_resource');
  });

  it('names the guard reason for a local or metadata host', () => {
    expect(refuseLink('http://localhost./x', null)).toMatch(/\(loopback\)$/);
    expect(refuseLink('http://metadata.google.internal./x', null)).toMatch(/\(metadata\)$/);
    expect(refuseLink('ws://127.0.0.1/', null)).toMatch(/\(loopback\)$/);
  });

  it.each([
    ['gopher://127.1:6379/_x', 'loopback'],
    ['gopher://2130706433/', 'loopback'],
    ['gopher://0177.0.0.1/', 'loopback'],
    ['gopher://127.1./', 'loopback'],
    ['gopher://%6cocalhost/', 'loopback'],
    ['sftp://0x7f000001/', 'loopback'],
    ['smb://0xa9fea9fe/', 'metadata'],
    ['ftps://0xa9.0xfe.0xa9.0xfe/', 'metadata'],
    ['telnet://10.1/', 'private'],
    ['ldap://0x0a000001/', 'private'],
    ['ssh://0/', 'unspecified'],
    ['ftp://[::ffff:7f00:1]/', 'ipv4Mapped'],
    ['gopher://[::ffff:7f00:1]/', 'ipv4Mapped'],
  ])('reads the host of a network URI as a client would: %s is %s', (uri, reason) => {
    expect(blockedLinkHost(uri)).toMatch(new RegExp(`\\(${reason}\\)$`));
    expect(refuseLink(uri, null)).toBe(blockedLinkHost(uri));
  });

  it.each([
    'gopher://example.com/1',
    'sftp://93.184.215.14/',
    'gopher://1572395790/',
    'ssh://git.example.com/repo',
    'note://5',
    'note://0x7f000001/',
  ])('does not refuse the host of %s', (uri) => expect(blockedLinkHost(uri)).toBeUndefined());

  it('still reads an upstream URI of its own scheme, and local files', async () => {
    const text = (uri: string): ReadResourceResult => ({
      contents: [{ uri, mimeType: 'text/plain', text: `from ${uri}` }],
    });
    const uris = ['test://a.txt', 'file:///srv/a.txt', 'file://localhost/srv/b.txt', 'note:plain'];
    const { client, calls } = upstream(Object.fromEntries(uris.map((u) => [u, text(u)])));
    const out = await rewriteToolResult({ content: uris.map(linkTo) }, ctx(client));
    expect(calls).toEqual(uris);
    expect(decisionsOf(out).map((d) => d.action)).toEqual(uris.map(() => 'embedded'));
  });
});
