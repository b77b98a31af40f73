import { describe, expect, it } from 'vitest';
import { isModernOnly, mayRequireInput, methodFacts } from '../../protocol/methods.js';
import { LEGACY_METHODS, METHODS, own } from './index.js';

const PROTOTYPE_NAMES = [
  'constructor',
  'toString',
  '__proto__',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  '__defineGetter__',
];

describe('the method table', () => {
  it('has exactly the methods both eras share plus the modern-only ones', () => {
    expect(Object.keys(METHODS).sort()).toEqual([
      'completion/complete',
      'prompts/get',
      'prompts/list',
      'resources/list',
      'resources/read',
      'resources/templates/list',
      'server/discover',
      'subscriptions/listen',
      'tools/call',
      'tools/list',
    ]);
  });

  it('answers every 2026-07-28 method of the protocol table, the modern-only ones included', () => {
    for (const method of Object.keys(METHODS))
      expect(methodFacts(method)?.params.modern).toBeDefined();
    expect(Object.keys(METHODS).filter(isModernOnly).sort()).toEqual([
      'server/discover',
      'subscriptions/listen',
    ]);
  });

  it('keeps the legacy-only methods out of the shared table', () => {
    expect(Object.keys(LEGACY_METHODS).sort()).toEqual([
      'logging/setLevel',
      'ping',
      'resources/subscribe',
      'resources/unsubscribe',
    ]);
    for (const method of Object.keys(LEGACY_METHODS)) expect(own(METHODS, method)).toBeUndefined();
  });

  it('binds requestState for the methods that may ask for input, and caches the lists', () => {
    const withTarget = Object.keys(METHODS).filter((m) => METHODS[m]?.target);
    expect(withTarget.sort()).toEqual(['prompts/get', 'resources/read', 'tools/call']);
    expect(withTarget).toEqual(Object.keys(METHODS).filter(mayRequireInput).sort());
    const cache = Object.fromEntries(Object.keys(METHODS).map((m) => [m, methodFacts(m)?.cache]));
    expect(cache).toEqual({
      'server/discover': 'list',
      'tools/list': 'list',
      'tools/call': undefined,
      'prompts/list': 'list',
      'prompts/get': undefined,
      'resources/list': 'list',
      'resources/templates/list': 'list',
      'resources/read': 'read',
      'completion/complete': undefined,
      'subscriptions/listen': undefined,
    });
  });
});

describe('own', () => {
  it.each(PROTOTYPE_NAMES)('never returns the Object.prototype member %s', (name) => {
    expect(own(METHODS, name)).toBeUndefined();
    expect(own(LEGACY_METHODS, name)).toBeUndefined();
    expect(own({}, name)).toBeUndefined();
  });

  it('returns own entries, also ones named like prototype members', () => {
    expect(own(METHODS, 'tools/call')).toBe(METHODS['tools/call']);
    const table: Record<string, number> = { constructor: 1, toString: 2 };
    expect(own(table, 'constructor')).toBe(1);
    expect(own(table, 'toString')).toBe(2);
    expect(own(table, 'valueOf')).toBeUndefined();
  });

  it('works on a table without a prototype', () => {
    const table = Object.assign(Object.create(null) as Record<string, string>, { a: 'x' });
    expect(own(table, 'a')).toBe('x');
    expect(own(table, 'constructor')).toBeUndefined();
  });
});
