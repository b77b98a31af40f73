import { describe, expect, it } from 'vitest';
import { boundTarget } from './methods/target.js';
import { canonicalJson } from './request-state.js';

// canonicalJson is iterative: it never sees more than maxDepth levels from a client (dispatch
// refuses deeper params first), but auth info and in-process callers reach it unchecked.

describe('canonicalJson at depth', () => {
  it('writes 200,000 levels of arrays and objects without overflowing the stack', () => {
    const levels = 200_000;
    const arrays = `${'['.repeat(levels)}${']'.repeat(levels)}`;
    expect(canonicalJson(JSON.parse(arrays))).toBe(arrays);
    const objects = `${'{"b":1,"a":'.repeat(levels)}0${'}'.repeat(levels)}`;
    const sorted = `${'{"a":'.repeat(levels)}0${',"b":1}'.repeat(levels)}`;
    expect(canonicalJson(JSON.parse(objects))).toBe(sorted);
  });

  it('matches JSON.stringify on sorted input, shared references included', () => {
    const shared = { x: [1, 'two', null, { y: true }] };
    const value = { a: shared, b: [shared, shared], c: 'é\n"', d: -0.5 };
    expect(canonicalJson(value)).toBe(JSON.stringify(value));
  });

  it('throws a TypeError on a cycle, as JSON.stringify does (never loops)', () => {
    const cyclic: Record<string, unknown> = { a: [1] };
    (cyclic['a'] as unknown[]).push(cyclic);
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
    // Bound targets mark the cycle in auth info instead, keeping what is not cyclic.
    expect(canonicalJson(cyclic, 'mark')).toBe('{"a":[1,"[cycle]"]}');
    expect(boundTarget('tools/call', 't', {}, cyclic)).toContain('{"a":[1,"[cycle]"]}');
  });
});
