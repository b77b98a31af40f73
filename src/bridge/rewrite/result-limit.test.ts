import { describe, expect, it } from 'vitest';
import type { CallToolResult, ContentBlock } from '../../protocol/index.js';
import type { ResolverClient } from '../../host/index.js';
import { loadProfile, parseProfile } from '../profiles/index.js';
import {
  DECISIONS_META_KEY,
  rewriteToolResult,
  type Decision,
  type RewriteContext,
} from './index.js';

const client: ResolverClient = {
  async readResource() {
    throw new Error('not used');
  },
};
const profile = await loadProfile('generic-text-only');
const ctx = (extra: Partial<RewriteContext> = {}): RewriteContext => ({
  profile,
  upstream: client,
  maxLinkBytes: 256 * 1024,
  readToolName: 'read_resource',
  ...extra,
});
const texts = (blocks: ContentBlock[]) =>
  blocks.map((b) =>
    b.type === 'text'
      ? b.text
      : b.type === 'resource' && 'text' in b.resource
        ? b.resource.text
        : '',
  );
const size = (blocks: ContentBlock[]) => texts(blocks).reduce((n, t) => n + t.length, 0);
const decisions = (r: CallToolResult) => (r._meta?.[DECISIONS_META_KEY] ?? []) as Decision[];
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('the host limit on a result', () => {
  it('exactly at the limit: unchanged; one character over: cut, with a note', async () => {
    const at: CallToolResult = { content: [{ type: 'text', text: 'a'.repeat(1000) }] };
    expect(await rewriteToolResult(at, ctx({ maxResultChars: 1000 }))).toBe(at);
    const over: CallToolResult = { content: [{ type: 'text', text: 'a'.repeat(1001) }] };
    const out = await rewriteToolResult(over, ctx({ maxResultChars: 1000 }));
    expect(size(out.content)).toBeLessThanOrEqual(1000);
    expect(texts(out.content).at(-1)).toMatch(
      /^\[mcpkit bridge: this result was cut to the host's limit \(1000 characters\)/,
    );
    expect(decisions(out)).toEqual([expect.objectContaining({ action: 'truncated', block: 0 })]);
  });

  it('never splits a surrogate pair, and counts the note', async () => {
    const emoji = '😀'.repeat(2000);
    for (const limit of [700, 701, 702, 703]) {
      const out = await rewriteToolResult(
        { content: [{ type: 'text', text: emoji }] },
        ctx({ maxResultChars: limit }),
      );
      expect(size(out.content)).toBeLessThanOrEqual(limit);
      for (const t of texts(out.content)) expect(LONE_SURROGATE.test(t)).toBe(false);
      expect(texts(out.content)[0]?.length).toBeGreaterThan(0);
    }
  });

  it('a token limit counts UTF-8 bytes / 4, and never splits a character', async () => {
    const p = parseProfile(
      { extends: 'generic-text-only', tools: { maxResult: { tokens: 300 } } },
      't',
      't',
    );
    const out = await rewriteToolResult(
      { content: [{ type: 'text', text: 'é€😀'.repeat(1000) }] },
      ctx({ profile: p }),
    );
    const bytes = texts(out.content).reduce((n, t) => n + Buffer.byteLength(t), 0);
    expect(bytes).toBeLessThanOrEqual(1200);
    for (const t of texts(out.content)) expect(LONE_SURROGATE.test(t)).toBe(false);
  });

  it('JSON is cut after a whole top-level member and stays JSON', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `row ${i}, "quoted" [x]` }));
    const json = JSON.stringify(rows, null, 2);
    const out = await rewriteToolResult(
      { content: [{ type: 'text', text: json }] },
      ctx({ maxResultChars: 3000 }),
    );
    const kept = JSON.parse(texts(out.content)[0] as string) as unknown[];
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(rows.slice(0, kept.length));
    expect(size(out.content)).toBeLessThanOrEqual(3000);
    expect(texts(out.content).at(-1)).toContain(`top-level members`);
  });

  it('JSON whose first member does not fit becomes a note, never broken JSON', async () => {
    const json = JSON.stringify([{ big: 'x'.repeat(5000) }, 1]);
    const out = await rewriteToolResult(
      { content: [{ type: 'text', text: json }] },
      ctx({ maxResultChars: 1000 }),
    );
    expect(texts(out.content)).toHaveLength(1);
    expect(texts(out.content)[0]).toMatch(/^\[mcpkit bridge: /);
    expect(decisions(out)[0]?.reason).toContain('left out whole');
  });

  it('the rest of an embedded resource is read with a ranged read of its URI', async () => {
    const body = 'line one\n'.repeat(300);
    const out = await rewriteToolResult(
      {
        content: [
          { type: 'resource', resource: { uri: 'test://log', mimeType: 'text/plain', text: body } },
        ],
      },
      ctx({ maxResultChars: 1000 }),
    );
    const kept = texts(out.content)[0] as string;
    expect(body.startsWith(kept)).toBe(true);
    expect(kept.endsWith('\n')).toBe(true);
    const offset = Buffer.byteLength(kept);
    expect(texts(out.content).at(-1)).toContain(
      `read_resource {"uri":"test://log","offset":${offset},"length":${Buffer.byteLength(body) - offset}}`,
    );
    expect(decisions(out).find((d) => d.action === 'truncated')).toMatchObject({
      uri: 'test://log',
      bytes: Buffer.byteLength(body),
    });
  });

  it('text after the cut is left out and listed; images do not count', async () => {
    const image: ContentBlock = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
    const out = await rewriteToolResult(
      {
        content: [
          { type: 'text', text: 'a'.repeat(800) },
          { type: 'text', text: 'b'.repeat(800) },
          image,
          { type: 'resource', resource: { uri: 'test://c', text: 'c'.repeat(800) } },
        ],
      },
      ctx({ maxResultChars: 1200 }),
    );
    expect(out.content).toContainEqual(image);
    expect(size(out.content)).toBeLessThanOrEqual(1200);
    expect(decisions(out).map((d) => d.action)).toEqual(
      expect.arrayContaining(['truncated', 'dropped']),
    );
    expect(texts(out.content).at(-1)).toContain(
      'test://c: left out whole; read it with read_resource {"uri":"test://c","offset":0,"length":800}',
    );
  });

  it('a text block with no URI is spilled once where the bridge keeps texts', async () => {
    const spilled: string[] = [];
    const out = await rewriteToolResult(
      { content: [{ type: 'text', text: 'z'.repeat(5000) }] },
      ctx({ maxResultChars: 1000, spill: (t) => (spilled.push(t), 'mcpkit-bridge://spill/1') }),
    );
    expect(spilled).toHaveLength(1);
    expect(texts(out.content).at(-1)).toMatch(
      /read_resource \{"uri":"mcpkit-bridge:\/\/spill\/1","offset":\d+,"length":\d+\}/,
    );
  });

  it('a tiny limit still holds, the note cut to it', async () => {
    const out = await rewriteToolResult(
      { content: [{ type: 'text', text: 'q'.repeat(500) }] },
      ctx({ maxResultChars: 40 }),
    );
    expect(size(out.content)).toBeLessThanOrEqual(40);
  });

  it('the rest of a link cut at the per-link limit is counted to the resource end', async () => {
    const body = 'line\n'.repeat(1000);
    const upstream: ResolverClient = {
      readResource: (uri: string) =>
        Promise.resolve({ contents: [{ uri, mimeType: 'text/plain', text: body }] }),
    } as unknown as ResolverClient;
    const link: ContentBlock = {
      type: 'resource_link',
      uri: 'test://big',
      name: 'big',
      mimeType: 'text/plain',
    };
    const out = await rewriteToolResult(
      { content: [link] },
      ctx({ upstream, maxLinkBytes: 2000, maxResultChars: 1000 }),
    );
    const offset = Buffer.byteLength(texts(out.content)[0] as string);
    expect(texts(out.content).at(-1)).toContain(
      `bytes ${offset}-5000 left out, read them with read_resource {"uri":"test://big","offset":${offset},"length":${5000 - offset}}`,
    );
    const left = await rewriteToolResult(
      { content: [{ type: 'text', text: 'a'.repeat(900) }, link] },
      ctx({ upstream, maxLinkBytes: 2000, maxResultChars: 1000 }),
    );
    expect(texts(left.content).at(-1)).toContain(
      'test://big: left out whole; read it with read_resource {"uri":"test://big","offset":0,"length":5000}',
    );
  });
});
