import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DecisionRecord } from '../content/assemble.js';
import { attach } from '../content/attachment.js';
import { isMcpKitError } from '../errors/mcpkit-error.js';
import { rejection } from '../testing/server-core.js';
import { debugging, describeDecision } from './debug-log.js';
import { assembleForResult, attachUri, type ContentEnv } from './result-assembly.js';

type Known = { name: string; mimeType?: string; size?: number };

/** A ContentEnv literal over a map of resources, counting what assembly asks of it. */
function fakeEnv(
  resources: Record<string, { contents: unknown[] }>,
  opts: {
    known?: Record<string, Known>;
    stat?: { size: number; mimeType?: string };
    options?: ContentEnv['options'];
  } = {},
) {
  const calls = { read: [] as string[], stat: [] as string[], artifact: [] as boolean[] };
  const env: ContentEnv = {
    options: opts.options ?? {},
    capBytes: 1_000_000,
    method: 'tools/call',
    read: async (uri) => {
      calls.read.push(uri);
      const found = resources[uri];
      if (!found) throw new Error(`no ${uri}`);
      return found;
    },
    resolves: async (uri) => uri in resources,
    describe: (uri) => opts.known?.[uri],
    stat: async (uri) => {
      calls.stat.push(uri);
      return opts.stat;
    },
    artifactUri: async (_content, keep) => {
      calls.artifact.push(keep);
      return `mcpkit://artifacts/${'1'.repeat(64)}`;
    },
  };
  return { env, calls };
}

const A = 'mem://docs/a.txt';
const textOf = (uri: string, text: string) => ({
  contents: [{ uri, mimeType: 'text/plain', text }],
});
const item = () => attach({ uri: A, name: 'a.txt', text: 'hi' });
const blobOf = (uri: string, blob: string) => ({
  contents: [{ uri, mimeType: 'application/octet-stream', blob }],
});

describe('attachUri', () => {
  it.each([
    ['mem://docs/Hello%20World.txt?v=1#top', 'Hello World.txt'],
    ['mem://docs/dir/', 'dir'],
    ['mem://docs/%E0%A4', '%E0%A4'],
    ['urn:isbn:123', 'urn:isbn:123'],
  ])('names %s by its last segment, decoded: %j', (uri, name) => {
    const { env } = fakeEnv({});
    expect(attachUri(env, uri).name).toBe(name);
  });

  it('refuses a URI that is not one (a broken %-escape, a space, no scheme): the author’s mistake', () => {
    const { env } = fakeEnv({});
    for (const uri of ['mem://docs/%E0%A4%A', 'not a uri', 'docs/a.txt'])
      expect(() => attachUri(env, uri), uri).toThrow(
        expect.objectContaining({
          code: 'INVALID_URI',
          message: expect.stringContaining('not an absolute URI'),
        }),
      );
  });

  it('takes the name, type and size describe() knows, and lets extra override them', () => {
    const { env } = fakeEnv({}, { known: { [A]: { name: 'A doc', mimeType: 'text/x', size: 3 } } });
    const att = attachUri(env, A);
    expect(att).toMatchObject({ uri: A, name: 'A doc', mimeType: 'text/x', size: 3 });
    expect(att.stat).toBeUndefined();
    expect(attachUri(env, A, { name: 'mine', mode: 'link' })).toMatchObject({
      name: 'mine',
      mode: 'link',
    });
  });

  it('reads lazily, once, and only when the resource is embedded', async () => {
    const { env, calls } = fakeEnv(
      { [A]: textOf(A, 'hello') },
      { known: { [A]: { name: 'a', mimeType: 'text/plain', size: 5 } } },
    );
    const linked = await assembleForResult(env, [attachUri(env, A, { mode: 'link' })]);
    expect(linked.content).toEqual([
      { type: 'resource_link', uri: A, name: 'a', mimeType: 'text/plain', size: 5 },
    ]);
    expect(calls.read).toEqual([]);

    const att = attachUri(env, A);
    expect(calls.read).toEqual([]);
    const embedded = await assembleForResult(env, [att]);
    expect(embedded.content).toEqual([
      { type: 'resource', resource: { uri: A, mimeType: 'text/plain', text: 'hello' } },
    ]);
    await att.load?.();
    expect(calls.read).toEqual([A]);
  });

  it('sizes an undescribed resource with stat and links a large one unread', async () => {
    const big = { size: 50_000_000, mimeType: 'application/pdf' };
    const { env, calls } = fakeEnv({ [A]: textOf(A, 'x') }, { stat: big });
    const { content } = await assembleForResult(env, [attachUri(env, A)]);
    expect(content).toEqual([
      {
        type: 'resource_link',
        uri: A,
        name: 'a.txt',
        mimeType: 'application/pdf',
        size: 50_000_000,
      },
    ]);
    expect(calls).toMatchObject({ stat: [A], read: [] });
  });

  it('reads to size it when stat knows nothing', async () => {
    const { env, calls } = fakeEnv({ [A]: textOf(A, 'small') });
    const { content } = await assembleForResult(env, [attachUri(env, A)]);
    expect(content).toMatchObject([{ type: 'resource', resource: { text: 'small' } }]);
    expect(calls).toMatchObject({ stat: [A], read: [A] });
  });

  it.each([
    ['URL-safe characters', 'AA-_', 'AA+/'],
    ['line breaks and missing padding', 'AAEC\nAQ', 'AAECAQ=='],
    ['canonical base64, untouched', 'AAEC', 'AAEC'],
  ])("repairs a reader's blob with %s", async (_what, blob, canonical) => {
    const { env } = fakeEnv({ [A]: blobOf(A, blob) });
    expect(await attachUri(env, A).load?.()).toEqual({
      blob: canonical,
      mimeType: 'application/octet-stream',
    });
  });

  it('refuses a blob that is not base64 with INVALID_CONTENT naming the URI and offset', async () => {
    const { env } = fakeEnv({ [A]: blobOf(A, 'AA*A') });
    const error = await rejection(assembleForResult(env, [attachUri(env, A, { mode: 'embed' })]));
    expect(isMcpKitError(error, 'INVALID_CONTENT')).toBe(true);
    expect((error as Error).message).toMatch(
      /^mem:\/\/docs\/a\.txt: .*not base64.* at offset 2\)$/,
    );
  });

  it('fails with ATTACHMENT_EMPTY when the read has no contents', async () => {
    const { env } = fakeEnv({ [A]: { contents: [] } });
    const error = await rejection(attachUri(env, A).load?.() ?? Promise.resolve());
    expect(isMcpKitError(error, 'ATTACHMENT_EMPTY')).toBe(true);
  });
});

describe('assembleForResult', () => {
  it('adds no _meta unless explain is set', async () => {
    const { env } = fakeEnv({});
    expect(await assembleForResult(env, [item()])).toEqual({
      content: [{ type: 'resource', resource: { uri: A, mimeType: 'text/plain', text: 'hi' } }],
    });
  });

  it('explains each decision in _meta["dev.mcpkit/decisions"] and calls onDecision with the method', async () => {
    const seen: Array<[DecisionRecord, string]> = [];
    const { env, calls } = fakeEnv(
      {},
      { options: { explain: true, onDecision: (r, m) => seen.push([r, m]) } },
    );
    const text = { type: 'text' as const, text: 'intro' };
    const linked = attach({ name: 'n.txt', text: 'x', mode: 'link' });
    const { content, meta } = await assembleForResult(env, [text, item(), linked]);
    expect(content[0]).toBe(text);
    expect(calls.artifact).toEqual([true]); // the linked artifact goes to the store
    const artifact = `mcpkit://artifacts/${'1'.repeat(64)}`;
    expect(meta).toEqual({
      'dev.mcpkit/decisions': [
        { uri: A, name: 'a.txt', kind: 'embed', reason: 'fits', detail: expect.any(String) },
        {
          uri: artifact,
          name: 'n.txt',
          kind: 'link',
          reason: 'requested-link',
          detail: 'the author asked for a link',
        },
      ],
    });
    expect(seen.map(([r, m]) => [r.name, m])).toEqual([
      ['a.txt', 'tools/call'],
      ['n.txt', 'tools/call'],
    ]);
  });
});

describe('debugging and describeDecision', () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env['MCPKIT_DEBUG'];
  });
  afterEach(() => {
    if (saved === undefined) delete process.env['MCPKIT_DEBUG'];
    else process.env['MCPKIT_DEBUG'] = saved;
    vi.restoreAllMocks();
  });

  it.each([
    [undefined, false],
    ['', false],
    ['policy', true],
    ['links, policy ', true],
    ['*', true],
    ['links,*', true],
    ['policyx,links', false],
  ])('MCPKIT_DEBUG=%j names policy: %s', (value, expected) => {
    if (value === undefined) delete process.env['MCPKIT_DEBUG'];
    else process.env['MCPKIT_DEBUG'] = value;
    expect(debugging('policy')).toBe(expected);
  });

  it('describes a decision in one line, with the URI when there is one', () => {
    const decision = { kind: 'link', reason: 'sensitive', detail: 'needs approval' } as const;
    const record = { uri: A, name: 'a.txt', rawBytes: 1, wireBytes: 2, decision };
    expect(describeDecision('prompts/get', record)).toBe(
      `mcpkit policy: prompts/get a.txt <${A}> -> link (sensitive): needs approval`,
    );
    expect(describeDecision('tools/call', { ...record, uri: undefined })).toBe(
      'mcpkit policy: tools/call a.txt -> link (sensitive): needs approval',
    );
  });

  it('logs decisions to stderr under MCPKIT_DEBUG=policy when no onDecision is set', async () => {
    const errors: unknown[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(line));
    const { env } = fakeEnv({});
    await assembleForResult(env, [item()]);
    expect(errors).toEqual([]);
    process.env['MCPKIT_DEBUG'] = 'policy';
    await assembleForResult(env, [item()]);
    expect(errors).toEqual([expect.stringMatching(/^mcpkit policy: tools\/call a\.txt <mem:/)]);
  });
});
