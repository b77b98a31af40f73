import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../errors/protocol-error.js';
import { canonicalJson, RequestStateSigner } from './request-state.js';

const TARGET = 'tools/call\nsearch\n{"q":"x"}\nnull';

async function refusal(promise: Promise<unknown>): Promise<ProtocolError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    // The field is named in data too, as every other -32602 of a param does.
    expect((error as ProtocolError).data).toEqual({ field: 'params.requestState' });
    return error as ProtocolError;
  }
  throw new Error('expected verify to refuse the token');
}

/** Replaces the character at `index` with a different base64url character. */
function alter(token: string, index: number): string {
  const c = token[index];
  return token.slice(0, index) + (c === 'A' ? 'B' : 'A') + token.slice(index + 1);
}

describe('RequestStateSigner', () => {
  it('round-trips answers and user state', async () => {
    const signer = new RequestStateSigner('secret', 60_000);
    const state = { answers: { confirm: { action: 'accept' } }, user: { step: 2, items: [1, 2] } };
    const token = await signer.sign(TARGET, state);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(await signer.verify(TARGET, token)).toEqual(state);
  });

  it('gives {} for answers when none were signed', async () => {
    const signer = new RequestStateSigner(undefined, 60_000);
    const token = await signer.sign(TARGET, { answers: undefined as never });
    expect(await signer.verify(TARGET, token)).toEqual({ answers: {}, user: undefined });
  });

  it.each([
    ['an altered body', (t: string) => alter(t, 3)],
    ['an altered mac', (t: string) => alter(t, t.indexOf('.') + 1)],
    ['no mac', (t: string) => t.slice(0, t.indexOf('.'))],
    ['an empty mac', (t: string) => t.slice(0, t.indexOf('.') + 1)],
    ['a mac that is not base64url', (t: string) => `${t}!`],
    ['no body', (t: string) => t.slice(t.indexOf('.'))],
    ['an empty string', () => ''],
  ])('refuses a token with %s', async (_what, tamper) => {
    const signer = new RequestStateSigner('secret', 60_000);
    const token = await signer.sign(TARGET, { answers: { a: 1 } });
    const error = await refusal(signer.verify(TARGET, tamper(token)));
    expect(error.message).toBe('params.requestState was not issued by this server or was altered');
  });

  it('refuses a token signed for another target', async () => {
    const signer = new RequestStateSigner('secret', 60_000);
    const token = await signer.sign(TARGET, { answers: {} });
    const error = await refusal(signer.verify(`${TARGET} `, token));
    expect(error.message).toBe('params.requestState belongs to another request');
  });

  it('refuses an expired token (a negative lifetime is expired at once)', async () => {
    const signer = new RequestStateSigner('secret', -1);
    const token = await signer.sign(TARGET, { answers: {} });
    const error = await refusal(signer.verify(TARGET, token));
    expect(error.message).toBe('params.requestState has expired: start the request again');
  });

  it.each([
    ['string', 'shared secret', 'shared secret'],
    ['bytes', new Uint8Array([1, 2, 3, 4]), new Uint8Array([1, 2, 3, 4])],
  ])('verifies across two signers that share a %s secret', async (_kind, one, two) => {
    const token = await new RequestStateSigner(one, 60_000).sign(TARGET, { answers: { k: 'v' } });
    const other = new RequestStateSigner(two, 60_000);
    expect(await other.verify(TARGET, token)).toEqual({ answers: { k: 'v' }, user: undefined });
  });

  it.each([
    ['another secret', 'secret B'],
    ['no secret (random)', undefined],
  ])('does not verify with %s', async (_what, secret) => {
    const token = await new RequestStateSigner('secret A', 60_000).sign(TARGET, { answers: {} });
    const error = await refusal(new RequestStateSigner(secret, 60_000).verify(TARGET, token));
    expect(error.message).toMatch(/not issued by this server/);
  });
});

describe('canonicalJson', () => {
  it.each([
    ['sorts object keys', { b: 1, a: 2 }, '{"a":2,"b":1}'],
    [
      'sorts nested keys',
      { z: { y: 1, x: [{ d: 1, c: 2 }] } },
      '{"z":{"x":[{"c":2,"d":1}],"y":1}}',
    ],
    ['keeps array order', [3, 1, 2], '[3,1,2]'],
    ['escapes keys and strings', { 'a"b': 'c\nd' }, '{"a\\"b":"c\\nd"}'],
    ['writes primitives as JSON', [null, true, 1.5, 'x'], '[null,true,1.5,"x"]'],
    ['writes an empty object and array', { a: {}, b: [] }, '{"a":{},"b":[]}'],
    ['writes undefined as null at the top', undefined, 'null'],
    ['writes undefined as null in an array', [undefined], '[null]'],
    // Unlike JSON.stringify, which drops the key: harmless for parsed JSON, which has no undefined.
    ['writes an undefined property as null', { a: undefined }, '{"a":null}'],
  ])('%s', (_what, value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('gives the same text whatever order the keys came in', () => {
    const one = { q: 'x', opts: { limit: 5, sort: ['a', 'b'] } };
    const two = { opts: { sort: ['a', 'b'], limit: 5 }, q: 'x' };
    expect(canonicalJson(one)).toBe(canonicalJson(two));
    expect(JSON.parse(canonicalJson(one))).toEqual(one);
  });
});
