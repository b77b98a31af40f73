import { exportJWK, generateKeyPair } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isMcpKitError } from '../../errors/index.js';
import { AutoApproveProvider, startFakeOAuth, type FakeOAuth } from '../../testing/fake-oauth.js';
import { fetchMcp } from '../../transports/http/client/client-fetch.js';
import { resolveClientOptions } from '../../transports/http/client/client-options.js';
import { Abort } from '../../transports/http/client/client-abort.js';
import { OAuthClient } from './oauth-client.js';
import { MemoryOAuthStore, type AuthorizationRequest } from './provider.js';

let fake: FakeOAuth | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A 401 as the transport would offer it. */
function unauthorized(server: FakeOAuth, sent?: string) {
  return {
    status: 401 as const,
    url: new URL(server.url),
    wwwAuthenticate: `Bearer resource_metadata="${server.origin}/.well-known/oauth-protected-resource/mcp"`,
    sent,
  };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('OAuthClient', () => {
  it('signs in on a 401: DCR, PKCE S256, resource on both legs, then the token on the retry', async () => {
    fake = await startFakeOAuth({ scopesSupported: ['files:read'] });
    const provider = new AutoApproveProvider();
    const auth = new OAuthClient({ provider });
    const options = resolveClientOptions({ url: fake.url, auth });
    const answer = await fetchMcp(options, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      signal: new Abort(),
    });
    expect(answer.status).toBe(200);
    await answer.cancel();
    expect(fake.seen.mcpAuthorizations).toEqual([undefined, 'Bearer at-1']);
    expect(fake.seen.registrations[0]).toMatchObject({
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: [provider.redirectUrl],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    });
    const query = fake.seen.authorizations[0] as URLSearchParams;
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('resource')).toBe(fake.url);
    expect(query.get('scope')).toBe('files:read');
    expect(query.get('prompt')).toBeNull();
    const token = fake.seen.tokenRequests[0]?.form as URLSearchParams;
    expect(token.get('resource')).toBe(fake.url);
    expect(token.get('client_id')).toBe('client-1');
  });

  it('ends the sign-in under way when its request is aborted', async () => {
    fake = await startFakeOAuth();
    const requests: AuthorizationRequest[] = [];
    const provider = {
      redirectUrl: 'http://127.0.0.1:1/callback',
      // Like a person who never comes back: only the request's abort ends it.
      authorize: (request: AuthorizationRequest) =>
        new Promise<string>((_, reject) => {
          requests.push(request);
          request.signal?.addEventListener('abort', () => reject(new Error('sign-in cancelled')));
        }),
    };
    const auth = new OAuthClient({ provider });
    const abort = new Abort();
    const sending = fetchMcp(resolveClientOptions({ url: fake.url, auth }), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      signal: abort,
    });
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    abort.abort();
    await expect(sending).rejects.toThrow('sign-in cancelled');
    expect(requests[0]?.signal?.aborted).toBe(true);
  });

  it('asks for consent with offline_access (OpenID providers drop it otherwise)', async () => {
    fake = await startFakeOAuth({ scopesSupported: ['files:read', 'offline_access'] });
    const auth = new OAuthClient({ provider: new AutoApproveProvider() });
    expect(await auth.signIn(fake.url)).toBe(true);
    const query = fake.seen.authorizations[0] as URLSearchParams;
    expect(query.get('scope')).toBe('files:read offline_access');
    expect(query.get('prompt')).toBe('consent');
  });

  it('keeps tokens per server: signing in to one never hands its token to another', async () => {
    fake = await startFakeOAuth();
    const other = await startFakeOAuth();
    try {
      const auth = new OAuthClient({ provider: new AutoApproveProvider() });
      expect(await auth.signIn(fake.url)).toBe(true);
      expect(await auth.authorization(new URL(fake.url))).toMatch(/^Bearer /);
      // Nothing held for the other server: no header, and signing in there runs its own flow.
      expect(await auth.authorization(new URL(other.url))).toBeUndefined();
      expect(await auth.signIn(other.url)).toBe(true);
      expect(other.seen.authorizations).toHaveLength(1);
      expect(fake.seen.authorizations).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('fails once, and from then on at once, when the server refuses a token just obtained', async () => {
    fake = await startFakeOAuth({ refuseTokens: true });
    const auth = new OAuthClient({ provider: new AutoApproveProvider() });
    const options = resolveClientOptions({ url: fake.url, auth });
    const send = () =>
      fetchMcp(options, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        signal: new Abort(),
      });
    const first = await failure(send());
    expect(isMcpKitError(first) && first.code).toBe('AUTH_FAILED');
    expect(first.message).toMatch(/refused the token just obtained/);
    expect(fake.seen.authorizations).toHaveLength(1);
    const requests = fake.seen.mcpAuthorizations.length;
    const second = await failure(send());
    expect(second).toBe(first);
    // No sign-in again, no request sent.
    expect(fake.seen.authorizations).toHaveLength(1);
    expect(fake.seen.mcpAuthorizations).toHaveLength(requests);
  });

  it('gets a new token when one used before is refused (revoked, the AS changed)', async () => {
    fake = await startFakeOAuth();
    const auth = new OAuthClient({ provider: new AutoApproveProvider() });
    const url = new URL(fake.url);
    expect(await auth.signIn(fake.url)).toBe(true);
    await auth.authorization(url);
    const sent = await auth.authorization(url);
    expect(await auth.challenge(unauthorized(fake, sent))).toBe(true);
    // A new token (by the refresh token held), not a failure.
    expect(fake.seen.tokenRequests.at(-1)?.form.get('grant_type')).toBe('refresh_token');
    expect(await auth.authorization(url)).not.toBe(sent);
  });

  it('signs in once for concurrent 401s: a stale token is just replaced by the current one', async () => {
    fake = await startFakeOAuth();
    const auth = new OAuthClient({ provider: new AutoApproveProvider() });
    const results = await Promise.all([
      auth.challenge(unauthorized(fake)),
      auth.challenge(unauthorized(fake)),
    ]);
    expect(results).toEqual([true, true]);
    expect(await auth.challenge(unauthorized(fake, 'Bearer stale'))).toBe(true);
    expect(fake.seen.authorizations).toHaveLength(1);
  });

  it('registers again when the server forgot a kept DCR client, or its redirect URI changed', async () => {
    fake = await startFakeOAuth({ forgetClient: 'gone' });
    const store = new MemoryOAuthStore();
    const provider = new AutoApproveProvider();
    store.save(fake.url, {
      issuer: fake.origin,
      client: { client_id: 'gone', token_endpoint_auth_method: 'none' },
    });
    const auth = new OAuthClient({ provider, store });
    expect(await auth.challenge(unauthorized(fake))).toBe(true);
    expect(fake.seen.tokenRequests.map((r) => r.form.get('client_id'))).toEqual([
      'gone',
      'client-1',
    ]);
    const moved = new MemoryOAuthStore();
    moved.save(fake.url, {
      issuer: fake.origin,
      client: { client_id: 'old', redirect_uris: ['http://127.0.0.1:9/callback'] },
    });
    await new OAuthClient({ provider, store: moved }).challenge(unauthorized(fake));
    expect(fake.seen.registrations).toHaveLength(2);
    expect(fake.seen.authorizations[2]?.get('client_id')).toBe('client-2');
  });

  it('refuses a client metadata URL that is not https with a path', () => {
    const provider = new AutoApproveProvider();
    expect(
      () => new OAuthClient({ provider, clientMetadataUrl: 'http://x.example/c.json' }),
    ).toThrow(/clientMetadataUrl must be an https URL/);
    expect(() => new OAuthClient({ provider, clientMetadataUrl: 'https://x.example/' })).toThrow(
      TypeError,
    );
  });

  it('refuses authorization server metadata that names another issuer', async () => {
    fake = await startFakeOAuth({ metadataIssuer: 'https://attacker.example' });
    const auth = new OAuthClient({ provider: new AutoApproveProvider() });
    const error = await failure(auth.challenge(unauthorized(fake)));
    expect(isMcpKitError(error, 'AUTH_FAILED')).toBe(true);
    expect(error.message).toContain('https://attacker.example');
    expect(fake.seen.registrations).toHaveLength(0);
  });

  it.each([
    ['wrong', 'https://evil.example'],
    ['omit', 'has no iss'],
  ] as const)('refuses an authorization response with iss %s (RFC 9207)', async (iss, text) => {
    fake = await startFakeOAuth({ iss });
    const auth = new OAuthClient({ provider: new AutoApproveProvider() });
    const error = await failure(auth.challenge(unauthorized(fake)));
    expect(isMcpKitError(error, 'AUTH_FAILED')).toBe(true);
    expect(error.message).toContain(text);
    expect(fake.seen.tokenRequests).toHaveLength(0);
  });

  it('fails with a clear error on an endless token response', async () => {
    fake = await startFakeOAuth({ endlessToken: true });
    const auth = new OAuthClient({ provider: new AutoApproveProvider() });
    const error = await failure(auth.challenge(unauthorized(fake)));
    expect(isMcpKitError(error, 'AUTH_FAILED')).toBe(true);
    expect(error.message).toMatch(/larger than 1048576 bytes/);
  });

  it('refuses plain http to loopback unless the MCP server is on loopback', async () => {
    fake = await startFakeOAuth();
    const auth = new OAuthClient({ provider: new AutoApproveProvider(), allowLoopback: false });
    const error = await failure(auth.challenge(unauthorized(fake)));
    expect(isMcpKitError(error, 'AUTH_FAILED')).toBe(true);
    expect(error.message).toContain('must use https');
  });

  it('refuses an https authorization server whose name resolves to loopback (SSRF guard)', async () => {
    fake = await startFakeOAuth();
    const auth = new OAuthClient({
      provider: new AutoApproveProvider(),
      allowLoopback: false,
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    const error = await failure(
      auth.challenge({
        ...unauthorized(fake),
        wwwAuthenticate: 'Bearer resource_metadata="https://metadata.example/prm"',
      }),
    );
    expect(isMcpKitError(error, 'GUARD_BLOCKED')).toBe(true);
  });

  it('steps up once on 403 insufficient_scope with the union of scopes, then gives up', async () => {
    fake = await startFakeOAuth({ scopesSupported: ['a'] });
    const auth = new OAuthClient({ provider: new AutoApproveProvider() });
    expect(await auth.challenge(unauthorized(fake))).toBe(true);
    const forbidden = {
      status: 403 as const,
      url: new URL(fake.url),
      wwwAuthenticate: 'Bearer error="insufficient_scope", scope="b"',
      sent: 'Bearer at-1',
    };
    expect(await auth.challenge(forbidden)).toBe(true);
    expect(fake.seen.authorizations[1]?.get('scope')).toBe('a b');
    expect(await auth.authorization(new URL(fake.url))).toBe('Bearer at-2');
    const again = await failure(auth.challenge({ ...forbidden, sent: 'Bearer at-2' }));
    expect(isMcpKitError(again, 'AUTH_FAILED')).toBe(true);
    expect(fake.seen.authorizations).toHaveLength(2);
  });

  it('signing out forgets the step-ups given up on: signed in again, a 403 steps up again', async () => {
    fake = await startFakeOAuth({ scopesSupported: ['a'] });
    const auth = new OAuthClient({ provider: new AutoApproveProvider() });
    await auth.challenge(unauthorized(fake));
    const forbidden = {
      status: 403 as const,
      url: new URL(fake.url),
      wwwAuthenticate: 'Bearer error="insufficient_scope", scope="b"',
      sent: 'Bearer at-1',
    };
    await auth.challenge(forbidden);
    await failure(auth.challenge({ ...forbidden, sent: 'Bearer at-2' }));
    await auth.signOut(fake.url);
    expect(await auth.challenge(unauthorized(fake))).toBe(true);
    expect(await auth.challenge({ ...forbidden, sent: 'Bearer at-3' })).toBe(true);
    expect(fake.seen.authorizations).toHaveLength(4);
    expect(fake.seen.authorizations[3]?.get('scope')).toBe('a b');
  });

  it('keeps the token held when a step-up sign-in fails', async () => {
    fake = await startFakeOAuth({ scopesSupported: ['a'] });
    const approve = new AutoApproveProvider();
    let prompts = 0;
    const provider = {
      redirectUrl: approve.redirectUrl,
      authorize: async (request: Parameters<AutoApproveProvider['authorize']>[0]) => {
        prompts++;
        if (approve.requests.length === 0) return approve.authorize(request);
        throw new Error('the user declined scope b');
      },
    };
    const auth = new OAuthClient({ provider });
    expect(await auth.challenge(unauthorized(fake))).toBe(true);
    const forbidden = {
      status: 403 as const,
      url: new URL(fake.url),
      wwwAuthenticate: 'Bearer error="insufficient_scope", scope="b"',
      sent: 'Bearer at-1',
    };
    await failure(auth.challenge(forbidden));
    // What scope a allows still works: no header-less request, no sign-in again.
    expect(await auth.authorization(new URL(fake.url))).toBe('Bearer at-1');
    // Declined is not refused by the server: a later 403 asks the user again.
    const again = await failure(auth.challenge(forbidden));
    expect(again.message).toBe('the user declined scope b');
    expect(prompts).toBe(3);
  });

  it('refreshes an expired token with its refresh token (resource included)', async () => {
    fake = await startFakeOAuth({ expiresIn: 1 });
    const auth = new OAuthClient({ provider: new AutoApproveProvider() });
    await auth.challenge(unauthorized(fake));
    // expires_in 1 s is inside the 30 s margin: the next header needs a refresh.
    expect(await auth.authorization(new URL(fake.url))).toBe('Bearer at-2');
    const refresh = fake.seen.tokenRequests[1]?.form as URLSearchParams;
    expect(refresh.get('grant_type')).toBe('refresh_token');
    expect(refresh.get('refresh_token')).toBe('rt-1');
    expect(refresh.get('resource')).toBe(fake.url);
    expect(fake.seen.authorizations).toHaveLength(1);
  });

  it('refreshes once for concurrent requests past expiry (a refresh token is single-use)', async () => {
    fake = await startFakeOAuth({ expiresIn: 1, singleUseRefresh: true });
    const auth = new OAuthClient({ provider: new AutoApproveProvider() });
    await auth.challenge(unauthorized(fake));
    const url = new URL(fake.url);
    const headers = await Promise.all([auth.authorization(url), auth.authorization(url)]);
    expect(headers).toEqual(['Bearer at-2', 'Bearer at-2']);
    // One refresh with rt-1, and no second sign-in after rt-1 was refused as used.
    expect(fake.seen.tokenRequests.map((r) => r.form.get('grant_type'))).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    expect(fake.seen.authorizations).toHaveLength(1);
  });

  it('401s that waited on a sign-in that failed share its failure; a later 401 signs in again', async () => {
    fake = await startFakeOAuth();
    const approve = new AutoApproveProvider();
    let prompts = 0;
    const provider = {
      redirectUrl: approve.redirectUrl,
      authorize: async (request: Parameters<AutoApproveProvider['authorize']>[0]) => {
        if (++prompts > 1) return approve.authorize(request);
        throw new Error('the user closed the browser');
      },
    };
    const auth = new OAuthClient({ provider });
    const results = await Promise.allSettled([
      auth.challenge(unauthorized(fake)),
      auth.challenge(unauthorized(fake)),
      auth.challenge(unauthorized(fake)),
    ]);
    // One prompt, declined: the requests waiting on it fail with it, none opens another.
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const reasons = results.map((r) => (r as PromiseRejectedResult).reason as Error);
    expect(new Set(reasons).size).toBe(1);
    expect(prompts).toBe(1);
    expect(await auth.challenge(unauthorized(fake))).toBe(true);
    expect(prompts).toBe(2);
  });

  it('a token endpoint that is down fails every request waiting on the refresh, refreshed once', async () => {
    fake = await startFakeOAuth({ expiresIn: 1, refreshStatus: 503 });
    const auth = new OAuthClient({ provider: new AutoApproveProvider() });
    await auth.challenge(unauthorized(fake));
    const url = new URL(fake.url);
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map(() => auth.authorization(url)));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    const refreshes = fake.seen.tokenRequests.filter(
      (r) => r.form.get('grant_type') === 'refresh_token',
    );
    expect(refreshes).toHaveLength(1);
  });

  it('a request cancelled while it waits on a sign-in fails at once; the sign-in goes on', async () => {
    fake = await startFakeOAuth();
    const approve = new AutoApproveProvider();
    let release = (): void => {};
    const gate = new Promise<void>((r) => (release = r));
    const provider = {
      redirectUrl: approve.redirectUrl,
      authorize: async (request: Parameters<AutoApproveProvider['authorize']>[0]) => {
        await gate;
        return approve.authorize(request);
      },
    };
    const auth = new OAuthClient({ provider });
    const first = auth.challenge(unauthorized(fake));
    await new Promise((r) => setTimeout(r, 50));
    const abort = new AbortController();
    const waiting = auth.challenge({ ...unauthorized(fake), signal: abort.signal });
    abort.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    release();
    expect(await first).toBe(true);
  });

  it('keeps its refresh token and does not sign in while the token endpoint is down', async () => {
    fake = await startFakeOAuth({ expiresIn: 1, refreshStatus: 503 });
    const provider = new AutoApproveProvider();
    const auth = new OAuthClient({ provider });
    await auth.challenge(unauthorized(fake));
    const url = new URL(fake.url);
    const error = await failure(auth.authorization(url));
    expect(isMcpKitError(error, 'AUTH_FAILED')).toBe(true);
    expect(error.message).toMatch(/answered 503/);
    expect(provider.requests).toHaveLength(1);
    // Back up: the refresh token kept gets the new token, with no sign-in.
    delete fake.config.refreshStatus;
    expect(await auth.authorization(url)).toBe('Bearer at-2');
    expect(fake.seen.tokenRequests.at(-1)?.form.get('refresh_token')).toBe('rt-1');
    expect(provider.requests).toHaveLength(1);
  });

  it('client credentials with a private_key_jwt assertion signed for the issuer', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    fake = await startFakeOAuth({ assertionKey: publicKey, authMethods: ['private_key_jwt'] });
    const auth = new OAuthClient({
      grant: 'client_credentials',
      clientId: 'machine',
      privateKey: { key: await exportJWK(privateKey), algorithm: 'ES256' },
    });
    expect(await auth.challenge(unauthorized(fake))).toBe(true);
    const form = fake.seen.tokenRequests[0]?.form as URLSearchParams;
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(form.get('client_assertion_type')).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
    expect(await auth.authorization(new URL(fake.url))).toBe('Bearer at-1');
  });

  it('uses pre-registered credentials with client_secret_basic and never registers', async () => {
    fake = await startFakeOAuth({ authMethods: ['client_secret_basic'] });
    const auth = new OAuthClient({
      provider: new AutoApproveProvider(),
      clientId: 'pre id',
      clientSecret: 's:cret',
    });
    await auth.challenge(unauthorized(fake));
    expect(fake.seen.registrations).toHaveLength(0);
    const basic = fake.seen.tokenRequests[0]?.authorization ?? '';
    expect(Buffer.from(basic.slice(6), 'base64').toString()).toBe('pre+id:s%3Acret');
  });
});
