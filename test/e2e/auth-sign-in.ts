/**
 * `OAuthProvider`s for the sign-in tests: the person at the browser (follows the authorization
 * URL, logs in and consents on the test issuer's pages, hands the redirect back), and one for
 * runs that must not sign in again.
 */
import type {
  AuthorizationRequest,
  OAuthProvider,
  OAuthStore,
} from '../../src/auth/client/index.js';
import { userAgent, USER } from './auth-issuer.js';

/** Never listened on: the user agent stops at the redirect and hands it back. */
export const REDIRECT_URL = 'http://127.0.0.1/callback';

export class ScriptedSignIn implements OAuthProvider {
  readonly redirectUrl = REDIRECT_URL;
  readonly requests: URL[] = [];
  constructor(
    readonly store: OAuthStore,
    private readonly user = USER,
  ) {}

  authorize(request: AuthorizationRequest): Promise<string> {
    this.requests.push(request.url);
    return userAgent(request.url, this.redirectUrl, this.user);
  }
}

export class NoSignIn implements OAuthProvider {
  readonly redirectUrl = REDIRECT_URL;
  constructor(readonly store: OAuthStore) {}
  authorize(): Promise<string> {
    return Promise.reject(new Error('asked to sign in again'));
  }
}
