/**
 * How the client gets a client_id at an authorization server, in the order MCP gives:
 * pre-registered credentials, a Client ID Metadata Document URL (when one is configured and the
 * server supports them), then Dynamic Client Registration (RFC 7591).
 */
import { McpKitError } from '../../errors/index.js';
import { authRequest, jsonObject } from './auth-http.js';
import type { ClientAssertionKey } from './client-auth.js';
import type { Http } from './discovery.js';
import type { AuthorizationServerMetadata, ClientInformation } from './types.js';

export interface RegistrationOptions {
  /** Pre-registered client id (and secret), used as given. */
  clientId?: string;
  clientSecret?: string;
  /** The https URL of this client's metadata document (CIMD), used as its client_id. */
  clientMetadataUrl?: string;
  key?: ClientAssertionKey;
  /** Shown to the user by the authorization server (DCR `client_name`). */
  clientName: string;
  redirectUrl?: string;
  /** The grants asked for at registration. */
  grantTypes: string[];
  scope?: string;
}

/** The client identity to use with `metadata`'s server, registering when needed. */
export async function obtainClient(
  http: Http,
  metadata: AuthorizationServerMetadata,
  options: RegistrationOptions,
): Promise<ClientInformation> {
  if (options.clientId !== undefined) {
    return {
      client_id: options.clientId,
      ...(options.clientSecret === undefined ? {} : { client_secret: options.clientSecret }),
    };
  }
  if (
    options.clientMetadataUrl !== undefined &&
    metadata.client_id_metadata_document_supported === true
  ) {
    return {
      client_id: options.clientMetadataUrl,
      token_endpoint_auth_method: options.key ? 'private_key_jwt' : 'none',
    };
  }
  if (metadata.registration_endpoint === undefined) {
    throw new McpKitError(
      'AUTH_FAILED',
      `authorization server ${metadata.issuer} offers no dynamic client registration` +
        (options.clientMetadataUrl === undefined
          ? ' and no client metadata URL is configured'
          : ' nor client ID metadata documents') +
        ': pass a pre-registered clientId',
    );
  }
  return register(http, metadata, metadata.registration_endpoint, options);
}

function wantedAuthMethod(metadata: AuthorizationServerMetadata): string {
  const supported = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  // A native app keeps no secret well: public client when the server allows it.
  if (supported.includes('none')) return 'none';
  if (supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return supported[0] ?? 'client_secret_basic';
}

async function register(
  http: Http,
  metadata: AuthorizationServerMetadata,
  endpoint: string,
  options: RegistrationOptions,
): Promise<ClientInformation> {
  const method = wantedAuthMethod(metadata);
  const request: Record<string, unknown> = {
    client_name: options.clientName,
    grant_types: options.grantTypes,
    response_types: options.grantTypes.includes('authorization_code') ? ['code'] : [],
    token_endpoint_auth_method: method,
    application_type: 'native',
  };
  if (options.redirectUrl !== undefined) request['redirect_uris'] = [options.redirectUrl];
  if (options.scope !== undefined) request['scope'] = options.scope;
  const answer = await authRequest(http.policy, http.guard, {
    method: 'POST',
    url: endpoint,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  if (answer.status < 200 || answer.status > 299) {
    throw new McpKitError(
      'AUTH_FAILED',
      `client registration at ${endpoint} answered ${answer.status}`,
    );
  }
  const body = jsonObject(answer, 'client registration response');
  if (typeof body['client_id'] !== 'string' || body['client_id'] === '') {
    throw new McpKitError(
      'AUTH_FAILED',
      `client registration at ${endpoint} returned no client_id`,
    );
  }
  const client: ClientInformation = { client_id: body['client_id'] };
  if (typeof body['client_secret'] === 'string') client.client_secret = body['client_secret'];
  const registered = body['token_endpoint_auth_method'];
  // RFC 7591 §3.2.1: a method not echoed is the one asked for.
  client.token_endpoint_auth_method = typeof registered === 'string' ? registered : method;
  if (options.redirectUrl !== undefined) client.redirect_uris = [options.redirectUrl];
  if (typeof body['client_secret_expires_at'] === 'number') {
    client.client_secret_expires_at = body['client_secret_expires_at'];
  }
  return client;
}
