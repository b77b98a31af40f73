/**
 * A real authorization server (oidc-provider 8.8, a certified OpenID Provider) on 127.0.0.1
 * issues a JWT access token (client credentials, resource indicator); `mcpkit serve
 * --auth-issuer` finds its keys from its OIDC discovery document and accepts the token.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The little of oidc-provider used here (it ships no types). */
type ProviderClass = new (
  issuer: string,
  configuration: Record<string, unknown>,
) => { listen(port: number, host: string): Server };
// Through a variable: the package has no declarations, and this keeps the test's own.
const OIDC_PROVIDER = 'oidc-provider';
import { modern, modernHeaders } from '../../src/testing/messages.js';
import { serveWithIssuer, type HttpServe } from './serve-harness.js';

let http: Server;
let issuer = '';
let served: HttpServe;

async function clientCredentialsToken(resource: string, scope: string): Promise<string> {
  const res = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('machine:machine-secret').toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }).toString(),
  });
  const json = (await res.json()) as { access_token?: string; error?: string };
  if (!json.access_token) throw new Error(`no token: ${JSON.stringify(json)}`);
  return json.access_token;
}

function listTools(token?: string): Promise<Response> {
  return fetch(served.url, {
    method: 'POST',
    headers: {
      ...modernHeaders('tools/list'),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(modern('tools/list')),
  });
}

beforeAll(async () => {
  // The port first: the issuer names it.
  const { createServer } = await import('node:http');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  issuer = `http://127.0.0.1:${port}`;
  const { default: Provider } = (await import(OIDC_PROVIDER)) as { default: ProviderClass };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'machine',
        client_secret: 'machine-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: 'mcp other',
      },
    ],
    scopes: ['mcp', 'other'],
    cookies: { keys: ['mcpkit-test-cookie-key'] },
    ttl: { ClientCredentials: 600 },
    features: {
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: 'mcp other',
          audience: resource,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  http = provider.listen(port, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  served = await serveWithIssuer(issuer, '--auth-scopes', 'mcp');
}, 30_000);

afterAll(async () => {
  await served?.stop();
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
});

describe('serve --auth-issuer with oidc-provider', () => {
  it('accepts its JWT access token for this resource', async () => {
    const token = await clientCredentialsToken(served.url, 'mcp');
    expect(token.split('.')).toHaveLength(3);
    const res = await listTools(token);
    expect(res.status).toBe(200);
    const json = (await res.json()) as { result?: { tools?: unknown[] } };
    expect(json.result?.tools?.length).toBeGreaterThan(0);
  });

  it('refuses its token for another resource, and one without the scope', async () => {
    const other = await clientCredentialsToken('http://127.0.0.1:1/mcp', 'mcp');
    const res = await listTools(other);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const narrow = await clientCredentialsToken(served.url, 'other');
    const forbidden = await listTools(narrow);
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  it('names the provider in its Protected Resource Metadata', async () => {
    const res = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', served.url));
    const prm = (await res.json()) as Record<string, unknown>;
    expect(prm).toMatchObject({ resource: served.url, authorization_servers: [issuer] });
  });
});
