import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF_MAX_MS } from './backoff.js';

describe('backoffDelay', () => {
  it('doubles from the base, between half and all of each step', () => {
    const low = () => 0;
    const high = () => 1;
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, {}, low))).toEqual([50, 100, 200, 400]);
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, {}, high))).toEqual([100, 200, 400, 800]);
  });

  it('stops growing at the cap, however many attempts', () => {
    for (const attempt of [7, 50, 1e6, Number.MAX_SAFE_INTEGER])
      expect(backoffDelay(attempt, {}, () => 1)).toBe(DEFAULT_BACKOFF_MAX_MS);
    expect(backoffDelay(10, { baseMs: 10, maxMs: 300 }, () => 1)).toBe(300);
  });

  it('survives nonsense input', () => {
    expect(backoffDelay(0, {}, () => 1)).toBe(100);
    expect(backoffDelay(-3, { baseMs: 0, maxMs: -1 }, () => 1)).toBe(1);
    expect(Number.isFinite(backoffDelay(Number.NaN, {}, () => 0.5))).toBe(true);
  });
});
