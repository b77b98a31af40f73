/**
 * Token endpoint requests (authorization_code, refresh_token, client_credentials) and what their
 * answers mean. Token values never appear in an error message.
 */
import { McpKitError } from '../../errors/index.js';
import { authRequest, jsonObject } from './auth-http.js';
import { authenticate, chooseAuthMethod, type ClientAssertionKey } from './client-auth.js';
import type { Http } from './discovery.js';
import type { AuthorizationServerMetadata, ClientInformation, TokenSet } from './types.js';

export interface TokenCall {
  http: Http;
  metadata: AuthorizationServerMetadata;
  client: ClientInformation;
  key: ClientAssertionKey | undefined;
  /** The grant's own parameters (grant_type, code, …), `resource` included. */
  params: Record<string, string | undefined>;
}

/** The printable part of an OAuth error answer (RFC 6749 §5.2). */
function oauthError(text: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const code = typeof body['error'] === 'string' ? body['error'].slice(0, 100) : undefined;
    const description =
      typeof body['error_description'] === 'string'
        ? body['error_description'].slice(0, 300)
        : undefined;
    if (code !== undefined) return description === undefined ? code : `${code}: ${description}`;
  } catch {
    // not JSON: no detail
  }
  return 'no OAuth error in the answer';
}

/** The OAuth `error` code of a failed token request (`invalid_client`, …), if any. */
export function tokenErrorCode(error: unknown): string | undefined {
  if (!(error instanceof McpKitError)) return undefined;
  const cause = error.cause as { oauthError?: unknown } | undefined;
  return typeof cause?.oauthError === 'string' ? cause.oauthError : undefined;
}

/**
 * True when the token endpoint refused the grant (RFC 6749 §5.2: 400, or 401 for the client):
 * not for a failure that may pass (network, time, 429, 5xx), after which the grant still holds.
 */
export function grantRefused(error: unknown): boolean {
  if (!(error instanceof McpKitError)) return false;
  const status = (error.cause as { status?: unknown } | undefined)?.status;
  return status === 400 || status === 401;
}

/** Posts a token request; resolves with the tokens or rejects with AUTH_FAILED. */
export async function requestToken(call: TokenCall): Promise<TokenSet> {
  const endpoint = call.metadata.token_endpoint;
  if (endpoint === undefined) {
    throw new McpKitError(
      'AUTH_FAILED',
      `authorization server ${call.metadata.issuer} has no token_endpoint`,
    );
  }
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(call.params))
    if (value !== undefined) form.set(name, value);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const method = chooseAuthMethod(call.client, call.metadata, call.key);
  await authenticate(method, call.client, call.metadata, call.key, form, headers);
  const grant = call.params['grant_type'] ?? '';
  const answer = await authRequest(call.http.policy, call.http.guard, {
    method: 'POST',
    url: endpoint,
    headers,
    body: form.toString(),
  });
  if (answer.status < 200 || answer.status > 299) {
    const why = oauthError(answer.text);
    throw new McpKitError(
      'AUTH_FAILED',
      `token request (${grant}) to ${endpoint} answered ${answer.status}: ${why}`,
      { cause: { oauthError: why.split(':', 1)[0], status: answer.status } },
    );
  }
  const body = jsonObject(answer, 'token response');
  const access = body['access_token'];
  const type = body['token_type'];
  if (typeof access !== 'string' || access === '') {
    throw new McpKitError('AUTH_FAILED', `token response from ${endpoint} has no access_token`);
  }
  if (typeof type !== 'string' || type.toLowerCase() !== 'bearer') {
    throw new McpKitError(
      'AUTH_FAILED',
      `token response from ${endpoint}: token_type ${JSON.stringify(String(type).slice(0, 40))} is not supported (Bearer only)`,
    );
  }
  const tokens: TokenSet = { access_token: access, token_type: 'Bearer' };
  if (typeof body['refresh_token'] === 'string') tokens.refresh_token = body['refresh_token'];
  const expiresIn = body['expires_in'];
  if (typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0) {
    tokens.expires_at = Date.now() + expiresIn * 1000;
  }
  const scope = typeof body['scope'] === 'string' ? body['scope'] : call.params['scope'];
  if (scope !== undefined) tokens.scope = scope;
  return tokens;
}
