import { describe, expect, it } from 'vitest';
import { boundTarget } from './target.js';

describe('boundTarget', () => {
  it('joins method, target, canonical arguments and caller, one per line', () => {
    expect(boundTarget('tools/call', 'search', { q: 'x', n: 1 }, { sub: 'u1' })).toBe(
      'tools/call\nsearch\n{"n":1,"q":"x"}\n{"sub":"u1"}',
    );
  });

  it('does not depend on the key order of arguments or auth info, at any depth', () => {
    const a = boundTarget(
      'tools/call',
      't',
      { b: { y: 1, x: [{ q: 1, p: 2 }] }, a: 1 },
      { r: 1, s: 2 },
    );
    const b = boundTarget(
      'tools/call',
      't',
      { a: 1, b: { x: [{ p: 2, q: 1 }], y: 1 } },
      { s: 2, r: 1 },
    );
    expect(a).toBe(b);
  });

  it('keeps array order significant', () => {
    expect(boundTarget('m', 't', { list: [1, 2] }, null)).not.toBe(
      boundTarget('m', 't', { list: [2, 1] }, null),
    );
  });

  it('differs for a different method, target, argument or caller', () => {
    const base = boundTarget('tools/call', 't', { a: 1 }, { sub: 'alice' });
    expect(boundTarget('prompts/get', 't', { a: 1 }, { sub: 'alice' })).not.toBe(base);
    expect(boundTarget('tools/call', 'u', { a: 1 }, { sub: 'alice' })).not.toBe(base);
    expect(boundTarget('tools/call', 't', { a: 2 }, { sub: 'alice' })).not.toBe(base);
    expect(boundTarget('tools/call', 't', { a: 1 }, { sub: 'bob' })).not.toBe(base);
    expect(boundTarget('tools/call', 't', { a: 1 }, undefined)).not.toBe(base);
  });

  it('treats missing arguments as {} and missing auth info as null', () => {
    expect(boundTarget('m', 't', undefined, undefined)).toBe(boundTarget('m', 't', {}, null));
    expect(boundTarget('m', 't', undefined, undefined)).toBe('m\nt\n{}\nnull');
  });

  it('tells a string caller from an object with the same text', () => {
    expect(boundTarget('m', 't', {}, 'alice')).not.toBe(boundTarget('m', 't', {}, { alice: true }));
    expect(boundTarget('m', 't', {}, 'alice')).toBe('m\nt\n{}\n"alice"');
  });

  it('does not throw on cyclic auth info', () => {
    const auth: Record<string, unknown> = { sub: 'alice' };
    auth['self'] = auth;
    expect(() => boundTarget('tools/call', 't', {}, auth)).not.toThrow();
    expect(boundTarget('tools/call', 't', {}, auth)).toMatch(/^tools\/call\nt\n\{\}\n/);
  });

  // A cyclic authInfo once fell back to String(authInfo), "[object Object]", for every caller.
  it('keeps two different cyclic callers apart', () => {
    const alice: Record<string, unknown> = { sub: 'alice' };
    const bob: Record<string, unknown> = { sub: 'bob' };
    alice['self'] = alice;
    bob['self'] = bob;
    expect(boundTarget('tools/call', 't', {}, alice)).not.toBe(
      boundTarget('tools/call', 't', {}, bob),
    );
  });
});
