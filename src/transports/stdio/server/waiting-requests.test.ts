import { describe, expect, it } from 'vitest';
import { PARSED_MAX_CHARS, parsedWeight, WaitingRequests } from './waiting-requests.js';

/** A request line with `id` and its parsed message; `pad` characters of params make it long. */
function request(id: number | string, pad = 0): { text: string; message: unknown } {
  const text = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'ping',
    params: { pad: 'x'.repeat(pad) },
  });
  return { text, message: JSON.parse(text) as unknown };
}

function push(
  w: WaitingRequests,
  id: number | string,
  pad = 0,
): { text: string; message: unknown } {
  const r = request(id, pad);
  w.push(id, r.text, r.message);
  return r;
}

describe('WaitingRequests', () => {
  it('gives small requests back parsed, the very objects, in arrival order, weighed by parsedWeight', () => {
    const w = new WaitingRequests();
    const a = push(w, 1);
    const b = push(w, 'b');
    expect([w.size, w.bytes]).toEqual([2, parsedWeight(a.text) + parsedWeight(b.text)]);
    expect(w.shift()).toBe(a.message);
    expect([w.size, w.bytes]).toEqual([1, parsedWeight(b.text)]);
    expect(w.shift()).toBe(b.message);
    expect(w.shift()).toBeUndefined();
    expect([w.size, w.bytes]).toEqual([0, 0]);
  });

  it('weighs a parsed line by its characters and its objects and arrays, at least the heap they take', () => {
    expect(parsedWeight('{"a":1}')).toBe(7 * 5 + 64);
    const flat = `{"p":"${'x'.repeat(3000)}"}`;
    const nested = `{"p":[${Array.from({ length: 1000 }, () => '{}').join(',')}]}`;
    expect(parsedWeight(flat)).toBe(flat.length * 5 + 64);
    // ~1,000 empty objects in ~3,000 characters: counted per object, not per character.
    expect(parsedWeight(nested)).toBe(nested.length * 5 + 1002 * 64);
    expect(parsedWeight(nested)).toBeGreaterThan(60 * 1000);
  });

  it('keeps a long line as its text, counted at its length, and parses it when it starts', () => {
    const w = new WaitingRequests();
    const long = push(w, 7, PARSED_MAX_CHARS);
    const small = push(w, 8);
    expect(long.text.length).toBeGreaterThan(PARSED_MAX_CHARS);
    expect(w.bytes).toBe(long.text.length + parsedWeight(small.text));
    const first = w.shift();
    expect(first).not.toBe(long.message); // parsed again from the text it kept
    expect(first).toEqual(long.message);
    expect(w.shift()).toBe(small.message);
    expect(w.bytes).toBe(0);
  });

  it('drops cancelled requests (every one with the id) and skips them when shifting', () => {
    const w = new WaitingRequests();
    push(w, 1);
    const two = push(w, 2);
    push(w, 1, PARSED_MAX_CHARS);
    const three = push(w, 3);
    expect(w.cancel(1)).toBe(true);
    expect(w.cancel(1)).toBe(false);
    expect(w.cancel('never')).toBe(false);
    expect([w.size, w.bytes]).toEqual([2, parsedWeight(two.text) + parsedWeight(three.text)]);
    expect([w.shift(), w.shift(), w.shift()]).toEqual([two.message, three.message, undefined]);
  });

  it('stays in order across compaction, with 100,000 requests and a cancellation each', () => {
    const w = new WaitingRequests();
    for (let i = 0; i < 100_000; i++) push(w, i);
    for (let i = 0; i < 100_000; i += 2) w.cancel(i);
    const out: unknown[] = [];
    for (let m = w.shift(); m !== undefined; m = w.shift()) out.push(m);
    expect(out).toHaveLength(50_000);
    expect(out.every((m, k) => (m as { id: number }).id === 2 * k + 1)).toBe(true);
    expect([w.size, w.bytes]).toEqual([0, 0]);
  });
});
