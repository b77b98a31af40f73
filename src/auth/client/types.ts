/**
 * The OAuth documents the client reads and the state it keeps, as JSON has them (snake_case).
 * Only the fields used are typed; the rest stay as they came.
 */

// The metadata documents are the resource server's too: one definition (../metadata.ts).
export type { AuthorizationServerMetadata, ProtectedResourceMetadata } from '../metadata.js';

export type TokenEndpointAuthMethod =
  'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/** The client's identity at one authorization server. */
export interface ClientInformation {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method?: string;
  /** Seconds since the epoch; 0 or absent: never expires. */
  client_secret_expires_at?: number;
  /** The redirect URIs it was registered with (DCR). */
  redirect_uris?: string[];
}

/** Tokens as the client keeps them. */
export interface TokenSet {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  /** Milliseconds since the epoch when the access token expires (from `expires_in`). */
  expires_at?: number;
  /** The scope granted (or, when the AS did not say, the scope asked for). */
  scope?: string;
}

/**
 * What is kept per protected resource between runs: the authorization server it was signed in
 * with, the client registered there, the tokens. A new issuer drops the rest.
 */
export interface StoredAuth {
  issuer: string;
  client?: ClientInformation;
  tokens?: TokenSet;
}
