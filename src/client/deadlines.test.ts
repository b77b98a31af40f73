import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stillAlive } from '../testing/gc.js';
import { Deadlines, type Deadline } from './deadlines.js';

describe('Deadlines', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const clock = () => new Deadlines(() => Date.now());

  it('fires after its time, not before, and never once cleared', () => {
    const d = clock();
    const fired: string[] = [];
    d.add(100, { expire: () => fired.push('a') });
    const b = d.add(100, { expire: () => fired.push('b') });
    vi.advanceTimersByTime(99);
    expect(fired).toEqual([]);
    b.clear();
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['a']);
    vi.advanceTimersByTime(1000);
    expect(fired).toEqual(['a']);
  });

  it('fires same-duration entries in order, each at its own time', () => {
    const d = clock();
    const fired: number[] = [];
    for (let i = 0; i < 5; i++) {
      d.add(100, { expire: () => fired.push(i) });
      vi.advanceTimersByTime(10);
    }
    vi.advanceTimersByTime(50); // t=100: the first is due
    expect(fired).toEqual([0]);
    vi.advanceTimersByTime(25); // t=125: the second and third
    expect(fired).toEqual([0, 1, 2]);
    vi.advanceTimersByTime(100);
    expect(fired).toEqual([0, 1, 2, 3, 4]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps durations apart', () => {
    const d = clock();
    const fired: string[] = [];
    d.add(500, { expire: () => fired.push('slow') });
    d.add(50, { expire: () => fired.push('fast') });
    vi.advanceTimersByTime(60);
    expect(fired).toEqual(['fast']);
    vi.advanceTimersByTime(500);
    expect(fired).toEqual(['fast', 'slow']);
  });

  it('a long-running head does not pin the settled entries behind it', async () => {
    // setImmediate stays real: the collections below wait for it.
    vi.useRealTimers();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const d = clock();
    let headFired = false;
    d.add(60_000, { expire: () => (headFired = true) });
    const refs: WeakRef<Deadline>[] = [];
    for (let i = 0; i < 100_000; i++) {
      const settled = d.add(60_000, { expire: () => {} });
      settled.clear();
      // A bounded backlog may keep the most recent ones for a while; none of the older.
      if (i % 1000 === 0 && i < 90_000) refs.push(new WeakRef(settled));
    }
    expect(await stillAlive(refs)).toEqual([]);
    vi.advanceTimersByTime(60_000);
    expect(headFired).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('one timer serves a run of requests, and lapses once they all settled', () => {
    const d = clock();
    let fired = 0;
    for (let i = 0; i < 1000; i++) d.add(100, { expire: () => fired++ }).clear();
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(100);
    expect(vi.getTimerCount()).toBe(0);
    expect(fired).toBe(0);
    d.add(100, { expire: () => fired++ });
    vi.advanceTimersByTime(100);
    expect(fired).toBe(1);
  });

  it('a deadline past the longest timer (2^31 ms) waits instead of spinning', () => {
    const d = clock();
    let fired = false;
    d.add(2 ** 32, { expire: () => (fired = true) });
    vi.advanceTimersByTime(2 ** 31);
    expect(fired).toBe(false);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(2 ** 31);
    expect(fired).toBe(true);
  });
});
