import { describe, expect, it } from 'vitest';
import { checkAnswer, forSchema, RESULT_CAP_BYTES, type AnswerContext } from './audit-answer.js';
import { FindingLog } from './audit-findings.js';

function run(
  raw: unknown,
  method: string,
  era: 'modern' | 'legacy' = 'modern',
  transport: 'stdio' | 'http' = 'stdio',
) {
  const ctx: AnswerContext = { era, transport, log: new FindingLog() };
  checkAnswer(raw, { method }, ctx);
  return ctx.log.findings.map((f) => ({ code: f.code, severity: f.severity, path: f.path }));
}

const LIST = { resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools: [] };

describe('checkAnswer', () => {
  it('finds nothing in a valid answer of either era', () => {
    expect(run(LIST, 'tools/list')).toEqual([]);
    expect(run({ tools: [] }, 'tools/list', 'legacy')).toEqual([]);
    expect(
      run({ contents: [{ uri: 'file:///a', blob: 'AAAA' }] }, 'resources/read', 'legacy'),
    ).toEqual([]);
  });

  it('wants resultType of a 2026-07-28 result, and the cache hints of a list or a read', () => {
    expect(run({ tools: [] }, 'tools/list')).toEqual([
      { code: 'missing-result-type', severity: 'error', path: '/resultType' },
      { code: 'missing-cache-hints', severity: 'error', path: '/ttlMs' },
    ]);
    expect(run({ resultType: 'complete', ttlMs: 5, tools: [] }, 'tools/list')).toEqual([
      { code: 'missing-cache-hints', severity: 'error', path: '/cacheScope' },
    ]);
    // Not cacheable: no hints wanted.
    expect(run({ resultType: 'complete', content: [] }, 'tools/call')).toEqual([]);
    // 2025-11-25: neither.
    expect(run({ content: [] }, 'tools/call', 'legacy')).toEqual([]);
  });

  it('reports the first schema problem past the missing fields, as a JSON pointer', () => {
    expect(run({ tools: [{ name: 'x' }] }, 'tools/list')).toEqual([
      { code: 'missing-result-type', severity: 'error', path: '/resultType' },
      { code: 'missing-cache-hints', severity: 'error', path: '/ttlMs' },
      { code: 'schema-violation', severity: 'error', path: '/tools/0/inputSchema' },
    ]);
    expect(run('nope', 'tools/list')).toEqual([
      { code: 'schema-violation', severity: 'error', path: '' },
    ]);
  });

  it('leaves invalid blobs and URIs to their own checks', () => {
    const read = { ...LIST, tools: undefined, contents: [{ uri: 'a b', blob: 'not base64!' }] };
    expect(run(read, 'resources/read')).toEqual([]);
  });

  it('flags an answer over 10 MiB: an error over stdio, a warning over HTTP', () => {
    const big = { content: [{ type: 'text', text: 'a'.repeat(RESULT_CAP_BYTES) }] };
    expect(run(big, 'tools/call', 'legacy', 'stdio')).toEqual([
      { code: 'result-over-cap', severity: 'error', path: undefined },
    ]);
    expect(run(big, 'tools/call', 'legacy', 'http')).toEqual([
      { code: 'result-over-cap', severity: 'warning', path: undefined },
    ]);
    const fits = { content: [{ type: 'text', text: 'a'.repeat(RESULT_CAP_BYTES - 100) }] };
    expect(run(fits, 'tools/call', 'legacy', 'stdio')).toEqual([]);
  });
});

describe('forSchema', () => {
  it('replaces bad base64 and URIs, copying only the path to them', () => {
    const ok = { uri: 'file:///a', text: 'x' };
    const raw = {
      contents: [ok, { uri: 'bad uri', blob: '!!' }],
      content: [
        { type: 'image', data: 'x y', mimeType: 'image/png' },
        { type: 'text', data: 'x y' },
      ],
    };
    const copy = forSchema(raw) as typeof raw;
    expect(copy.contents[0]).toBe(ok);
    expect(copy.contents[1]).toEqual({ uri: 'urn:mcpkit:audit-placeholder', blob: '' });
    expect(copy.content[0]).toEqual({ type: 'image', data: '', mimeType: 'image/png' });
    expect(copy.content[1]).toEqual({ type: 'text', data: 'x y' });
    expect(raw.contents[1]).toEqual({ uri: 'bad uri', blob: '!!' });
    const clean = { contents: [ok] };
    expect(forSchema(clean)).toBe(clean);
  });
});
