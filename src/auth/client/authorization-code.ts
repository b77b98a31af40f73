/**
 * The authorization code grant with PKCE (OAuth 2.1 §4.1, RFC 7636) and resource indicators
 * (RFC 8707): the authorization URL, the checks on the answer the provider brings back (state,
 * error, RFC 9207 `iss`), then the code exchanged for tokens.
 */
import { McpKitError } from '../../errors/index.js';
import { requireSecure } from './auth-http.js';
import type { ClientAssertionKey } from './client-auth.js';
import type { Http } from './discovery.js';
import { createPkce, createState } from './pkce.js';
import type { OAuthProvider } from './provider.js';
import { requestToken } from './token-request.js';
import type { AuthorizationServerMetadata, ClientInformation, TokenSet } from './types.js';

export interface CodeFlow {
  http: Http;
  provider: OAuthProvider;
  metadata: AuthorizationServerMetadata;
  client: ClientInformation;
  key: ClientAssertionKey | undefined;
  resource: string;
  scope: string | undefined;
  signal?: AbortSignal;
}

function fail(message: string): McpKitError {
  return new McpKitError('AUTH_FAILED', message);
}

/** Refuses a server that does not say it supports PKCE with S256 (MCP authorization). */
function requirePkce(metadata: AuthorizationServerMetadata): void {
  const methods = metadata.code_challenge_methods_supported;
  if (!Array.isArray(methods) || !methods.includes('S256')) {
    throw fail(
      `authorization server ${metadata.issuer} does not list S256 in code_challenge_methods_supported: refusing to sign in without PKCE`,
    );
  }
}

/**
 * RFC 9207: a present `iss` must be the issuer, compared as strings; an absent one is refused
 * when the server said it sends it.
 */
export function checkIssuer(params: URLSearchParams, metadata: AuthorizationServerMetadata): void {
  const iss = params.get('iss');
  if (iss === null) {
    if (metadata.authorization_response_iss_parameter_supported === true) {
      throw fail(
        `the authorization response has no iss, which ${metadata.issuer} said it sends (RFC 9207): refused`,
      );
    }
    return;
  }
  if (iss !== metadata.issuer) {
    throw fail(
      `the authorization response came from issuer ${JSON.stringify(iss.slice(0, 200))}, not "${metadata.issuer}" (RFC 9207): refused`,
    );
  }
}

/**
 * The authorization endpoint as a URL the user may be sent to: https (plain http only to
 * loopback when loopback is allowed), nothing else (it is shown, and opened in a browser).
 */
export function authorizationUrl(endpoint: unknown, http: Http): URL {
  let url: URL;
  try {
    url = new URL(String(endpoint));
  } catch {
    throw fail('the authorization server metadata has an authorization_endpoint that is not a URL');
  }
  try {
    requireSecure(url, http.policy);
  } catch {
    throw fail(
      `authorization_endpoint ${JSON.stringify(url.protocol)} URL refused: it must use https (plain http only to loopback when the MCP server is on loopback)`,
    );
  }
  return url;
}

/** Runs the flow through the provider; resolves with the tokens. */
export async function authorizationCodeFlow(flow: CodeFlow): Promise<TokenSet> {
  const { metadata, client, provider } = flow;
  const endpoint = metadata.authorization_endpoint;
  if (endpoint === undefined)
    throw fail(`authorization server ${metadata.issuer} has no authorization_endpoint`);
  requirePkce(metadata);
  const pkce = createPkce();
  const state = createState();
  const redirectUrl = provider.redirectUrl;
  const url = authorizationUrl(endpoint, flow.http);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', redirectUrl);
  url.searchParams.set('code_challenge', pkce.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  url.searchParams.set('resource', flow.resource);
  if (flow.scope !== undefined) url.searchParams.set('scope', flow.scope);
  // OpenID providers drop offline_access (so issue no refresh token) unless consent is
  // prompted for (OIDC Core §11); OAuth-only servers ignore the parameter.
  if (flow.scope?.split(' ').includes('offline_access')) url.searchParams.set('prompt', 'consent');
  const answered = await provider.authorize({
    url,
    redirectUrl,
    state,
    ...(flow.signal === undefined ? {} : { signal: flow.signal }),
  });
  const params = new URL(String(answered), redirectUrl).searchParams;
  if (params.get('state') !== state)
    throw fail('the authorization response has the wrong state: refused');
  checkIssuer(params, metadata);
  const error = params.get('error');
  if (error !== null) {
    const description = params.get('error_description');
    throw fail(
      `the authorization server refused: ${error.slice(0, 100)}${description === null ? '' : `: ${description.slice(0, 300)}`}`,
    );
  }
  const code = params.get('code');
  if (code === null || code === '') throw fail('the authorization response has no code');
  return requestToken({
    http: flow.http,
    metadata,
    client,
    key: flow.key,
    params: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUrl,
      code_verifier: pkce.verifier,
      resource: flow.resource,
    },
  });
}
