/**
 * `mcpkit/auth/client`: signing an MCP client in to a protected server (MCP authorization,
 * OAuth 2.1): discovery, client registration, authorization code with PKCE, refresh, step-up,
 * client credentials. Every OAuth request goes through the SSRF guard.
 *
 * @example
 * import { connect } from 'mcpkit/connect';
 * import { OAuthClient } from 'mcpkit/auth/client';
 *
 * const auth = new OAuthClient({ provider: myBrowserProvider });
 * const client = await connect({ url: 'https://example.com/mcp', auth });
 *
 * @module mcpkit/auth/client
 */
export { OAuthClient, type OAuthClientOptions } from './oauth-client.js';
export {
  MemoryOAuthStore,
  type AuthorizationRequest,
  type OAuthProvider,
  type OAuthStore,
} from './provider.js';
export type { ClientAssertionKey } from './client-auth.js';
export { parseBearerChallenge, type BearerChallenge } from './www-authenticate.js';
export {
  authorizationServerMetadataUrls,
  resourceMetadataUrls,
  resourceCovers,
} from './discovery.js';
export type {
  AuthorizationServerMetadata,
  ClientInformation,
  ProtectedResourceMetadata,
  StoredAuth,
  TokenEndpointAuthMethod,
  TokenSet,
} from './types.js';
export type { AuthChallenge, HttpClientAuth } from '../client-hook.js';
export {
  LoopbackRedirectProvider,
  DEFAULT_SIGN_IN_TIMEOUT_MS,
  type LoopbackProviderOptions,
} from './loopback-provider.js';
export { FileOAuthStore, defaultAuthFile } from './file-store.js';
