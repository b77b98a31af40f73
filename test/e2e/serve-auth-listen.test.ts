/**
 * A listen stream lives as long as the token it was opened with: `mcpkit serve --auth-*` (the
 * built CLI) ends a `subscriptions/listen` stream when its caller's access token expires
 * (oidc-provider issuing 3-second tokens here), and mcpkit's client, listening with `relisten`,
 * sees the end (`reason: token-expired`) and listens again with a fresh token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryOAuthStore, OAuthClient, type StoredAuth } from '../../src/auth/client/index.js';
import { connect } from '../../src/transports/connect.js';
import { jwtClaims, startIssuer, type TestIssuer } from './auth-issuer.js';
import { serveProtected, type ProtectedServe } from './auth-serve.js';
import { ScriptedSignIn } from './auth-sign-in.js';

const TTL_S = 3;

/** Remembers every access token the client kept. */
class RecordingStore extends MemoryOAuthStore {
  readonly tokens: string[] = [];
  override save(resource: string, value: StoredAuth | undefined): void {
    const token = value?.tokens?.access_token;
    if (token !== undefined && token !== this.tokens.at(-1)) this.tokens.push(token);
    super.save(resource, value);
  }
}

let issuer: TestIssuer;
let served: ProtectedServe;

beforeAll(async () => {
  issuer = await startIssuer({ accessTokenTtlS: TTL_S });
  served = await serveProtected(issuer.url, '--auth-scopes', 'mcp');
}, 30_000);

afterAll(async () => {
  await served?.stop();
  await issuer?.stop();
});

describe('listen streams and token expiry over HTTP', () => {
  it('ends the stream when the token expires; the client listens again with a fresh one', async () => {
    const store = new RecordingStore();
    const client = await connect({
      url: served.url,
      auth: new OAuthClient({ provider: new ScriptedSignIn(store) }),
    });
    try {
      const causes: unknown[] = [];
      const openedWith = store.tokens.length;
      const stream = await client.listen(
        { resourcesListChanged: true },
        { relisten: { minDelayMs: 50, onRelisten: ({ cause }) => causes.push(cause) } },
      );
      // The consumer reads on: the next frame comes after the end and the new stream, and
      // says "the list may have changed meanwhile".
      const next = await stream.next();
      expect(next.value).toMatchObject({
        method: 'notifications/resources/list_changed',
        params: { _meta: { 'dev.mcpkit/resync': true } },
      });
      expect(causes).toHaveLength(1);
      expect(causes[0]).toMatchObject({
        code: -32600,
        data: { reason: 'token-expired', error: 'invalid_token' },
      });
      expect(stream.relistens).toBe(1);
      expect(stream.acknowledged).toMatchObject({ resourcesListChanged: true });
      // The new stream was opened with a token obtained after the first one, by refresh.
      expect(store.tokens.length).toBeGreaterThan(openedWith);
      expect(issuer.grants).toContain('refresh_token');
      const [first, last] = [store.tokens[openedWith - 1]!, store.tokens.at(-1)!];
      expect(Number(jwtClaims(last)['exp'])).toBeGreaterThan(Number(jwtClaims(first)['exp']));
      await stream.close();
    } finally {
      await client.close();
    }
  });
});
