/**
 * A real authorization server (oidc-provider 8.8, a certified OpenID Provider) on 127.0.0.1
 * issues a JWT access token (client credentials, resource indicator); `mcpkit serve
 * --auth-issuer` finds its keys from its OIDC discovery document and accepts the token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modern, modernHeaders } from '../../src/testing/messages.js';
import { startIssuer, type TestIssuer } from './auth-issuer.js';
import { serveWithIssuer, type HttpServe } from './serve-harness.js';

let issuer: TestIssuer;
let served: HttpServe;

function clientCredentialsToken(resource: string, scope: string): Promise<string> {
  return issuer.clientCredentialsToken(resource, scope);
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
  issuer = await startIssuer();
  served = await serveWithIssuer(issuer.url, '--auth-scopes', 'mcp');
}, 30_000);

afterAll(async () => {
  await served?.stop();
  await issuer?.stop();
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
    expect(prm).toMatchObject({ resource: served.url, authorization_servers: [issuer.url] });
  });
});
