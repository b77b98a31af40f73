/**
 * Signing in end to end, with nothing scripted but the person: oidc-provider 8.8 (started here,
 * on 127.0.0.1) as the authorization server, `mcpkit serve --auth-issuer --auth-audience` (the
 * built CLI, a real process) as the resource server, and mcpkit's client (`OAuthClient` over the
 * HTTP client transport) discovering both from the 401, registering by DCR, and signing in with
 * the authorization code grant, PKCE S256 and a resource indicator, through an `OAuthProvider`
 * that logs in and consents on the issuer's pages. Tokens are kept in a `FileOAuthStore` (0600)
 * and reused by the next run; an expired one is refreshed.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FileOAuthStore,
  MemoryOAuthStore,
  OAuthClient,
  type StoredAuth,
} from '../../src/auth/client/index.js';
import type { McpClient } from '../../src/client/index.js';
import { isMcpKitError } from '../../src/errors/index.js';
import { connect } from '../../src/transports/connect.js';
import { jwtClaims, startIssuer, USER, type TestIssuer } from './auth-issuer.js';
import { serveProtected, type ProtectedServe } from './auth-serve.js';
import { NoSignIn, ScriptedSignIn } from './auth-sign-in.js';

let issuer: TestIssuer;
let served: ProtectedServe;
let dir: string;
let authFile: string;

beforeAll(async () => {
  issuer = await startIssuer();
  served = await serveProtected(issuer.url, '--auth-scopes', 'mcp');
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-signin-'));
  authFile = join(dir, 'config', 'mcpkit', 'auth.json');
}, 30_000);

afterAll(async () => {
  await served?.stop();
  await issuer?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function stored(): StoredAuth {
  const all = JSON.parse(readFileSync(authFile, 'utf8')) as Record<string, StoredAuth>;
  const entry = all[served.url];
  if (!entry) throw new Error(`nothing stored for ${served.url}: ${Object.keys(all).join(', ')}`);
  return entry;
}

async function useServer(client: McpClient): Promise<void> {
  const tools = await client.listTools();
  expect(tools.map((t) => t.name)).toContain('search');
  const found = await client.callTool('search', { query: 'transport' });
  expect(found.isError).not.toBe(true);
  const resources = await client.listResources();
  const note = resources.find((r) => r.uri.endsWith('getting-started.md'));
  expect(note).toBeDefined();
  const read = await client.readResource(note!.uri);
  expect(JSON.stringify(read.contents)).toContain('mcpkit');
}

describe('mcpkit client signs in to mcpkit serve through oidc-provider', () => {
  it('discovers, registers, signs in with PKCE S256 and a resource indicator, then uses the server', async () => {
    const provider = new ScriptedSignIn(new FileOAuthStore(authFile));
    const client = await connect({ url: served.url, auth: new OAuthClient({ provider }) });
    try {
      await useServer(client);
    } finally {
      await client.close();
    }
    expect(provider.requests).toHaveLength(1);
    const asked = provider.requests[0]!.searchParams;
    expect(asked.get('response_type')).toBe('code');
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(asked.get('resource')).toBe(served.url);
    // offline_access is offered, so asked for, with the consent OpenID providers require for it.
    expect(asked.get('scope')?.split(' ').sort()).toEqual(['mcp', 'offline_access']);
    expect(asked.get('prompt')).toBe('consent');
    expect(asked.get('client_id')).toBe(issuer.registered[0]);
    expect(issuer.logins).toEqual([{ login: USER.login, accepted: true }]);
    expect(issuer.grants).toEqual(['authorization_code']);

    // The token is a JWT for this resource from this issuer, for the registered client.
    const kept = stored();
    expect(kept.issuer).toBe(issuer.url);
    expect(kept.client?.client_id).toBe(issuer.registered[0]);
    const claims = jwtClaims(kept.tokens!.access_token);
    expect(claims).toMatchObject({
      iss: issuer.url,
      aud: served.url,
      sub: USER.login,
      client_id: issuer.registered[0],
    });
    expect(String(claims['scope']).split(' ')).toContain('mcp');
    expect(kept.tokens?.refresh_token).toEqual(expect.any(String));
    // Readable by its owner only, in a folder only its owner may enter.
    expect(statSync(authFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'config', 'mcpkit')).mode & 0o777).toBe(0o700);
  });

  it('reuses the stored tokens on the next run: no sign-in, no token request', async () => {
    const before = stored().tokens!.access_token;
    const client = await connect({
      url: served.url,
      auth: new OAuthClient({ provider: new NoSignIn(new FileOAuthStore(authFile)) }),
    });
    try {
      await useServer(client);
    } finally {
      await client.close();
    }
    expect(issuer.grants).toEqual(['authorization_code']);
    expect(stored().tokens!.access_token).toBe(before);
  });

  it('refreshes an expired access token with the stored refresh token', async () => {
    const all = JSON.parse(readFileSync(authFile, 'utf8')) as Record<string, StoredAuth>;
    const old = all[served.url]!.tokens!;
    old.expires_at = Date.now() - 1000;
    writeFileSync(authFile, JSON.stringify(all), { mode: 0o600 });
    const client = await connect({
      url: served.url,
      auth: new OAuthClient({ provider: new NoSignIn(new FileOAuthStore(authFile)) }),
    });
    try {
      await useServer(client);
    } finally {
      await client.close();
    }
    expect(issuer.grants).toEqual(['authorization_code', 'refresh_token']);
    const renewed = stored().tokens!;
    expect(renewed.access_token).not.toBe(old.access_token);
    expect(renewed.expires_at).toBeGreaterThan(Date.now());
    expect(jwtClaims(renewed.access_token)).toMatchObject({ aud: served.url, iss: issuer.url });
    expect(statSync(authFile).mode & 0o777).toBe(0o600);
  });

  it('stops with AUTH_FAILED when the issuer mints tokens for another audience (no loop)', async () => {
    issuer.audienceFor = () => 'http://127.0.0.1:1/elsewhere';
    const provider = new ScriptedSignIn(new MemoryOAuthStore());
    try {
      const error = await connect({ url: served.url, auth: new OAuthClient({ provider }) }).then(
        () => new Error('connected with a token for another audience'),
        (e: unknown) => e,
      );
      expect(isMcpKitError(error) && error.code).toBe('AUTH_FAILED');
      expect(String(error)).toMatch(/refused the token just obtained/);
      expect(provider.requests).toHaveLength(1);
    } finally {
      issuer.audienceFor = (resource) => resource;
    }
  });

  it('gets no token with a wrong password', async () => {
    const provider = new ScriptedSignIn(new MemoryOAuthStore(), { login: 'alice', password: 'x' });
    const grants = issuer.grants.length;
    await expect(connect({ url: served.url, auth: new OAuthClient({ provider }) })).rejects.toThrow(
      /sign-in stopped/,
    );
    expect(issuer.logins.at(-1)).toEqual({ login: 'alice', accepted: false });
    expect(issuer.grants).toHaveLength(grants);
  });
});
