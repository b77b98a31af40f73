import { describe, expect, it } from 'vitest';
import { Abort } from './client-abort.js';
import { Slots } from './client-slots.js';

describe('Slots', () => {
  it('grants `limit` at once; the others wait in order; a release passes the slot on', async () => {
    const slots = new Slots(2);
    const a = await slots.acquire(new Abort());
    await slots.acquire(new Abort());
    const order: string[] = [];
    const c = slots.acquire(new Abort()).then((r) => (order.push('c'), r));
    const d = slots.acquire(new Abort()).then((r) => (order.push('d'), r));
    await Promise.resolve();
    expect(order).toEqual([]);
    a();
    a(); // a second call is a no-op
    (await c)();
    await d;
    expect(order).toEqual(['c', 'd']);
  });

  it('an aborted waiter leaves the queue and rejects with the reason', async () => {
    const slots = new Slots(1);
    const first = await slots.acquire(new Abort());
    const abort = new Abort();
    const waiting = slots.acquire(abort);
    const next = slots.acquire(new Abort());
    abort.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    first();
    const release = await next;
    release();
    // All released: one can be taken at once again.
    await slots.acquire(new Abort());
  });
});
