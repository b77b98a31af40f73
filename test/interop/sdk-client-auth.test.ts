/**
 * Interop: the official SDK v2 client (`@modelcontextprotocol/client` 2.4.0, its
 * `OAuthClientProvider` API) signs in to `mcpkit serve --auth-issuer --auth-audience` (the built
 * CLI, a real process) through oidc-provider 8.8 started here on 127.0.0.1: the 401 challenge,
 * mcpkit's Protected Resource Metadata, the issuer's discovery, DCR, the authorization code with
 * PKCE S256 and `resource`, then resources listed and read with the token, in both eras.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import { jwtClaims, startIssuer, userAgent, USER, type TestIssuer } from '../e2e/auth-issuer.js';
import { serveProtected, type ProtectedServe } from '../e2e/auth-serve.js';

const REDIRECT = 'http://127.0.0.1/callback';
const MODERN = '2026-07-28';

/** The SDK's provider contract, kept in memory; the "browser" is the scripted user agent. */
class SdkSignIn implements OAuthClientProvider {
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'sdk-v2-interop',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  readonly authorizationUrls: URL[] = [];
  /** Where the issuer sent the browser back (`…?code=…&state=…&iss=…`). */
  callback: URL | undefined;
  private client: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  private discovery: OAuthDiscoveryState | undefined;

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrls.push(url);
    this.callback = new URL(await userAgent(url, REDIRECT));
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  // Kept so that the SDK binds the callback to the authorization server it started with.
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }
}

function sdkClient(era: 'modern' | 'legacy'): Client {
  const info = { name: 'sdk-v2-auth-interop', version: '0.0.1' };
  return era === 'legacy'
    ? new Client(info)
    : new Client(info, { versionNegotiation: { mode: { pin: MODERN } } });
}

function transport(url: string, provider: SdkSignIn): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
}

/** The SDK's interactive flow: connect (401, redirect), finishAuth with the callback, connect. */
async function signIn(url: string, provider: SdkSignIn): Promise<Client> {
  const first = transport(url, provider);
  await expect(sdkClient('modern').connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  if (!provider.callback) throw new Error('the SDK never sent the browser to the issuer');
  await first.finishAuth(provider.callback.searchParams);
  const client = sdkClient('modern');
  await client.connect(transport(url, provider));
  return client;
}

let issuer: TestIssuer;
let served: ProtectedServe;

beforeAll(async () => {
  issuer = await startIssuer();
  served = await serveProtected(issuer.url, '--auth-scopes', 'mcp');
}, 30_000);

afterAll(async () => {
  await served?.stop();
  await issuer?.stop();
});

describe('SDK v2 client signs in to mcpkit serve through oidc-provider', () => {
  const provider = new SdkSignIn();

  it('discovers mcpkit serve, signs in with PKCE S256 and resource, then lists and reads resources', async () => {
    const client = await signIn(served.url, provider);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const { resources } = await client.listResources();
      const note = resources.find((r) => r.uri.endsWith('getting-started.md'));
      expect(note).toBeDefined();
      const read = await client.readResource({ uri: note!.uri });
      expect(JSON.stringify(read.contents)).toContain('mcpkit');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('search');
    } finally {
      await client.close();
    }
    expect(provider.authorizationUrls).toHaveLength(1);
    const asked = provider.authorizationUrls[0]!.searchParams;
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('resource')).toBe(served.url);
    expect(asked.get('scope')?.split(' ')).toContain('mcp');
    expect(issuer.logins.at(-1)).toEqual({ login: USER.login, accepted: true });
    const token = provider.tokens()!.access_token;
    expect(jwtClaims(token)).toMatchObject({ aud: served.url, iss: issuer.url, sub: USER.login });
  });

  it('uses the same tokens in the 2025-11-25 era (initialize), with no new sign-in', async () => {
    const grants = issuer.grants.length;
    const client = sdkClient('legacy');
    await client.connect(transport(served.url, provider));
    try {
      expect(client.getProtocolEra()).toBe('legacy');
      const { resources } = await client.listResources();
      expect(resources.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
    expect(provider.authorizationUrls).toHaveLength(1);
    expect(issuer.grants).toHaveLength(grants);
  });

  it('is refused by mcpkit serve with a token minted for another audience', async () => {
    issuer.audienceFor = () => 'http://127.0.0.1:1/elsewhere';
    try {
      const other = new SdkSignIn();
      const first = transport(served.url, other);
      await expect(sdkClient('modern').connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
      await first.finishAuth(other.callback!.searchParams);
      expect(jwtClaims(other.tokens()!.access_token)['aud']).toBe('http://127.0.0.1:1/elsewhere');
      const res = await fetch(served.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${other.tokens()!.access_token}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      await expect(sdkClient('modern').connect(transport(served.url, other))).rejects.toThrow();
    } finally {
      issuer.audienceFor = (resource) => resource;
    }
  });
});
