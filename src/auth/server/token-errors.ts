/** Why a token was not accepted; the HTTP layer answers each with its status and challenge. */

/** The token is bad (malformed, expired, wrong issuer or audience, bad signature): 401. */
export class TokenRejected extends Error {
  override readonly name = 'TokenRejected';
  /** Why, for logs only: the client gets `invalid_token` and nothing more. */
  readonly reason: string;
  constructor(reason: string) {
    super(`token rejected: ${reason}`);
    this.reason = reason;
  }
}

/** The token could not be checked now (keys or introspection unreachable): 503. */
export class TokenUnverifiable extends Error {
  override readonly name = 'TokenUnverifiable';
}
