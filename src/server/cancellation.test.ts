import { describe, expect, it } from 'vitest';
import { Cancellation } from './cancellation.js';

function counting(signal: AbortSignal): () => number {
  let events = 0;
  signal.addEventListener('abort', () => events++);
  return () => events;
}

describe('Cancellation', () => {
  it('aborts its signal once, however often abort() is called', () => {
    const cancel = new Cancellation();
    const signal = cancel.signal;
    expect(cancel.signal).toBe(signal);
    const events = counting(signal);
    expect(signal.aborted).toBe(false);
    cancel.abort();
    cancel.abort();
    expect(cancel.aborted).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(events()).toBe(1);
  });

  it('gives an aborted signal when asked after abort()', () => {
    const cancel = new Cancellation();
    cancel.abort();
    expect(cancel.aborted).toBe(true);
    expect(cancel.signal.aborted).toBe(true);
  });

  it('follows an outer signal that aborts later', () => {
    const outer = new AbortController();
    const cancel = new Cancellation(outer.signal);
    const signal = cancel.signal;
    outer.abort();
    expect(cancel.aborted).toBe(true);
    expect(signal.aborted).toBe(true);
  });

  it('is aborted at once by an outer signal that already was', () => {
    const cancel = new Cancellation(AbortSignal.abort());
    expect(cancel.signal.aborted).toBe(true);
    expect(cancel.aborted).toBe(true);
  });

  it('asks a lazy source for its signal only when the signal is wanted, and once', () => {
    const outer = new AbortController();
    let asked = 0;
    const cancel = new Cancellation(() => {
      asked++;
      return outer.signal;
    });
    cancel.abort();
    expect(asked).toBe(0);
    const fresh = new Cancellation(() => {
      asked++;
      return outer.signal;
    });
    void fresh.signal;
    void fresh.signal;
    expect(asked).toBe(1);
    outer.abort();
    expect(fresh.aborted).toBe(true);
    expect(fresh.signal.aborted).toBe(true);
  });

  it('does not watch an outer signal until someone asks for its own (by design: lazy)', () => {
    const outer = new AbortController();
    const cancel = new Cancellation(outer.signal);
    outer.abort();
    expect(cancel.aborted).toBe(false);
    expect(cancel.signal.aborted).toBe(true);
    expect(cancel.aborted).toBe(true);
  });
});
