import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Debouncer } from './debouncer.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Debouncer', () => {
  it('runs once a burst has been quiet for quietMs', async () => {
    const task = vi.fn(async () => undefined);
    const d = new Debouncer(task, 100);
    for (let i = 0; i < 5; i++) {
      d.trigger();
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(task).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(task).toHaveBeenCalledTimes(1);
    expect(d.pending).toBe(false);
  });

  it('a burst that never goes quiet still runs every maxWaitMs', async () => {
    const task = vi.fn(async () => undefined);
    const d = new Debouncer(task, 100, 1000);
    for (let t = 0; t < 2500; t += 20) {
      d.trigger();
      await vi.advanceTimersByTimeAsync(20);
    }
    expect(task).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(100);
    expect(task).toHaveBeenCalledTimes(3);
  });

  it('never runs twice at once: triggers during a run make exactly one more run after it', async () => {
    let release: () => void = () => undefined;
    let running = 0;
    let most = 0;
    const task = vi.fn(async () => {
      running++;
      most = Math.max(most, running);
      await new Promise<void>((r) => (release = r));
      running--;
    });
    const d = new Debouncer(task, 10);
    d.trigger();
    await vi.advanceTimersByTimeAsync(10);
    expect(task).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 3; i++) {
      d.trigger();
      await vi.advanceTimersByTimeAsync(20);
    }
    expect(task).toHaveBeenCalledTimes(1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(task).toHaveBeenCalledTimes(2);
    release();
    await d.idle();
    expect(task).toHaveBeenCalledTimes(2);
    expect(most).toBe(1);
  });

  it('runs nothing once closed', async () => {
    const task = vi.fn(async () => undefined);
    const d = new Debouncer(task, 10);
    d.trigger();
    d.close();
    d.trigger();
    await vi.advanceTimersByTimeAsync(100);
    expect(task).not.toHaveBeenCalled();
    await d.idle();
  });
});
