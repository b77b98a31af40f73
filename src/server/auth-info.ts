/**
 * Who a request comes from, as an authorization layer verified it (mcpkit/auth on HTTP): what
 * handlers see as `ctx.auth`, what scopes are checked against, and what per-caller state is
 * bound to.
 */
export interface AuthInfo {
  /** The token's subject (`sub`): the user, or the client itself for a machine client. */
  subject?: string;
  /** The OAuth client the token was issued to (`client_id`, else `azp`). */
  clientId?: string;
  /** The issuer that vouched for it (`iss`). */
  issuer?: string;
  /** Scopes granted (`scope`, space-separated, or `scp`). */
  scopes: readonly string[];
  /** When the token expires, in seconds since the epoch (`exp`). */
  expiresAt?: number;
  /**
   * A SHA-256 of the token (base64url), set by the authorization layer only when the token names
   * neither subject nor client: then it is what tells this caller from others.
   */
  tokenKey?: string;
  /** Every claim of the token (JWT payload, or introspection answer). The token itself is not kept. */
  claims: Readonly<Record<string, unknown>>;
}

/** Whether `value` has the shape of an AuthInfo (what an auth layer hands the engine). */
export function isAuthInfo(value: unknown): value is AuthInfo {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    Array.isArray(v['scopes']) &&
    typeof v['claims'] === 'object' &&
    v['claims'] !== null &&
    (v['subject'] === undefined || typeof v['subject'] === 'string')
  );
}

/**
 * The caller's identity for binding per-caller state (requestState, private answers): issuer,
 * subject and client. Two tokens of the same caller share it (a refreshed token keeps working);
 * two callers never do. With neither subject nor client, the token itself (its hash) is the
 * caller, else every claim: such callers never collapse into one shared key.
 */
export function callerKey(auth: AuthInfo): string {
  if (auth.subject === undefined && auth.clientId === undefined)
    return auth.tokenKey !== undefined
      ? JSON.stringify(['token', auth.tokenKey])
      : JSON.stringify(['claims', auth.issuer ?? null, auth.claims]);
  return JSON.stringify([auth.issuer ?? null, auth.subject ?? null, auth.clientId ?? null]);
}

/**
 * The scopes of `needed` that `auth` lacks. Without auth (stdio, an HTTP endpoint with no
 * authorization layer) nothing is missing: scopes say what a verified caller may do, and such a
 * transport has no caller to verify.
 */
export function missingScopes(
  needed: readonly string[] | undefined,
  auth: AuthInfo | undefined,
): readonly string[] {
  if (needed === undefined || needed.length === 0 || auth === undefined) return [];
  // Both lists are a few scopes: a Set per call (per entry of a filtered list) costs more.
  return needed.filter((s) => !auth.scopes.includes(s));
}
