import { describe, expect, it } from 'vitest';
import { BodyBudget, TOO_LARGE, UNSERIALISABLE, type BodyLimits } from './body-limits.js';
import { parsedBodyText } from './node-parsed-body.js';

const limits = (maxBytes: number): BodyLimits => ({
  maxBytes,
  idleMs: 0,
  budget: new BodyBudget(1 << 20),
});

describe('parsedBodyText: a body a framework parsed already', () => {
  it('serialises a parsed value again (a string is a JSON string); bytes are taken as they are', () => {
    expect(parsedBodyText({ jsonrpc: '2.0', id: 1, method: 'x' }, limits(100))).toBe(
      '{"jsonrpc":"2.0","id":1,"method":"x"}',
    );
    expect(parsedBodyText([1, 2], limits(100))).toBe('[1,2]');
    expect(parsedBodyText(null, limits(100))).toBe('null');
    expect(parsedBodyText('{"a":1}', limits(100))).toBe('"{\\"a\\":1}"');
    const bytes = Buffer.from('xx{"é":1}').subarray(2);
    expect(parsedBodyText(bytes, limits(100))).toBe('{"é":1}');
  });

  it('holds it to maxBytes by its UTF-8 size, at the edge', () => {
    const value = { t: 'é'.repeat(10) }; // {"t":"…"} is 8 + 20 bytes
    expect(parsedBodyText(value, limits(28))).toBe(JSON.stringify(value));
    expect(parsedBodyText(value, limits(27))).toBe(TOO_LARGE);
  });

  it('refuses what cannot be JSON again (a BigInt, a cycle, a symbol)', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(parsedBodyText({ n: 1n }, limits(100))).toBe(UNSERIALISABLE);
    expect(parsedBodyText(cycle, limits(100))).toBe(UNSERIALISABLE);
    expect(parsedBodyText(Symbol('x'), limits(100))).toBe(UNSERIALISABLE);
  });
});
