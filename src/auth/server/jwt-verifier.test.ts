import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TOKEN_CLOCK_SKEW_S } from '../../server/token-expiry.js';
import { JwtVerifier, MAX_CLOCK_SKEW_S } from './jwt-verifier.js';
import type { KeySet } from './key-set.js';
import { TokenRejected } from './token-errors.js';

const ISSUER = 'https://as.example';
const AUDIENCE = 'https://mcp.example/mcp';

async function setup() {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  const keys = { resolve: createLocalJWKSet({ keys: [jwk] }) } as unknown as KeySet;
  const verifier = new JwtVerifier(keys, ISSUER, () => AUDIENCE);
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
  return { verifier, sign };
}

describe('JwtVerifier', () => {
  it('accepts an access token with a subject', async () => {
    const { verifier, sign } = await setup();
    const auth = await verifier.verify(await sign({ sub: 'alice', client_id: 'c', scope: 'a b' }));
    expect(auth).toMatchObject({ subject: 'alice', clientId: 'c', scopes: ['a', 'b'] });
  });

  it('refuses an access token without sub (RFC 9068): callers must be told apart', async () => {
    const { verifier, sign } = await setup();
    await expect(verifier.verify(await sign({ client_id: 'c' }))).rejects.toBeInstanceOf(
      TokenRejected,
    );
  });
});

describe('MAX_CLOCK_SKEW_S', () => {
  it("is the engine's: listen streams of a token past exp end when the gate would refuse it", () => {
    expect(MAX_CLOCK_SKEW_S).toBe(TOKEN_CLOCK_SKEW_S);
  });
});
