import { SignJWT, exportJWK, generateKeyPair, jwtVerify, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { KeySet } from './key-set.js';
import type { RemoteDocument } from './remote-json.js';

const JWKS_URI = 'https://as.example/jwks';
let jwk: JWK;
let token: string;

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  token = await new SignJWT({ sub: 'alice' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .sign(privateKey);
});

/**
 * A JWKS endpoint answering with `cacheControl`, counting fetches; `down` makes it fail, `hang`
 * never answer.
 */
function endpoint(cacheControl?: string) {
  const state = { fetches: 0, down: false, hang: false, clock: 0 };
  const documents = {
    get: () => Promise.reject(new Error('no metadata here')),
    document: async (url: string): Promise<RemoteDocument> => {
      expect(url).toBe(JWKS_URI);
      state.fetches++;
      if (state.down) throw new Error('connection refused');
      if (state.hang) return new Promise<RemoteDocument>(() => undefined);
      return {
        json: { keys: [jwk] },
        headers: cacheControl === undefined ? {} : { 'cache-control': cacheControl },
      };
    },
  };
  const keys = new KeySet({
    issuer: 'https://as.example',
    jwksUri: JWKS_URI,
    documents,
    now: () => state.clock,
  });
  const verify = () => jwtVerify(token, keys.resolve);
  return { state, verify };
}

describe('KeySet', () => {
  it("keeps the keys for the answer's max-age, then fetches them again", async () => {
    const { state, verify } = endpoint('public, max-age=300');
    await verify();
    state.clock = 299_000;
    await verify();
    expect(state.fetches).toBe(1);
    state.clock = 300_000;
    await verify();
    expect(state.fetches).toBe(2);
  });

  it('answers with the keys it holds while fresh ones are fetched, even from a server that hangs', async () => {
    const { state, verify } = endpoint('max-age=60');
    await verify();
    state.hang = true;
    state.clock = 61_000;
    // Past their age: verified at once with the held keys, the fetch running behind.
    await expect(verify()).resolves.toMatchObject({ payload: { sub: 'alice' } });
    expect(state.fetches).toBe(2);
    await expect(verify()).resolves.toMatchObject({ payload: { sub: 'alice' } });
    expect(state.fetches).toBe(2);
  });

  it('bounds max-age to 1 minute .. 24 hours, and keeps 10 minutes without one', async () => {
    const short = endpoint('no-cache');
    await short.verify();
    short.state.clock = 59_000;
    await short.verify();
    expect(short.state.fetches).toBe(1);
    short.state.clock = 60_000;
    await short.verify();
    expect(short.state.fetches).toBe(2);

    const long = endpoint('max-age=31536000');
    await long.verify();
    long.state.clock = 24 * 3_600_000;
    await long.verify();
    expect(long.state.fetches).toBe(2);

    const silent = endpoint();
    await silent.verify();
    silent.state.clock = 599_000;
    await silent.verify();
    expect(silent.state.fetches).toBe(1);
    silent.state.clock = 600_000;
    await silent.verify();
    expect(silent.state.fetches).toBe(2);
  });

  it('keeps using the keys it holds while the endpoint is down', async () => {
    const { state, verify } = endpoint('max-age=60');
    await verify();
    state.down = true;
    state.clock = 61_000;
    await verify();
    expect(state.fetches).toBe(2);
    // The failure is held briefly: no fetch per request meanwhile.
    state.clock = 62_000;
    await verify();
    expect(state.fetches).toBe(2);
  });
});
