import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../errors/protocol-error.js';
import { testServer } from '../testing/server-core.js';
import {
  addCacheHints,
  checkModernMeta,
  isObject,
  modernResult,
  notModernWhy,
} from './modern-envelope.js';

const PV = 'io.modelcontextprotocol/protocolVersion';
const CC = 'io.modelcontextprotocol/clientCapabilities';
const SI = 'io.modelcontextprotocol/serverInfo';

describe('checkModernMeta', () => {
  it.each([
    ['no _meta', undefined, 'params._meta'],
    ['a null _meta', null, 'params._meta'],
    ['an array _meta', [], 'params._meta'],
    ['a string _meta', 'x', 'params._meta'],
    ['no protocolVersion', { [CC]: {} }, `params._meta["${PV}"]`],
    ['a numeric protocolVersion', { [PV]: 20260728, [CC]: {} }, `params._meta["${PV}"]`],
    ['no clientCapabilities', { [PV]: '2026-07-28' }, `params._meta["${CC}"]`],
    ['array clientCapabilities', { [PV]: '2026-07-28', [CC]: [] }, `params._meta["${CC}"]`],
    ['null clientCapabilities', { [PV]: 'v999', [CC]: null }, `params._meta["${CC}"]`],
  ])('refuses %s with -32602 naming the field', (_what, meta, field) => {
    const error = checkModernMeta(meta, 'tools/list');
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error?.code).toBe(-32602);
    expect(error?.data).toEqual({ field });
    expect(error?.message).toMatch(/^tools\/list: /);
    expect(error?.message).toContain(field);
  });

  it('accepts a complete _meta, whatever its version (the engine checks that after the transport)', () => {
    const meta = { [PV]: '2026-07-28', [CC]: { elicitation: {} }, extra: 1 };
    expect(checkModernMeta(meta, 'tools/list')).toBeUndefined();
    expect(checkModernMeta({ [PV]: 'v999', [CC]: {} }, 'tools/list')).toBeUndefined();
  });
});

describe('notModernWhy', () => {
  it.each([
    ['initialize', /no initialize/],
    ['ping', /removed in 2026-07-28/],
    ['logging/setLevel', /removed in 2026-07-28/],
    ['resources/subscribe', /subscriptions\/listen/],
    ['resources/unsubscribe', /subscriptions\/listen/],
  ])('explains %s', (method, text) => {
    expect(notModernWhy(method)).toMatch(text);
  });

  it.each(['tools/list', 'nope/nope', 'constructor'])('has nothing to say about %s', (method) => {
    expect(notModernWhy(method)).toBeUndefined();
  });
});

describe('isObject', () => {
  it.each([
    [{}, true],
    [[], false],
    [null, false],
    ['x', false],
    [undefined, false],
  ])('%j -> %s', (value, expected) => {
    expect(isObject(value)).toBe(expected);
  });
});

describe('addCacheHints', () => {
  it.each([
    ['list', { ttlMs: 0, cacheScope: 'public' }],
    ['read', { ttlMs: 0, cacheScope: 'private' }],
  ] as const)('defaults a %s result', (kind, expected) => {
    const { core } = testServer();
    const result: Record<string, unknown> = { items: [] };
    addCacheHints(core, result, kind);
    expect(result).toEqual({ items: [], ...expected });
  });

  it('uses the server options for each kind and keeps what the handler set', () => {
    const { core } = testServer({
      cache: { ttlMs: 5, cacheScope: 'private' },
      readCache: { ttlMs: 7 },
    });
    const list: Record<string, unknown> = {};
    addCacheHints(core, list, 'list');
    expect(list).toEqual({ ttlMs: 5, cacheScope: 'private' });
    const read: Record<string, unknown> = {};
    addCacheHints(core, read, 'read');
    expect(read).toEqual({ ttlMs: 7, cacheScope: 'private' });
    const own: Record<string, unknown> = { ttlMs: 0, cacheScope: 'public' };
    addCacheHints(core, own, 'read');
    expect(own).toEqual({ ttlMs: 0, cacheScope: 'public' });
  });
});

describe('modernResult', () => {
  it("adds resultType 'complete' unless set", () => {
    const { core } = testServer();
    expect(modernResult(core, {})['resultType']).toBe('complete');
    expect(modernResult(core, { resultType: 'input_required' })['resultType']).toBe(
      'input_required',
    );
  });

  it('shares one frozen _meta per server when the result has none', () => {
    const { core } = testServer({ name: 'env', version: '9' });
    const one = modernResult(core, {})['_meta'];
    const two = modernResult(core, { _meta: null })['_meta'];
    expect(one).toEqual({ [SI]: { name: 'env', version: '9' } });
    expect(two).toBe(one);
    expect(Object.isFrozen(one)).toBe(true);
    const other = testServer({ name: 'other', version: '1' }).core;
    expect(modernResult(other, {})['_meta']).toEqual({ [SI]: { name: 'other', version: '1' } });
  });

  it("merges serverInfo into the handler's _meta without mutating it", () => {
    const { core } = testServer({ name: 'env', version: '9' });
    const handlerMeta = { 'x/y': 1 };
    const result = modernResult(core, { _meta: handlerMeta });
    expect(result['_meta']).toEqual({ 'x/y': 1, [SI]: { name: 'env', version: '9' } });
    expect(result['_meta']).not.toBe(handlerMeta);
    expect(handlerMeta).toEqual({ 'x/y': 1 });
  });
});
