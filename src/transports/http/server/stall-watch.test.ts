import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StallWatch } from './stall-watch.js';

describe('StallWatch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('gives every body at least idleMs without progress, at most 1.5 times that', () => {
    const watch = new StallWatch(1000);
    const stalled: string[] = [];
    const a = watch.watch(() => stalled.push('a'));
    vi.advanceTimersByTime(490);
    // Starts just before a tick: still gets its whole second.
    watch.watch(() => stalled.push('b'));
    vi.advanceTimersByTime(1009); // t = 1499: b has waited 1009 ms, a 1499 ms
    expect(stalled).toEqual([]);
    vi.advanceTimersByTime(1); // t = 1500
    expect(stalled.sort()).toEqual(['a', 'b']);
    // Both are forgotten: reported once, and the next sweep finds nothing and stops the timer.
    vi.advanceTimersByTime(5000);
    expect(stalled.sort()).toEqual(['a', 'b']);
    expect(vi.getTimerCount()).toBe(0);
    a.stop(); // stopping twice is harmless
  });

  it('counts progress, and forgets a body that stopped', () => {
    const watch = new StallWatch(1000);
    const stalled: string[] = [];
    const a = watch.watch(() => stalled.push('a'));
    const b = watch.watch(() => stalled.push('b'));
    for (let i = 0; i < 8; i++) {
      vi.advanceTimersByTime(500);
      watch.progress(a);
      if (i === 0) b.stop(); // its body ended: never reported
    }
    expect(stalled).toEqual([]);
    vi.advanceTimersByTime(2000);
    expect(stalled).toEqual(['a']);
  });

  it('does nothing when idleMs is 0', () => {
    const watch = new StallWatch(0);
    const stalled: string[] = [];
    watch.watch(() => stalled.push('x'));
    vi.advanceTimersByTime(60_000);
    expect(stalled).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
