import { describe, expect, it } from 'vitest';
import type { CallToolResult, ContentBlock, ReadResourceResult } from '../../protocol/index.js';
import type { ResolverClient } from '../../host/index.js';
import {
  builtinProfileNames,
  loadProfile,
  parseProfile,
  type FullProfile,
  type SurfaceRules,
} from '../profiles/index.js';
import {
  DECISIONS_META_KEY,
  rewritePromptResult,
  rewriteToolResult,
  type Decision,
  type RewriteContext,
} from './index.js';

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');
const PDF = b64('%PDF-1.4 fake');
const PNG = b64(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));

function upstream(resources: Record<string, ReadResourceResult>) {
  const calls: string[] = [];
  const client: ResolverClient = {
    serverInfo: { name: 'up', version: '1' },
    async readResource(uri) {
      calls.push(uri);
      const r = resources[uri];
      if (!r) throw Object.assign(new Error(`no resource ${uri}`), { code: -32002 });
      return r;
    },
  };
  return { client, calls };
}

const text = (uri: string, t: string, mimeType = 'text/plain'): ReadResourceResult => ({
  contents: [{ uri, mimeType, text: t }],
});

const RESOURCES: Record<string, ReadResourceResult> = {
  'test://a.txt': text('test://a.txt', 'hello from a'),
  'test://b.pdf': { contents: [{ uri: 'test://b.pdf', mimeType: 'application/pdf', blob: PDF }] },
  'test://huge.txt': text('test://huge.txt', 'x'.repeat(64)),
};

const INPUT: ContentBlock[] = [
  { type: 'text', text: 'intro' },
  { type: 'resource_link', uri: 'test://a.txt', name: 'a', mimeType: 'text/plain' },
  { type: 'resource_link', uri: 'test://b.pdf', name: 'b', mimeType: 'application/pdf' },
  { type: 'resource_link', uri: 'test://huge.txt', name: 'huge', size: 10_000_000 },
  { type: 'resource_link', uri: 'http://169.254.169.254/latest', name: 'meta' },
  {
    type: 'resource',
    resource: { uri: 'test://e.md', mimeType: 'text/markdown', text: 'embedded md' },
  },
  { type: 'resource', resource: { uri: 'test://i.png', mimeType: 'image/png', blob: PNG } },
  { type: 'resource', resource: { uri: 'test://d.pdf', mimeType: 'application/pdf', blob: PDF } },
  {
    type: 'resource',
    resource: { uri: 'test://j.json', mimeType: 'application/json', blob: b64('{"a":1}') },
  },
  { type: 'image', data: PNG, mimeType: 'image/png' },
  { type: 'audio', data: b64('RIFF'), mimeType: 'audio/wav' },
];

function ctxFor(
  profile: FullProfile,
  client: ResolverClient,
  extra: Partial<RewriteContext> = {},
): RewriteContext {
  return {
    profile,
    upstream: client,
    maxLinkBytes: 256 * 1024,
    readToolName: 'read_resource',
    ...extra,
  };
}

const blobOk = (side: SurfaceRules, mime: string) =>
  side.blobs === 'all' || (side.blobs === 'image/*' && mime.startsWith('image/'));

/** Whether the host of `side` would surface `block` as it is. */
function surfaced(side: SurfaceRules, block: ContentBlock): boolean {
  switch (block.type) {
    case 'text':
      return true;
    case 'resource_link':
      return side.resourceLinks === 'read';
    case 'image':
    case 'audio':
      return blobOk(side, block.mimeType);
    case 'resource':
      return 'text' in block.resource
        ? side.embeddedText
        : blobOk(side, block.resource.mimeType ?? '');
  }
}

const allText = (blocks: ContentBlock[]) =>
  blocks
    .map((b) =>
      b.type === 'text'
        ? b.text
        : b.type === 'resource' && 'text' in b.resource
          ? b.resource.text
          : '',
    )
    .join('\n');
const decisionsOf = (r: { _meta?: Record<string, unknown> }) =>
  (r._meta?.[DECISIONS_META_KEY] ?? []) as Decision[];

describe.each(builtinProfileNames().map((n) => [n]))('profile %s', (name) => {
  it('tool results: only what the host surfaces reaches it, the rest as text naming the URI', async () => {
    const profile = await loadProfile(name);
    const { client } = upstream(RESOURCES);
    const input: CallToolResult = { content: INPUT };
    const out = await rewriteToolResult(input, ctxFor(profile, client));
    if (name === 'passthrough') {
      expect(out).toBe(input);
      return;
    }
    for (const block of out.content)
      expect(surfaced(profile.tools, block), JSON.stringify(block).slice(0, 120)).toBe(true);
    const texts = allText(out.content);
    expect(texts).toContain('intro');
    if (profile.tools.resourceLinks !== 'read') {
      expect(texts).toContain('hello from a');
      expect(texts).toMatch(
        /test:\/\/b\.pdf \(application\/pdf[^)]*\): not read by the bridge \(mime: .*read_resource \{"uri":"test:\/\/b\.pdf"\}/,
      );
      expect(texts).toMatch(
        /test:\/\/huge\.txt \(10000000 bytes\): not read by the bridge \(size: /,
      );
      expect(texts).toMatch(
        /http:\/\/169\.254\.169\.254\/latest: not read by the bridge \(guard: /,
      );
    }
    expect(texts).toContain('embedded md');
    if (!blobOk(profile.tools, 'application/json')) expect(texts).toContain('{"a":1}');
    if (!blobOk(profile.tools, 'application/pdf'))
      expect(texts).toMatch(
        /test:\/\/d\.pdf \(application\/pdf, 13 bytes\): not shown .*read_resource/,
      );
    const decisions = decisionsOf(out);
    for (const uri of [
      'test://a.txt',
      'test://b.pdf',
      'test://huge.txt',
      'test://e.md',
      'test://i.png',
      'test://d.pdf',
      'test://j.json',
    ])
      expect(decisions.map((d) => d.uri)).toContain(uri);
    for (const d of decisions)
      expect(['embedded', 'kept', 'decoded', 'text', 'truncated', 'dropped']).toContain(d.action);
  });

  it('prompts: the prompt side of the profile, one block per message', async () => {
    const profile = await loadProfile(name);
    const { client } = upstream(RESOURCES);
    const input = { messages: INPUT.map((content) => ({ role: 'user' as const, content })) };
    const out = await rewritePromptResult(input, ctxFor(profile, client));
    if (name === 'passthrough') {
      expect(out).toBe(input);
      return;
    }
    const side = profile.prompts.nonText
      ? profile.prompts
      : { ...profile.prompts, blobs: 'none' as const, embeddedText: false };
    for (const m of out.messages) {
      expect(m.role).toBe('user');
      expect(surfaced(side, m.content)).toBe(true);
    }
    if (!profile.prompts.nonText)
      expect(out.messages.every((m) => m.content.type === 'text')).toBe(true);
    expect(allText(out.messages.map((m) => m.content))).toContain('embedded md');
  });
});

describe('links and budgets', () => {
  const custom = (json: object) =>
    parseProfile({ extends: 'generic-text-only', ...json }, 'test', 'test');

  it('a link exactly at maxLinkBytes is embedded; one byte over is cut and counted', async () => {
    const { client } = upstream({
      'test://5': text('test://5', 'hello'),
      'test://6': text('test://6', 'hello!'),
    });
    const ctx = ctxFor(custom({}), client, { maxLinkBytes: 5 });
    const at = await rewriteToolResult(
      { content: [{ type: 'resource_link', uri: 'test://5', name: '5' }] },
      ctx,
    );
    expect(at.content).toEqual([
      { type: 'resource', resource: { uri: 'test://5', mimeType: 'text/plain', text: 'hello' } },
    ]);
    expect(decisionsOf(at)[0]).toMatchObject({ uri: 'test://5', action: 'embedded', bytes: 5 });
    const over = await rewriteToolResult(
      { content: [{ type: 'resource_link', uri: 'test://6', name: '6' }] },
      ctx,
    );
    expect(allText(over.content)).toContain('hello');
    expect(allText(over.content)).not.toContain('hello!');
    expect(allText(over.content)).toContain(
      'read_resource {"uri":"test://6","offset":5,"length":1}',
    );
    expect(decisionsOf(over)[0]).toMatchObject({ uri: 'test://6', action: 'truncated', bytes: 6 });
  });

  it('a link that claims 10 bytes and sends far more is cut at maxLinkBytes', async () => {
    const big = 'é'.repeat(50_000);
    const { client } = upstream({ 'test://liar': text('test://liar', big) });
    const out = await rewriteToolResult(
      { content: [{ type: 'resource_link', uri: 'test://liar', name: 'liar', size: 10 }] },
      ctxFor(custom({}), client, { maxLinkBytes: 1001 }),
    );
    const kept = (out.content[0] as { resource: { text: string } }).resource.text;
    expect(kept).toBe('é'.repeat(500)); // 1000 bytes: the 501st character would split at 1001
    expect(decisionsOf(out)[0]).toMatchObject({ action: 'truncated', uri: 'test://liar' });
  });

  it('the per-turn budget: exactly at it both are read, one byte over the second is not', async () => {
    const res = { 'test://1': text('test://1', 'aaaaa'), 'test://2': text('test://2', 'bbbbb') };
    const links: ContentBlock[] = [
      { type: 'resource_link', uri: 'test://1', name: '1' },
      { type: 'resource_link', uri: 'test://2', name: '2' },
    ];
    const at = await rewriteToolResult(
      { content: links },
      ctxFor(custom({ read: { maxTurnBytes: 10 } }), upstream(res).client),
    );
    expect(decisionsOf(at).map((d) => d.action)).toEqual(['embedded', 'embedded']);
    const short = await rewriteToolResult(
      { content: links },
      ctxFor(custom({ read: { maxTurnBytes: 9 } }), upstream(res).client),
    );
    expect(decisionsOf(short).map((d) => d.action)).toEqual(['embedded', 'text']);
    expect(decisionsOf(short)[1]?.reason).toMatch(/^budget: /);
    expect(allText(short.content)).toMatch(
      /test:\/\/2 \(5 bytes\): not read by the bridge \(budget: /,
    );
  });

  it('consent from configuration: schemes, URI patterns, MIME types', async () => {
    const { client, calls } = upstream({
      'test://a.txt': text('test://a.txt', 'x'),
      'other://b': text('other://b', 'y'),
    });
    const content: ContentBlock[] = [
      { type: 'resource_link', uri: 'test://a.txt', name: 'a' },
      { type: 'resource_link', uri: 'other://b', name: 'b' },
    ];
    const bySchemes = await rewriteToolResult(
      { content },
      ctxFor(custom({ read: { schemes: ['test'] } }), client),
    );
    expect(decisionsOf(bySchemes).map((d) => d.action)).toEqual(['embedded', 'text']);
    expect(decisionsOf(bySchemes)[1]?.reason).toMatch(/^scheme: /);
    const byPattern = await rewriteToolResult(
      { content },
      ctxFor(custom({ read: { uriPatterns: ['other://*'] } }), client),
    );
    expect(decisionsOf(byPattern).map((d) => d.action)).toEqual(['text', 'embedded']);
    expect(decisionsOf(byPattern)[0]?.reason).toMatch(/^consent: /);
    expect(calls.filter((c) => c === 'test://a.txt')).toHaveLength(1);
  });

  it('never asks the upstream for a loopback or metadata URL', async () => {
    const { client, calls } = upstream({});
    const out = await rewriteToolResult(
      {
        content: [
          { type: 'resource_link', uri: 'http://127.0.0.1:8080/x', name: 'l' },
          { type: 'resource_link', uri: 'https://localhost/y', name: 'h' },
          { type: 'resource_link', uri: 'http://[::1]/z', name: 'v6' },
        ],
      },
      ctxFor(custom({}), client),
    );
    expect(calls).toEqual([]);
    expect(
      decisionsOf(out).every((d) => d.action === 'text' && d.reason.startsWith('guard: ')),
    ).toBe(true);
  });

  it('a failed read becomes a line naming the URI and the error', async () => {
    const out = await rewriteToolResult(
      { content: [{ type: 'resource_link', uri: 'test://gone', name: 'gone' }] },
      ctxFor(custom({}), upstream({}).client),
    );
    expect(allText(out.content)).toMatch(
      /test:\/\/gone: not read by the bridge \(JSONRPC_-32002: no resource test:\/\/gone\)/,
    );
  });

  it('a host that reads links keeps them', async () => {
    const p = custom({ tools: { resourceLinks: 'read' } });
    const { client, calls } = upstream(RESOURCES);
    const link: ContentBlock = { type: 'resource_link', uri: 'test://a.txt', name: 'a' };
    const out = await rewriteToolResult({ content: [link] }, ctxFor(p, client));
    expect(out.content).toEqual([link]);
    expect(calls).toEqual([]);
  });

  it('embedded text as a text block for a host that does not surface embedded resources', async () => {
    const p = custom({ tools: { embeddedText: false } });
    const out = await rewriteToolResult(
      {
        content: [
          {
            type: 'resource',
            resource: { uri: 'test://e', mimeType: 'text/csv', text: 'a,b\n1,2' },
          },
        ],
      },
      ctxFor(p, upstream({}).client),
    );
    expect(out.content).toHaveLength(1);
    expect(out.content[0]).toMatchObject({ type: 'text' });
    expect(allText(out.content)).toMatch(
      /test:\/\/e \(text\/csv, 7 bytes\), embedded text:\na,b\n1,2$/,
    );
  });

  it('a hung read ends at readTimeoutMs with a line naming the URI', async () => {
    const seen: unknown[] = [];
    const hung: ResolverClient = {
      readResource: (_uri, options) =>
        new Promise((_, reject) => {
          seen.push(options?.timeoutMs);
          setTimeout(() => reject(Object.assign(new Error('timed out'), { code: -32001 })), 5);
        }),
    };
    const out = await rewriteToolResult(
      { content: [{ type: 'resource_link', uri: 'test://slow', name: 'slow' }] },
      ctxFor(custom({}), hung, { readTimeoutMs: 1234 }),
    );
    expect(seen).toEqual([1234]);
    expect(allText(out.content)).toMatch(
      /test:\/\/slow: not read by the bridge \(JSONRPC_-32001: timed out\)/,
    );
  });
});
