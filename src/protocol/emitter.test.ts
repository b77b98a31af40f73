import { describe, expect, it } from 'vitest';
import { Emitter } from './emitter.js';

describe('Emitter', () => {
  it('calls every listener in order; one that throws is reported and the rest still run', () => {
    const thrown: unknown[] = [];
    const seen: string[] = [];
    const events = new Emitter<number>((error) => thrown.push(error));
    const boom = new Error('boom');
    events.on((n) => seen.push(`a${n}`));
    events.on(() => {
      throw boom;
    });
    events.on((n) => seen.push(`c${n}`));
    events.emit(1);
    expect(seen).toEqual(['a1', 'c1']);
    expect(thrown).toEqual([boom]);
  });

  it('a remover takes its listener off once; clear takes them all', () => {
    const seen: number[] = [];
    const events = new Emitter<number>(() => undefined);
    const off = events.on((n) => seen.push(n));
    events.on((n) => seen.push(n * 10));
    off();
    off();
    events.emit(2);
    expect(seen).toEqual([20]);
    events.clear();
    events.emit(3);
    expect(seen).toEqual([20]);
  });

  it('the same listener added twice is called twice, and each remover takes off its own', () => {
    const seen: number[] = [];
    const events = new Emitter<number>(() => undefined);
    const listener = (n: number) => seen.push(n);
    const first = events.on(listener);
    events.on(listener);
    events.emit(1);
    first();
    first();
    events.emit(2);
    expect(seen).toEqual([1, 1, 2]);
  });

  it('a listener that removes itself while called does not stop the others', () => {
    const seen: string[] = [];
    const events = new Emitter<void>(() => undefined);
    const off = events.on(() => {
      seen.push('once');
      off();
    });
    events.on(() => seen.push('always'));
    events.emit();
    events.emit();
    expect(seen).toEqual(['once', 'always', 'always']);
  });
});
