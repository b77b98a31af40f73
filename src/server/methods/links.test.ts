import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../errors/protocol-error.js';
import type { ContentBlock } from '../../protocol/types.js';
import { rejection, testContext, testServer } from '../../testing/server-core.js';
import { MemoryLinkStore, type LinkStore } from '../link-store.js';
import type { ContentOptions } from '../options.js';
import { checkEmittedLinks, resolvesUri } from './links.js';
import { readResource } from './resources.js';

const link = (uri: string): ContentBlock => ({ type: 'resource_link', uri, name: 'n' });
const embedded = (uri: string): ContentBlock => ({
  type: 'resource',
  resource: { uri, text: 't' },
});

function serving(content: ContentOptions = {}, onWarning?: (message: string) => void) {
  const made = testServer({ content, ...(onWarning ? { onWarning } : {}) });
  made.server.resource('docs://readme', { name: 'readme' }, () => 'hi');
  made.server.resource('notes://{+path}', { name: 'notes' }, () => 'note');
  return made;
}

describe('resolvesUri', () => {
  it('resolves registered resources and safely matching templates', async () => {
    const { core } = serving();
    expect(await resolvesUri(core, 'docs://readme')).toBe(true);
    expect(await resolvesUri(core, 'notes://a/b.md')).toBe(true);
    expect(await resolvesUri(core, 'docs://other')).toBe(false);
    expect(await resolvesUri(core, 'mail://x')).toBe(false);
  });

  it('does not resolve a URI the first matching template refuses, as resources/read refuses it', async () => {
    const { server, core } = serving();
    // A later template would accept it: the refusal still wins, here and in reads.
    server.resource('notes://../{name}', { name: 'later' }, () => 'sneaky');
    expect(await resolvesUri(core, 'notes://../secret')).toBe(false);
    expect(await resolvesUri(core, 'notes://%2e%2e/secret')).toBe(false);
    const error = await rejection(readResource(core, 'notes://../secret', testContext(core)));
    expect(error).toMatchObject({ code: -32602, data: { uri: 'notes://../secret' } });
  });

  it('resolves a link-store artifact until it expires, and never an unknown one', async () => {
    let now = 1_000;
    const linkStore = new MemoryLinkStore({ now: () => now, ttlMs: 100 });
    const { core } = testServer({ linkStore });
    const uri = await linkStore.put({ name: 'a', mimeType: 'text/plain', text: 'x', size: 1 });
    const unknown = await linkStore.uriFor({ mimeType: 'text/plain', text: 'never stored' });
    expect(await resolvesUri(core, uri)).toBe(true);
    expect(await resolvesUri(core, unknown)).toBe(false);
    now += 100;
    expect(await resolvesUri(core, uri)).toBe(false);
  });
});

describe('checkEmittedLinks', () => {
  it('accepts links that resolve and ignores blocks that are not links', async () => {
    const { core } = serving();
    const blocks: ContentBlock[] = [
      { type: 'text', text: 'see' },
      link('docs://readme'),
      link('notes://x.md'),
      embedded('docs://readme'),
    ];
    await expect(checkEmittedLinks(core, blocks, 'tool "t"')).resolves.toBeUndefined();
  });

  it('fails with -32603 naming every link nothing serves', async () => {
    const { core } = serving();
    const blocks = [link('docs://gone'), link('docs://readme'), link('mail://x')];
    const error = await rejection(checkEmittedLinks(core, blocks, 'tool "t"'));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32603 });
    expect((error as Error).message).toContain(
      'tool "t" returned resource_link(s) that nothing serves: docs://gone, mail://x.',
    );
  });

  it('does not link-check embedded resources (only resource_link must resolve)', async () => {
    const { core } = serving();
    await expect(
      checkEmittedLinks(core, [embedded('docs://unserved')], 'tool "t"'),
    ).resolves.toBeUndefined();
  });

  it.each(['error', 'warn', 'off'] as const)(
    'fails on an invalid RFC 3986 URI whatever linkCheck says (%s)',
    async (linkCheck) => {
      const warnings: string[] = [];
      const { core } = serving({ linkCheck }, (m) => warnings.push(m));
      for (const block of [link('docs://has space'), embedded('no scheme')]) {
        const error = await rejection(checkEmittedLinks(core, [block], 'prompt "p"'));
        expect(error).toMatchObject({ code: -32603 });
        expect((error as Error).message).toMatch(
          /^prompt "p" returned content\[0\] with an invalid URI/,
        );
      }
      expect(warnings).toEqual([]);
    },
  );

  it('reports the index of the invalid block', async () => {
    const { core } = serving({ linkCheck: 'off' });
    const error = await rejection(
      checkEmittedLinks(core, [link('docs://readme'), link('bad uri')], 'tool "t"'),
    );
    expect((error as Error).message).toContain('content[1] with an invalid URI "bad uri"');
  });

  it("calls onWarning instead of failing under 'warn'", async () => {
    const warnings: string[] = [];
    const { core } = serving({ linkCheck: 'warn' }, (m) => warnings.push(m));
    await checkEmittedLinks(core, [link('docs://gone'), link('docs://readme')], 'tool "t"');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^mcpkit: tool "t" returned resource_link\(s\) .*: docs:\/\/gone\./,
    );
  });

  it("skips resolution entirely under 'off'", async () => {
    const warnings: string[] = [];
    const lookups: string[] = [];
    const store = new MemoryLinkStore();
    const linkStore: LinkStore = {
      put: (artifact, ttlMs) => store.put(artifact, ttlMs),
      get: (uri) => (lookups.push(uri), store.get(uri)),
      owns: (uri) => store.owns(uri),
      uriFor: (content) => store.uriFor(content),
    };
    const { core } = testServer({
      linkStore,
      content: { linkCheck: 'off' },
      onWarning: (m) => warnings.push(m),
    });
    const artifact = await store.uriFor({ mimeType: 'text/plain', text: 'x' });
    await checkEmittedLinks(core, [link('docs://gone'), link(artifact)], 'tool "t"');
    expect(warnings).toEqual([]);
    expect(lookups).toEqual([]);
  });
});
