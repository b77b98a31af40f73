/** The options of `OAuthClient`. */
import type { GuardLookup } from '../../guard/options.js';
import type { ClientAssertionKey } from './client-auth.js';
import type { OAuthProvider, OAuthStore } from './provider.js';

export interface OAuthClientOptions {
  /** The interactive part (browser, redirect listener). Needed for `authorization_code`. */
  provider?: OAuthProvider;
  /** `authorization_code` (default) or `client_credentials` (a machine client, no user). */
  grant?: 'authorization_code' | 'client_credentials';
  /** A pre-registered client id; with `clientSecret` or `privateKey` for a confidential client. */
  clientId?: string;
  clientSecret?: string;
  /** The key for `private_key_jwt` client authentication. */
  privateKey?: ClientAssertionKey;
  /**
   * The https URL of this client's Client ID Metadata Document: used as the client id where the
   * server supports CIMD. Without it, servers that do not know the client get DCR.
   */
  clientMetadataUrl?: string;
  /** `client_name` at registration (default `mcpkit`). */
  clientName?: string;
  /** The scope to ask for, instead of the challenge's or the PRM's `scopes_supported`. */
  scope?: string;
  /** Where tokens are kept (default: the provider's store, else memory). */
  store?: OAuthStore;
  /**
   * Allow loopback authorization servers and plain http to them (default: only when the MCP
   * server itself is on loopback, for development).
   */
  allowLoopback?: boolean;
  /** SSRF guard allow-list entries for authorization servers on private networks. */
  allow?: readonly string[];
  /** Name resolution for the guard (tests). */
  lookup?: GuardLookup;
  /** Time allowed for one OAuth exchange (default 10 s). */
  timeoutMs?: number;
}
