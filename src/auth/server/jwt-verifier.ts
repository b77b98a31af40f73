/** JWT access tokens (RFC 9068) verified with jose against the issuer's keys. */
import { errors, jwtVerify, type JWTPayload } from 'jose';
import type { AuthInfo } from '../../server/transport.js';
import { KeySet, KeySetUnavailable } from './key-set.js';
import { TokenRejected, TokenUnverifiable } from './token-errors.js';

/** Asymmetric signatures only: never `none`, never HS* (a public key must not become a secret). */
export const JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

/**
 * The most clock skew tolerated on `exp`, `nbf` and `iat` (60 s). The engine's
 * TOKEN_CLOCK_SKEW_S (server/token-expiry.ts) is the same: a listen stream opened with a token
 * past `exp` ends when this much has passed.
 */
export const MAX_CLOCK_SKEW_S = 60;

/** How long a request waits for keys being fetched before it is answered 503 (3 s). */
export const KEY_WAIT_MS = 3_000;

function scopesOf(payload: JWTPayload): string[] {
  const scope = payload['scope'] ?? payload['scp'];
  if (typeof scope === 'string') return scope.split(' ').filter((s) => s !== '');
  if (Array.isArray(scope)) return scope.filter((s): s is string => typeof s === 'string');
  return [];
}

/** The AuthInfo a verified payload stands for. */
export function authInfoOfClaims(payload: Record<string, unknown>): AuthInfo {
  const clientId = payload['client_id'] ?? payload['azp'];
  return {
    ...(typeof payload['sub'] === 'string' ? { subject: payload['sub'] } : {}),
    ...(typeof clientId === 'string' ? { clientId } : {}),
    ...(typeof payload['iss'] === 'string' ? { issuer: payload['iss'] } : {}),
    scopes: scopesOf(payload),
    ...(typeof payload['exp'] === 'number' ? { expiresAt: payload['exp'] } : {}),
    claims: payload,
  };
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new KeySetUnavailable('the signing keys are still being fetched')),
      ms,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export class JwtVerifier {
  constructor(
    private readonly keys: KeySet,
    private readonly issuer: string,
    private readonly audience: () => string,
    private readonly clockSkewS: number = MAX_CLOCK_SKEW_S,
  ) {}

  /** The token's AuthInfo; throws TokenRejected (401) or TokenUnverifiable (503). */
  async verify(token: string): Promise<AuthInfo> {
    try {
      const { payload } = await withDeadline(
        jwtVerify(token, this.keys.resolve, {
          issuer: this.issuer,
          audience: this.audience(),
          algorithms: [...JWT_ALGORITHMS],
          clockTolerance: this.clockSkewS,
          // RFC 9068 §2.2: `sub` is required; without it callers could not be told apart.
          requiredClaims: ['exp', 'sub'],
        }),
        KEY_WAIT_MS,
      );
      return authInfoOfClaims(payload as Record<string, unknown>);
    } catch (error) {
      if (error instanceof KeySetUnavailable) throw new TokenUnverifiable(error.message);
      if (error instanceof errors.JOSEError) throw new TokenRejected(error.code);
      throw error;
    }
  }
}
