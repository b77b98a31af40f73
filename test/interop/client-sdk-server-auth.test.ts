/**
 * Interop: mcpkit's client signs in to a server written with the official SDK v2
 * (`@modelcontextprotocol/server` 2.4.0, a real process) protected by the SDK's own bearer
 * middleware (`requireBearerAuth` with `expectedResource` and `requiredScopes`, its Protected
 * Resource Metadata from `oauthMetadataResponse`), with tokens from oidc-provider 8.8 started
 * here on 127.0.0.1: discovery from the SDK's 401, DCR, authorization code + PKCE S256 +
 * resource, then tools called in both eras with the token the SDK verified.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryOAuthStore, OAuthClient } from '../../src/auth/client/index.js';
import { McpClient } from '../../src/client/index.js';
import { isMcpKitError } from '../../src/errors/index.js';
import { connect } from '../../src/transports/connect.js';
import { HttpClientTransport } from '../../src/transports/http/client/client-transport.js';
import { jwtClaims, startIssuer, USER, type TestIssuer } from '../e2e/auth-issuer.js';
import { ScriptedSignIn } from '../e2e/auth-sign-in.js';
import { spawnListening, stopChild, type SpawnedServer } from './client-helpers.js';

let issuer: TestIssuer;
let sdk: SpawnedServer;

beforeAll(async () => {
  issuer = await startIssuer();
  sdk = await spawnListening([
    '--import',
    'tsx',
    'test/interop/servers/sdk-auth-server.ts',
    issuer.url,
  ]);
}, 30_000);

afterAll(async () => {
  if (sdk) await stopChild(sdk.child);
  await issuer?.stop();
});

function text(result: { content?: unknown }): string {
  const [first] = result.content as Array<{ type: string; text?: string }>;
  return first?.text ?? '';
}

describe('mcpkit client signs in to an SDK v2 server behind requireBearerAuth', () => {
  const store = new MemoryOAuthStore();
  const provider = new ScriptedSignIn(store);
  const auth = new OAuthClient({ provider });

  it('answers 401 with the SDK challenge before sign-in', async () => {
    const res = await fetch(sdk.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(
      `resource_metadata="${new URL(sdk.url).origin}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('discovers the SDK server, signs in through oidc-provider and calls its tools', async () => {
    const client = await connect({ url: sdk.url, auth });
    try {
      expect(client.era).toBe('modern');
      const who = JSON.parse(text(await client.callTool('whoami'))) as Record<string, unknown>;
      expect(who).toMatchObject({ clientId: issuer.registered[0], sub: USER.login });
      expect(who['scopes']).toContain('mcp');
      expect(text(await client.callTool('add', { a: 2, b: 3 }))).toContain('5');
      const resources = await client.listResources();
      expect(resources.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
    expect(provider.requests).toHaveLength(1);
    const asked = provider.requests[0]!.searchParams;
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('resource')).toBe(sdk.url);
    expect(asked.get('scope')?.split(' ')).toContain('mcp');
    const token = (await store.load(sdk.url))!.tokens!.access_token;
    expect(jwtClaims(token)).toMatchObject({ aud: sdk.url, iss: issuer.url });
  });

  it('uses the same token in the 2025-11-25 era, with no new sign-in', async () => {
    const grants = issuer.grants.length;
    const client = await new McpClient({
      transport: new HttpClientTransport({ url: sdk.url, auth }),
      era: 'legacy',
    }).connect();
    try {
      expect(client.era).toBe('legacy');
      expect(text(await client.callTool('shout', { text: 'hi' }))).toBe('HI');
    } finally {
      await client.close();
    }
    expect(provider.requests).toHaveLength(1);
    expect(issuer.grants).toHaveLength(grants);
  });

  it('stops with AUTH_FAILED when the SDK gate refuses a token for another audience', async () => {
    issuer.audienceFor = () => 'http://127.0.0.1:1/elsewhere';
    const other = new ScriptedSignIn(new MemoryOAuthStore());
    try {
      const error = await connect({
        url: sdk.url,
        auth: new OAuthClient({ provider: other }),
      }).then(
        () => new Error('connected with a token for another audience'),
        (e: unknown) => e,
      );
      expect(isMcpKitError(error) && error.code).toBe('AUTH_FAILED');
      expect(other.requests).toHaveLength(1);
    } finally {
      issuer.audienceFor = (resource) => resource;
    }
  });
});
