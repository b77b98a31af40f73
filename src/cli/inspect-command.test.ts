import { describe, expect, it } from 'vitest';
import { resolve } from '../host/index.js';
import type { ContentBlock, ReadResourceResult } from '../protocol/index.js';
import { blockJson, blocksOf, outcomeJson, sha256 } from './host-resolve.js';
import { parseVerb } from './inspect-command.js';

describe('parseVerb', () => {
  it.each([
    [[], { kind: 'overview' }],
    [['read', 'file:///a'], { kind: 'read', uri: 'file:///a' }],
    [
      ['prompt', 'p', 'a=1', 'b=x=y'],
      { kind: 'prompt', name: 'p', arguments: { a: '1', b: 'x=y' } },
    ],
    [['call', 't'], { kind: 'call', name: 't', arguments: undefined }],
    [['call', 't', '{"q":1}'], { kind: 'call', name: 't', arguments: { q: 1 } }],
  ])('%j', (words, verb) => expect(parseVerb(words)).toEqual(verb));

  it.each([
    [['nope'], /unknown inspect verb "nope"/],
    [['read'], /read takes one URI/],
    [['read', 'a:b', 'c:d'], /read takes one URI/],
    [['prompt'], /takes a prompt name/],
    [['prompt', 'p', 'novalue'], /"novalue" is not key=value/],
    [['prompt', 'p', '=x'], /"=x" is not key=value/],
    [['call'], /takes a tool name/],
    [['call', 't', '{', 'x'], /at most one JSON object/],
    [['call', 't', '{bad'], /are not JSON/],
    [['call', 't', '[]'], /must be a JSON object/],
    [['call', 't', 'null'], /must be a JSON object/],
  ])('%j is bad usage', (words, message) => {
    expect(() => parseVerb(words)).toThrow(
      expect.objectContaining({ code: 'BAD_ARGUMENTS', message: expect.stringMatching(message) }),
    );
  });
});

describe('blocksOf', () => {
  it('takes content arrays, a lone content object, and every message content, junk included', () => {
    expect(blocksOf({ content: [{ type: 'text', text: 'a' }] })).toEqual([
      { type: 'text', text: 'a' },
    ]);
    expect(blocksOf({ content: { type: 'text', text: 'a' } })).toEqual([
      { type: 'text', text: 'a' },
    ]);
    const messages = [
      { role: 'user', content: { type: 'text', text: 'm' } },
      null,
      { role: 'user', content: 'str' },
      { role: 'user' },
    ];
    expect(blocksOf({ messages })).toEqual([{ type: 'text', text: 'm' }, null, 'str', undefined]);
    expect(blocksOf({})).toEqual([]);
  });
});

describe('the --json shape of resolved blocks', () => {
  const client = {
    serverInfo: { name: 's', version: '1' },
    readResource: async (uri: string) =>
      ({
        contents: [
          { uri, mimeType: 'text/plain', text: uri === 'file:///big' ? 'B'.repeat(50) : 'ok' },
        ],
      }) as ReadResourceResult,
  };

  it('gives sizes and digests of decoded bytes, the sent mimeType, and a failure for what cannot be decoded', async () => {
    const blocks = [
      { type: 'text', text: 'hi' },
      { type: 'resource', resource: { uri: 'file:///e', text: 'héllo' } },
      { type: 'resource', resource: { uri: 'file:///b', blob: '!!!', mimeType: 'image/png' } },
      { type: 'resource' },
      { type: 'resource_link', uri: 'file:///ok', name: 'ok', mimeType: 'text/plain', size: 2 },
      { type: 'resource_link', uri: 'file:///big', name: 'big' },
      42,
    ] as unknown as ContentBlock[];
    const r = await resolve(blocks, client, { select: 'all', budgetBytes: 10 });
    const json = r.blocks.map(blockJson);
    expect(json[0]).toEqual({ type: 'text' });
    expect(json[1]).toEqual({ type: 'resource', uri: 'file:///e', size: 6 });
    expect(json[2]).toEqual({
      type: 'resource',
      uri: 'file:///b',
      mimeType: 'image/png',
      outcome: { status: 'failed', reason: expect.stringMatching(/^INVALID_BASE64: /) },
    });
    expect(json[3]).toEqual({
      type: 'resource',
      outcome: { status: 'failed', reason: expect.stringMatching(/resource is not an object/) },
    });
    expect(json[4]).toEqual({
      type: 'resource_link',
      uri: 'file:///ok',
      name: 'ok',
      mimeType: 'text/plain',
      size: 2,
      outcome: { status: 'read', bytes: 2, sha256: sha256([new TextEncoder().encode('ok')]) },
    });
    expect(json[5]).toEqual({
      type: 'resource_link',
      uri: 'file:///big',
      name: 'big',
      outcome: {
        status: 'skipped',
        reason: expect.stringMatching(/^budget: /),
        bytes: 50,
        sha256: sha256([new TextEncoder().encode('B'.repeat(50))]),
      },
    });
    expect(json[6]).toEqual({
      type: 'invalid',
      outcome: {
        status: 'failed',
        reason: expect.stringMatching(/^INVALID_CONTENT: content\[6\] is not a content block/),
      },
    });
  });

  it('leaves bytes and digest out when nothing was obtained', () => {
    expect(outcomeJson({ status: 'refused', code: 'consent', reason: 'consent: no' })).toEqual({
      status: 'refused',
      reason: 'consent: no',
    });
  });
});
