/**
 * The interactive part of signing in, which the library cannot do itself: showing the
 * authorization URL to a person (a browser) and receiving the redirect back; and where the
 * client keeps what it obtained.
 */
import type { StoredAuth } from './types.js';

/** One authorization request to complete. */
export interface AuthorizationRequest {
  /** The authorization URL to open (PKCE, state, resource and scope already in it). */
  url: URL;
  /** The redirect URI in it: the answer comes back there. */
  redirectUrl: string;
  /** The `state` in it (the client checks it again on the answer). */
  state: string;
  signal?: AbortSignal;
}

/**
 * The interactive part. `authorize` sends the user to `request.url` and resolves with the full
 * URL the authorization server redirected to (`…/callback?code=…&state=…&iss=…`); the client
 * checks state, `iss` and errors itself.
 */
export interface OAuthProvider {
  /** The redirect URI registered for this client (e.g. `http://127.0.0.1:PORT/callback`). */
  readonly redirectUrl: string;
  authorize(request: AuthorizationRequest): Promise<string | URL>;
  /** Where tokens and registrations are kept (default: in memory, for this client's life). */
  readonly store?: OAuthStore;
}

/** Keeps per-resource sign-in state (keyed by the MCP endpoint URL). Secrets: store with care. */
export interface OAuthStore {
  load(resource: string): Promise<StoredAuth | undefined> | StoredAuth | undefined;
  /** `undefined` forgets the resource. */
  save(resource: string, value: StoredAuth | undefined): Promise<void> | void;
}

/** An OAuthStore in memory. */
export class MemoryOAuthStore implements OAuthStore {
  private readonly entries = new Map<string, StoredAuth>();

  load(resource: string): StoredAuth | undefined {
    return this.entries.get(resource);
  }

  save(resource: string, value: StoredAuth | undefined): void {
    if (value === undefined) this.entries.delete(resource);
    else this.entries.set(resource, value);
  }
}
