import { describe, expect, it } from 'vitest';
import { WaitingRequests } from './waiting-requests.js';

describe('WaitingRequests', () => {
  it('gives requests back in arrival order and counts their text', () => {
    const w = new WaitingRequests();
    w.push(1, 'aa');
    w.push('b', 'bbb');
    expect([w.size, w.bytes]).toEqual([2, 5]);
    expect(w.shift()).toBe('aa');
    expect([w.size, w.bytes]).toEqual([1, 3]);
    expect(w.shift()).toBe('bbb');
    expect(w.shift()).toBeUndefined();
    expect([w.size, w.bytes]).toEqual([0, 0]);
  });

  it('drops cancelled requests (every one with the id) and skips them when shifting', () => {
    const w = new WaitingRequests();
    w.push(1, 'one');
    w.push(2, 'two');
    w.push(1, 'one again');
    w.push(3, 'three');
    expect(w.cancel(1)).toBe(true);
    expect(w.cancel(1)).toBe(false);
    expect(w.cancel('never')).toBe(false);
    expect([w.size, w.bytes]).toEqual([2, 8]);
    expect([w.shift(), w.shift(), w.shift()]).toEqual(['two', 'three', undefined]);
  });

  it('stays in order across compaction, with 100,000 requests and a cancellation each', () => {
    const w = new WaitingRequests();
    for (let i = 0; i < 100_000; i++) w.push(i, String(i));
    for (let i = 0; i < 100_000; i += 2) w.cancel(i);
    const out: string[] = [];
    for (let text = w.shift(); text !== undefined; text = w.shift()) out.push(text);
    expect(out).toHaveLength(50_000);
    expect(out.every((text, k) => text === String(2 * k + 1))).toBe(true);
    expect([w.size, w.bytes]).toEqual([0, 0]);
  });
});
