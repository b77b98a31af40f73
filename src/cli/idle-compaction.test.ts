import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startIdleCompaction, v8Collect } from './idle-compaction.js';

const MiB = 1024 * 1024;

describe('startIdleCompaction', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup() {
    const state = { busy: 0, heap: 50 * MiB, collections: 0 };
    const stop = startIdleCompaction({
      everyMs: 100,
      utilization: () => state.busy,
      heapUsed: () => state.heap,
      collect: () => {
        state.collections++;
        state.heap = 52 * MiB;
      },
    });
    return { state, stop };
  }

  it('collects once the loop is idle and the heap grew past the threshold', () => {
    const { state, stop } = setup();
    state.heap = 200 * MiB;
    state.busy = 0.5; // clients still at work: nothing happens
    vi.advanceTimersByTime(300);
    expect(state.collections).toBe(0);
    state.busy = 0.001; // they left
    vi.advanceTimersByTime(100);
    expect(state.collections).toBe(1);
    vi.advanceTimersByTime(500); // nothing grew since: no more collections
    expect(state.collections).toBe(1);
    stop();
  });

  it('leaves a heap that grew less than the threshold alone, and stops when told', () => {
    const { state, stop } = setup();
    state.heap = 60 * MiB;
    vi.advanceTimersByTime(500);
    expect(state.collections).toBe(0);
    stop();
    state.heap = 500 * MiB;
    vi.advanceTimersByTime(500);
    expect(state.collections).toBe(0);
  });

  it('collects for real with V8 (gc exposed at run time, no node flag needed)', () => {
    vi.useRealTimers();
    const collect = v8Collect();
    let garbage: unknown[] | undefined = Array.from({ length: 200_000 }, (_, i) => ({
      i,
      s: `x${i}`,
    }));
    const withGarbage = process.memoryUsage().heapUsed;
    expect(garbage.length).toBe(200_000);
    garbage = undefined;
    collect();
    expect(process.memoryUsage().heapUsed).toBeLessThan(withGarbage - 8 * MiB);
  });
});
