/**
 * The seam through which an authorization scheme (OAuth from `mcpkit/auth/client`, or your own)
 * signs the transport's requests and answers a server's 401/403 challenges.
 */

/** A 401 or 403 answer, offered to the auth hook before it fails the request. */
export interface AuthChallenge {
  status: 401 | 403;
  /** The endpoint URL the request went to. */
  url: URL;
  /** The `WWW-Authenticate` header, if any. */
  wwwAuthenticate: string | null;
  /** The Authorization header the request carried (to tell a stale token from the current one). */
  sent: string | undefined;
  signal?: AbortSignal;
}

export interface HttpClientAuth {
  /** The `Authorization` header value for the next request to `url`, or undefined for none. */
  authorization(url: URL, signal?: AbortSignal): Promise<string | undefined>;
  /**
   * Called on a 401 or 403: resolves true when the request should be sent again (a new token
   * is ready), false to fail it with the status; rejects to fail it with that error.
   */
  challenge(challenge: AuthChallenge): Promise<boolean>;
}

/** How many times one request is sent again after a challenge, at most. */
export const MAX_AUTH_RETRIES = 3;
