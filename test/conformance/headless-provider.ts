/**
 * The OAuthProvider of the conformance client: the suite's authorization servers approve at
 * once, so "the browser" is one GET of the authorization URL whose redirect (to the client's
 * redirect URI, carrying code, state and iss) is read instead of followed.
 */
import type { AuthorizationRequest, OAuthProvider } from '../../src/auth/client/index.js';

export class HeadlessProvider implements OAuthProvider {
  constructor(readonly redirectUrl: string) {}

  async authorize(request: AuthorizationRequest): Promise<string> {
    const response = await fetch(request.url, { redirect: 'manual' });
    const location = response.headers.get('location');
    await response.body?.cancel();
    if (location === null) {
      throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
    }
    return new URL(location, request.url).href;
  }
}
