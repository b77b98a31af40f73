import { describe, expect, it } from 'vitest';
import { isMcpKitError, McpKitError } from '../errors/mcpkit-error.js';
import { Registry } from './registry.js';

interface Entry {
  name: string;
}

function setup() {
  let changes = 0;
  const wired: Entry[] = [];
  const registry = new Registry<Entry, { wire: string }>(
    'tool',
    (e) => {
      wired.push(e);
      return { wire: e.name };
    },
    () => changes++,
  );
  return { registry, changes: () => changes, wired };
}

describe('Registry', () => {
  it('adds entries in insertion order and finds them by key', () => {
    const { registry, changes } = setup();
    const b = { name: 'b' };
    const a = { name: 'a' };
    registry.add('b', b);
    registry.add('a', a);
    expect(registry.get('a')).toBe(a);
    expect(registry.get('missing')).toBeUndefined();
    expect(registry.list()).toEqual([b, a]);
    expect(registry.wire()).toEqual([{ wire: 'b' }, { wire: 'a' }]);
    expect(changes()).toBe(2);
  });

  it('refuses a duplicate key with DUPLICATE_REGISTRATION, naming what and the key', () => {
    const { registry, changes } = setup();
    const first = { name: 'x' };
    registry.add('x', first);
    let error: unknown;
    try {
      registry.add('x', { name: 'other' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(McpKitError);
    expect(isMcpKitError(error, 'DUPLICATE_REGISTRATION')).toBe(true);
    expect((error as Error).message).toBe('tool "x" is already registered');
    expect(registry.get('x')).toBe(first);
    expect(changes()).toBe(1);
  });

  it('returns a remover that is idempotent and only removes its own entry', () => {
    const { registry, changes } = setup();
    const removeOld = registry.add('k', { name: 'old' });
    removeOld();
    expect(registry.get('k')).toBeUndefined();
    expect(registry.list()).toEqual([]);
    expect(changes()).toBe(2);
    removeOld();
    expect(changes()).toBe(2);

    const fresh = { name: 'new' };
    registry.add('k', fresh);
    removeOld(); // the old remover must not touch the entry that replaced it
    expect(registry.get('k')).toBe(fresh);
    expect(changes()).toBe(3);
  });

  it('keeps the same list() and wire() arrays until something changes', () => {
    const { registry, wired } = setup();
    registry.add('a', { name: 'a' });
    const list = registry.list();
    const wire = registry.wire();
    expect(registry.list()).toBe(list);
    expect(registry.wire()).toBe(wire);
    expect(wired).toHaveLength(1); // toWire ran once for the cached snapshot

    const removeB = registry.add('b', { name: 'b' });
    const list2 = registry.list();
    const wire2 = registry.wire();
    expect(list2).not.toBe(list);
    expect(wire2).not.toBe(wire);
    expect(list).toEqual([{ name: 'a' }]); // the old snapshot is not mutated
    expect(wire2).toEqual([{ wire: 'a' }, { wire: 'b' }]);

    removeB();
    expect(registry.list()).not.toBe(list2);
    expect(registry.wire()).toEqual([{ wire: 'a' }]);
  });

  it('does not invalidate snapshots or call onChange on a failed add or a no-op remove', () => {
    const { registry, changes } = setup();
    const remove = registry.add('a', { name: 'a' });
    const list = registry.list();
    expect(() => registry.add('a', { name: 'again' })).toThrow();
    expect(registry.list()).toBe(list);
    remove();
    const empty = registry.list();
    remove();
    expect(registry.list()).toBe(empty);
    expect(changes()).toBe(2);
  });
});
