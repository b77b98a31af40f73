import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../errors/protocol-error.js';
import { AnswerBudget } from './answer-budget.js';

const MiB = 1024 * 1024;

describe('AnswerBudget', () => {
  it('grants up to what is asked while there is room, and cuts a reservation to the room left', async () => {
    const budget = new AnswerBudget(10 * MiB, 50);
    const a = budget.lease();
    expect(await a.reserve(2 * MiB, 6 * MiB)).toBe(6 * MiB);
    const b = budget.lease();
    expect(await b.reserve(2 * MiB, 6 * MiB)).toBe(4 * MiB);
    expect(budget.heldBytes).toBe(10 * MiB);
    a.release();
    b.release();
    expect(budget.heldBytes).toBe(0);
  });

  it('a reservation that does not fit waits for room, then is granted', async () => {
    const budget = new AnswerBudget(4 * MiB, 5000);
    const first = budget.lease();
    await first.reserve(MiB, 4 * MiB);
    const second = budget.lease();
    let granted: number | undefined;
    const waiting = second.reserve(MiB, 3 * MiB).then((n) => (granted = n));
    await new Promise((r) => setTimeout(r, 20));
    expect(granted).toBeUndefined();
    first.trimTo(MiB);
    await waiting;
    expect(granted).toBe(3 * MiB);
    expect(budget.heldBytes).toBe(4 * MiB);
  });

  it('past its wait, a busy -32603 naming maxResponseTotalBytes and the flag', async () => {
    const budget = new AnswerBudget(4 * MiB, 30);
    await budget.lease().reserve(MiB, 4 * MiB);
    const error = await budget
      .lease()
      .reserve(2 * MiB, 8 * MiB)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    const { code, message, data } = error as ProtocolError;
    expect(code).toBe(-32603);
    expect(message).toMatch(/busy/i);
    expect(message).toContain('maxResponseTotalBytes');
    expect(message).toContain('--max-response-total-bytes');
    expect(data).toMatchObject({ reason: 'busy', limit: 'maxResponseTotalBytes' });
  });

  it('an abort ends the wait with its reason; a lease released while waiting gives back what it gets', async () => {
    const budget = new AnswerBudget(2 * MiB, 5000);
    const holder = budget.lease();
    await holder.reserve(MiB, 2 * MiB);
    const controller = new AbortController();
    const aborted = budget
      .lease()
      .reserve(MiB, MiB, controller.signal)
      .catch((e: unknown) => e);
    controller.abort(new Error('gone'));
    expect(((await aborted) as Error).message).toBe('gone');
    const late = budget.lease();
    const pending = late.reserve(MiB, MiB);
    late.release();
    holder.release();
    await pending;
    expect(budget.heldBytes).toBe(0);
  });

  it('holdAtLeast counts what a transport has at once, without waiting, even past the budget', () => {
    const budget = new AnswerBudget(MiB, 10);
    const lease = budget.lease();
    lease.holdAtLeast(3 * MiB);
    lease.holdAtLeast(MiB);
    expect(budget.heldBytes).toBe(3 * MiB);
    lease.release();
    lease.release();
    expect(budget.heldBytes).toBe(0);
  });

  it('one answer larger than the whole budget still goes when nothing else is held', async () => {
    const budget = new AnswerBudget(MiB, 10);
    expect(await budget.lease().reserve(2 * MiB, 5 * MiB)).toBe(5 * MiB);
  });

  it('while others wait, a newcomer that fits gets only its least (a queue drains in small steps)', async () => {
    const budget = new AnswerBudget(10 * MiB, 5000);
    const big = budget.lease();
    await big.reserve(MiB, 9 * MiB);
    const waiter = budget.lease().reserve(3 * MiB, 3 * MiB);
    const small = budget.lease();
    expect(await small.reserve(MiB, 8 * MiB)).toBe(MiB);
    big.release();
    expect(await waiter).toBe(3 * MiB);
  });
});
