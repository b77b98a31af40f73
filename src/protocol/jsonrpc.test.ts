import { describe, expect, it } from 'vitest';
import { cancelledIdOf, classify } from './jsonrpc.js';

describe('classify', () => {
  it.each([
    [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, 'request'],
    [{ jsonrpc: '2.0', id: 'a', method: 'x' }, 'request'],
    [
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      'notification',
    ],
    [{ jsonrpc: '2.0', id: 1, result: {} }, 'response'],
    [{ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } }, 'response'],
  ])('classifies %j as %s', (value, kind) => {
    expect(classify(value).kind).toBe(kind);
  });

  it.each([
    [[{ jsonrpc: '2.0', id: 1, method: 'x' }], null, 'batches are not supported'],
    ['text', null, 'JSON object'],
    [null, null, 'JSON object'],
    [{ id: 3, method: 'x' }, 3, '"jsonrpc" must be "2.0"'],
    [{ jsonrpc: '2.0', id: 4 }, 4, '"method" is missing'],
    [{ jsonrpc: '2.0', id: 5, method: 7 }, 5, '"method" must be a non-empty string'],
    [{ jsonrpc: '2.0', id: 6, method: 'x', params: [1] }, 6, '"params" must be an object'],
    [{ jsonrpc: '2.0', id: null, method: 'x' }, null, '"id" must be a string or an integer'],
    [{ jsonrpc: '2.0', id: 1.5, method: 'x' }, null, '"id" must be a string or an integer'],
    [{ jsonrpc: '2.0', id: { a: 1 }, method: 'x' }, null, '"id" must be a string or an integer'],
  ])('rejects %j', (value, id, reason) => {
    const c = classify(value);
    expect(c.kind).toBe('invalid');
    if (c.kind === 'invalid') {
      expect(c.id).toBe(id);
      expect(c.reason).toContain(reason);
    }
  });

  it.each([
    [{ jsonrpc: '2.0', id: 1, error: null }, 'error'],
    [{ jsonrpc: '2.0', id: 1, error: 'x' }, 'error'],
    [{ jsonrpc: '2.0', id: 1, error: { message: 'no code' } }, 'error'],
    [{ jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } }, 'error'],
    [{ jsonrpc: '2.0', id: 1, error: { code: '1', message: 'x' } }, 'error'],
    [{ jsonrpc: '2.0', id: 1, error: { code: 1 } }, 'error'],
    [{ jsonrpc: '2.0', id: 1, result: null }, 'result'],
    [{ jsonrpc: '2.0', id: 1, result: 5 }, 'result'],
    [{ jsonrpc: '2.0', id: 1, result: [] }, 'result'],
    [{ jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } }, 'not both'],
  ])('rejects the malformed response %j, naming the id it answers', (value, reason) => {
    const c = classify(value);
    expect(c.kind).toBe('invalid');
    if (c.kind === 'invalid') {
      expect(c.id).toBeNull();
      expect(c.responseTo).toBe(1);
      expect(c.reason).toContain(reason);
    }
  });

  it.each([
    ['2^64 + 1 (parsed as 18446744073709552000)', '18446744073709551617'],
    ['2^53, where a neighbour already reads the same', '9007199254740992'],
    ['a negative one', '-9007199254740993'],
    ['an exponent', '1e300'],
  ])('refuses an integer id that is not a safe integer: %s', (_what, raw) => {
    const request = JSON.parse(`{"jsonrpc":"2.0","id":${raw},"method":"tools/list"}`) as unknown;
    const c = classify(request);
    expect(c).toMatchObject({ kind: 'invalid', id: null });
    if (c.kind === 'invalid') {
      expect(c.reason).toContain(String(Number.MAX_SAFE_INTEGER));
      expect(c.reason).toContain('Number.MAX_SAFE_INTEGER');
    }
    const response = JSON.parse(`{"jsonrpc":"2.0","id":${raw},"result":{}}`) as unknown;
    expect(classify(response)).toMatchObject({ kind: 'invalid', id: null });
  });

  it('takes the largest and smallest safe integers as ids', () => {
    for (const id of [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 0]) {
      expect(classify({ jsonrpc: '2.0', id, method: 'x' }).kind).toBe('request');
    }
  });

  it('accepts a response whose error has data, and an error response with a null id', () => {
    expect(classify({ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x', data: 1 } })).toEqual(
      expect.objectContaining({ kind: 'response' }),
    );
    expect(classify({ jsonrpc: '2.0', id: null, error: { code: -1, message: 'x' } }).kind).toBe(
      'response',
    );
  });
});

describe('cancelledIdOf', () => {
  const note = (extra: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId: 7 },
    ...extra,
  });

  it('names the request of a valid cancellation, a number or a string', () => {
    expect(cancelledIdOf(note({}))).toBe(7);
    expect(cancelledIdOf(note({ params: { requestId: 'a' } }))).toBe('a');
  });

  it.each([
    ['no jsonrpc version', note({ jsonrpc: undefined })],
    ['another jsonrpc version', note({ jsonrpc: '1.0' })],
    ['an id (a request, not a notification)', note({ id: 1 })],
    ['an id of null', note({ id: null })],
    ['another method', note({ method: 'notifications/progress' })],
    ['no params', note({ params: undefined })],
    ['a fractional requestId', note({ params: { requestId: 1.5 } })],
    ['an unsafe integer requestId', note({ params: { requestId: 2 ** 53 } })],
    ['a null requestId', note({ params: { requestId: null } })],
  ])('cancels nothing for %s', (_what, message) => {
    expect(cancelledIdOf(message)).toBeUndefined();
  });

  it('cancels nothing for what is not an object', () => {
    for (const value of [null, 7, 'notifications/cancelled', [note({})]])
      expect(cancelledIdOf(value)).toBeUndefined();
  });
});
