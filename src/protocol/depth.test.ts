import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_DEPTH, nestsDeeperThan } from './depth.js';

/** `levels` nested objects: nest(1) is { a: 'leaf' }, nest(2) is { a: { a: 'leaf' } }. */
function nest(levels: number, leaf: unknown = 'leaf'): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('nestsDeeperThan', () => {
  it.each([
    ['a scalar', 1, 0, false],
    ['an empty object at the root', {}, 0, false],
    ['a scalar member', { a: 1 }, 0, false],
    ['one object below the root', { a: {} }, 0, true],
    ['one object below the root, limit 1', { a: {} }, 1, false],
    ['arrays count as objects do', { a: [[1]] }, 1, true],
    ['arrays count as objects do, limit 2', { a: [[1]] }, 2, false],
    ['a deep branch after a shallow one', { a: 1, b: [2, { c: [{}] }] }, 2, true],
    ['a root array', [[], [[]]], 2, false],
  ])('%s', (_what, value, limit, expected) => {
    expect(nestsDeeperThan(value, limit)).toBe(expected);
  });

  it('takes exactly `limit` levels below the root and refuses one more', () => {
    // { arguments: nest(n) } has n levels below the root: arguments is level 1.
    expect(nestsDeeperThan({ arguments: nest(DEFAULT_MAX_DEPTH) }, DEFAULT_MAX_DEPTH)).toBe(false);
    expect(nestsDeeperThan({ arguments: nest(DEFAULT_MAX_DEPTH + 1) }, DEFAULT_MAX_DEPTH)).toBe(
      true,
    );
    // The root itself is level 0.
    expect(nestsDeeperThan(nest(DEFAULT_MAX_DEPTH + 1), DEFAULT_MAX_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nest(DEFAULT_MAX_DEPTH + 2), DEFAULT_MAX_DEPTH)).toBe(true);
  });

  it('measures 1,000,000 levels without overflowing the stack (stops at the limit)', () => {
    const text = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    const value: unknown = JSON.parse(text); // V8's parser is iterative: fine at any depth
    expect(nestsDeeperThan(value, DEFAULT_MAX_DEPTH)).toBe(true);
    expect(nestsDeeperThan(value, 2_000_000)).toBe(false);
  });

  it('visits wide values in full and terminates on a cycle (possible in memory)', () => {
    const wide = { items: Array.from({ length: 10_000 }, (_, i) => ({ i, tags: [i] })) };
    expect(nestsDeeperThan(wide, 3)).toBe(false);
    expect(nestsDeeperThan({ ...wide, last: nest(3) }, 3)).toBe(false);
    expect(nestsDeeperThan({ ...wide, last: nest(4) }, 3)).toBe(true);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(nestsDeeperThan(cyclic, DEFAULT_MAX_DEPTH)).toBe(true);
  });
});
