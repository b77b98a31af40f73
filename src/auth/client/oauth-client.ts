/**
 * `OAuthClient`: signs an MCP client in to a protected server, as MCP authorization specifies.
 * Give it to the HTTP transport (`auth` option); on a 401 it discovers the authorization server
 * (PRM, then RFC 8414 / OIDC metadata), obtains a client id (pre-registered, CIMD or DCR),
 * runs the authorization code flow with PKCE through the `OAuthProvider` (or the client
 * credentials grant), and sends the request again with the token. A 403 `insufficient_scope`
 * asks for the union of the scopes held and challenged, once per scope set.
 */
import { McpKitError } from '../../errors/index.js';
import type { AuthChallenge, HttpClientAuth } from '../client-hook.js';
import { guardOptionsFor, isLoopbackHost, type AuthHttpPolicy } from './auth-http.js';
import { authorizationCodeFlow } from './authorization-code.js';
import { discoverAuthorizationServer, discoverResource, type Http } from './discovery.js';
import { MemoryOAuthStore, type OAuthProvider, type OAuthStore } from './provider.js';
import { obtainClient } from './registration.js';
import { selectScope, unionScopes, coversScopes } from './scopes.js';
import { grantRefused, requestToken, tokenErrorCode } from './token-request.js';
import type { AuthorizationServerMetadata, ClientInformation, StoredAuth } from './types.js';
import { parseBearerChallenge, type BearerChallenge } from './www-authenticate.js';
import { firstIssuer, isMetadataDocumentUrl, resourceKey } from './client-urls.js';
import type { OAuthClientOptions } from './oauth-client-options.js';
import { OneFlow } from './one-flow.js';

export type { OAuthClientOptions } from './oauth-client-options.js';

/** Seconds before expiry at which a token counts as expired (clock skew, time in flight). */
const EXPIRY_MARGIN_MS = 30_000;
/** A 401 for a token obtained this recently is the server refusing what its AS issues. */
const FRESH_TOKEN_MS = 60_000;

export class OAuthClient implements HttpClientAuth {
  private readonly store: OAuthStore;
  /**
   * What is held per protected resource (keyed by its URL without fragment; null: loaded,
   * nothing held): one server's token is never sent to another.
   */
  private readonly states = new Map<string, StoredAuth | null>();
  /** One sign-in or refresh at a time, its end shared with the requests that wait on it. */
  private readonly flow = new OneFlow();
  /** Scope sets already asked for after a 403: the same challenge again means give up. */
  private readonly stepUps = new Set<string>();
  /** The header of the token a grant just obtained, per resource: when, and how often handed out. */
  private readonly obtained = new Map<string, { header: string; at: number; uses: number }>();
  /** Per resource: the server refused a fresh token; every request fails with this at once. */
  private readonly refused = new Map<string, McpKitError>();

  constructor(private readonly options: OAuthClientOptions = {}) {
    this.store = options.store ?? options.provider?.store ?? new MemoryOAuthStore();
    if ((options.grant ?? 'authorization_code') === 'authorization_code' && !options.provider) {
      throw new TypeError('OAuthClient: the authorization_code grant needs a provider');
    }
    if (options.grant === 'client_credentials' && options.clientId === undefined) {
      throw new TypeError('OAuthClient: the client_credentials grant needs clientId');
    }
    if (
      options.clientMetadataUrl !== undefined &&
      !isMetadataDocumentUrl(options.clientMetadataUrl)
    ) {
      throw new TypeError(
        `OAuthClient: clientMetadataUrl must be an https URL with a path, got ${JSON.stringify(options.clientMetadataUrl)}`,
      );
    }
  }

  async authorization(url: URL, signal?: AbortSignal): Promise<string | undefined> {
    const refused = this.refused.get(resourceKey(url));
    if (refused) throw refused;
    await this.flow.settled();
    const tokens = (await this.current(url))?.tokens;
    let current = tokens;
    if (tokens?.expires_at !== undefined && tokens.expires_at - EXPIRY_MARGIN_MS < Date.now()) {
      if (tokens.refresh_token !== undefined) {
        // Concurrent requests refresh once: a refresh token is often single-use, and a second
        // refresh with it would fail and send the user through sign-in again.
        while (this.flow.busy && this.held(url)?.tokens === tokens) await this.flow.share(signal);
        if (this.held(url)?.tokens === tokens)
          await this.flow.run(() => this.refreshOrAuthorize(url, undefined, signal), signal);
        current = this.held(url)?.tokens;
      }
    }
    if (current === undefined) return undefined;
    const header = `Bearer ${current.access_token}`;
    const got = this.obtained.get(resourceKey(url));
    if (got?.header === header) got.uses++;
    return header;
  }

  async challenge(challenge: AuthChallenge): Promise<boolean> {
    const bearer = parseBearerChallenge(challenge.wwwAuthenticate) ?? {};
    if (challenge.status === 403 && bearer.error !== 'insufficient_scope') return false;
    // Another request already got a newer token: send this one again with it.
    const now = this.headerNow(challenge.url);
    if (challenge.status === 401 && now !== undefined && now !== challenge.sent) return true;
    if (challenge.status === 401) this.refuseIfFresh(challenge.url, challenge.sent, bearer);
    const { signal } = challenge;
    // Several may wait on one flow and share how it ends: a new token, or its failure.
    while (this.flow.busy) {
      const failed = await this.flow.share(signal).then(
        () => undefined,
        (error: unknown) => error,
      );
      const after = this.headerNow(challenge.url);
      if (after !== challenge.sent) return after !== undefined;
      if (failed !== undefined) throw failed;
    }
    await this.flow.run(
      () =>
        challenge.status === 403
          ? this.stepUp(challenge.url, bearer, signal)
          : this.refreshOrAuthorize(challenge.url, bearer, signal),
      signal,
    );
    return this.headerNow(challenge.url) !== undefined;
  }

  /**
   * A token just obtained and refused on its first use (an audience or issuer the server does
   * not take): signing in again would only loop, so the resource fails with AUTH_FAILED from
   * now on. A token that was used before and is then refused (revoked, the AS changed) signs in
   * again as usual.
   */
  private refuseIfFresh(url: URL, sent: string | undefined, bearer: BearerChallenge): void {
    const key = resourceKey(url);
    const got = this.obtained.get(key);
    if (got === undefined || got.header !== sent || got.uses > 1) return;
    if (Date.now() - got.at > FRESH_TOKEN_MS) return;
    const why = bearer.error === undefined ? '' : ` (${bearer.error.slice(0, 50)})`;
    const error = new McpKitError(
      'AUTH_FAILED',
      `${url.href} refused the token just obtained from its authorization server${why}: the server does not accept what its authorization server issues (audience or issuer), so signing in again would not help`,
    );
    this.refused.set(key, error);
    throw error;
  }

  /**
   * Signs in now, before any request (a CLI does it so the browser step is not bounded by a
   * request timeout): unless a token is kept for `url`, finds the PRM at its well-known URLs
   * and runs the flow. Resolves false when the server publishes no PRM there (a 401 then
   * signs in as usual).
   */
  async signIn(url: string | URL): Promise<boolean> {
    const target = new URL(url);
    const refused = this.refused.get(resourceKey(target));
    if (refused) throw refused;
    if ((await this.current(target))?.tokens !== undefined) return true;
    try {
      await discoverResource(this.http(target), target);
    } catch (error) {
      if (error instanceof McpKitError && error.code === 'AUTH_FAILED') return false;
      throw error;
    }
    await this.flow.run(() => this.refreshOrAuthorize(target, undefined));
    return true;
  }

  /** Forgets the tokens and registration kept for `url`. */
  async signOut(url: string | URL): Promise<void> {
    const target = new URL(url);
    this.states.set(resourceKey(target), null);
    this.refused.delete(resourceKey(target));
    this.obtained.delete(resourceKey(target));
    // A step-up given up on was for the tokens forgotten here: signed in again, it may be asked.
    const ours = JSON.stringify([resourceKey(target), '']).slice(0, -3);
    for (const asked of this.stepUps) if (asked.startsWith(ours)) this.stepUps.delete(asked);
    await this.store.save(resourceKey(target), undefined);
  }

  private held(url: URL): StoredAuth | undefined {
    return this.states.get(resourceKey(url)) ?? undefined;
  }

  private headerNow(url: URL): string | undefined {
    const tokens = this.held(url)?.tokens;
    return tokens === undefined ? undefined : `Bearer ${tokens.access_token}`;
  }

  private async current(url: URL): Promise<StoredAuth | undefined> {
    const key = resourceKey(url);
    if (!this.states.has(key)) this.states.set(key, (await this.store.load(key)) ?? null);
    return this.states.get(key) ?? undefined;
  }

  private async keep(url: URL, state: StoredAuth): Promise<void> {
    const key = resourceKey(url);
    this.states.set(key, state);
    await this.store.save(key, state);
  }

  private http(url: URL): Http {
    const policy: AuthHttpPolicy = {
      allowLoopback: this.options.allowLoopback ?? isLoopbackHost(url.hostname),
      ...(this.options.allow === undefined ? {} : { allow: this.options.allow }),
      ...(this.options.lookup === undefined ? {} : { lookup: this.options.lookup }),
      ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
    };
    return { policy, guard: guardOptionsFor(policy) };
  }

  /** 401: a refresh when the AS is unchanged and a refresh token is held, else a new sign-in. */
  private async refreshOrAuthorize(
    url: URL,
    bearer: BearerChallenge | undefined,
    signal?: AbortSignal,
  ): Promise<void> {
    const http = this.http(url);
    const prm = await discoverResource(http, url, bearer?.resourceMetadata);
    const issuer = firstIssuer(prm.authorization_servers, url);
    const metadata = await discoverAuthorizationServer(http, issuer);
    let state = await this.current(url);
    // A changed authorization server: nothing obtained from the old one is used with the new.
    if (state !== undefined && state.issuer !== issuer) state = undefined;
    const refresh = state?.tokens?.refresh_token;
    if (state?.client !== undefined && refresh !== undefined) {
      try {
        const tokens = await requestToken({
          http,
          metadata,
          client: state.client,
          key: this.options.privateKey,
          params: { grant_type: 'refresh_token', refresh_token: refresh, resource: prm.resource },
        });
        if (tokens.refresh_token === undefined) tokens.refresh_token = refresh;
        if (tokens.scope === undefined && state.tokens?.scope !== undefined)
          tokens.scope = state.tokens.scope;
        await this.keep(url, { ...state, tokens });
        return;
      } catch (error) {
        // An expired or revoked refresh token: sign in again. A token endpoint that is down or
        // busy is no reason to: the refresh token is kept for when it is back.
        if (!grantRefused(error)) throw error;
      }
    }
    const prior = state?.tokens?.scope;
    const scope =
      this.options.scope ?? selectScope(bearer?.scope, prm.scopes_supported, metadata, prior);
    await this.runGrant(url, http, prm.resource, issuer, metadata, state, scope, signal);
  }

  /** 403 insufficient_scope: the union of what is held and what is asked, once per set. */
  private async stepUp(url: URL, bearer: BearerChallenge, signal?: AbortSignal): Promise<void> {
    const held = this.held(url)?.tokens?.scope;
    const wanted = unionScopes(held, bearer.scope);
    const asked = wanted === undefined ? undefined : JSON.stringify([resourceKey(url), wanted]);
    if (asked === undefined || coversScopes(held, bearer.scope) || this.stepUps.has(asked)) {
      throw new McpKitError(
        'AUTH_FAILED',
        `${url.href} answered 403 insufficient_scope${bearer.scope === undefined ? '' : ` (scope "${bearer.scope}")`} again after authorization: giving up`,
      );
    }
    this.stepUps.add(asked);
    let state = await this.current(url);
    try {
      const http = this.http(url);
      const prm = await discoverResource(http, url, bearer.resourceMetadata);
      const issuer = firstIssuer(prm.authorization_servers, url);
      const metadata = await discoverAuthorizationServer(http, issuer);
      if (state !== undefined && state.issuer !== issuer) state = undefined;
      const scope = selectScope(wanted, undefined, metadata, undefined);
      await this.runGrant(url, http, prm.resource, issuer, metadata, state, scope, signal);
    } catch (error) {
      // Never authorized: a later 403 may ask again (it is not the server refusing a grant).
      this.stepUps.delete(asked);
      // A step-up the user declined (or that failed) leaves the token held working for what
      // it allows: the flow dropped it, and every later request would sign in again.
      const after = this.held(url);
      if (state?.tokens !== undefined && after?.tokens === undefined)
        await this.keep(url, { ...(after ?? state), tokens: state.tokens });
      throw error;
    }
  }

  private async runGrant(
    url: URL,
    http: Http,
    resource: string,
    issuer: string,
    metadata: AuthorizationServerMetadata,
    state: StoredAuth | undefined,
    scope: string | undefined,
    signal?: AbortSignal,
  ): Promise<void> {
    const kept = this.reusable(state?.client);
    const client = kept ?? (await this.register(http, metadata, scope));
    const grant = (chosen: ClientInformation) =>
      this.grant(url, http, { resource, issuer, metadata, client: chosen, scope, signal });
    try {
      await grant(client);
    } catch (error) {
      // A registration the server no longer knows: register again, once.
      if (
        kept === undefined ||
        !this.registeredHere(kept) ||
        tokenErrorCode(error) !== 'invalid_client'
      ) {
        throw error;
      }
      await grant(await this.register(http, metadata, scope));
    }
  }

  /** True for a client id this client got by DCR (not pre-registered, not a CIMD URL). */
  private registeredHere(client: ClientInformation): boolean {
    return (
      this.options.clientId === undefined && client.client_id !== this.options.clientMetadataUrl
    );
  }

  /** A kept registration still good for these options, or undefined. */
  private reusable(client: ClientInformation | undefined): ClientInformation | undefined {
    if (client === undefined) return undefined;
    const { clientId, provider } = this.options;
    if (clientId !== undefined) return client.client_id === clientId ? client : undefined;
    const expiry = client.client_secret_expires_at ?? 0;
    if (expiry > 0 && expiry * 1000 < Date.now()) return undefined;
    // A DCR client is bound to its redirect URIs (a loopback listener's port changes per run).
    const uris = client.redirect_uris;
    if (provider !== undefined && uris !== undefined && !uris.includes(provider.redirectUrl)) {
      return undefined;
    }
    return client;
  }

  private register(
    http: Http,
    metadata: AuthorizationServerMetadata,
    scope: string | undefined,
  ): Promise<ClientInformation> {
    const options = this.options;
    return obtainClient(http, metadata, {
      ...(options.clientId === undefined ? {} : { clientId: options.clientId }),
      ...(options.clientSecret === undefined ? {} : { clientSecret: options.clientSecret }),
      ...(options.clientMetadataUrl === undefined
        ? {}
        : { clientMetadataUrl: options.clientMetadataUrl }),
      ...(options.privateKey === undefined ? {} : { key: options.privateKey }),
      clientName: options.clientName ?? 'mcpkit',
      ...(options.provider === undefined ? {} : { redirectUrl: options.provider.redirectUrl }),
      grantTypes:
        options.grant === 'client_credentials'
          ? ['client_credentials']
          : ['authorization_code', 'refresh_token'],
      ...(scope === undefined ? {} : { scope }),
    });
  }

  private async grant(url: URL, http: Http, how: GrantPlan): Promise<void> {
    const { resource, issuer, metadata, client, scope, signal } = how;
    const options = this.options;
    // Kept before the flow: a failed flow does not register again next time.
    await this.keep(url, { issuer, client });
    const tokens =
      options.grant === 'client_credentials'
        ? await requestToken({
            http,
            metadata,
            client,
            key: options.privateKey,
            params: { grant_type: 'client_credentials', scope, resource },
          })
        : await authorizationCodeFlow({
            http,
            provider: options.provider as OAuthProvider,
            metadata,
            client,
            key: options.privateKey,
            resource,
            scope,
            ...(signal === undefined ? {} : { signal }),
          });
    await this.keep(url, { issuer, client, tokens });
    const header = `Bearer ${tokens.access_token}`;
    this.obtained.set(resourceKey(url), { header, at: Date.now(), uses: 0 });
  }
}

/** What one grant runs with. */
interface GrantPlan {
  resource: string;
  issuer: string;
  metadata: AuthorizationServerMetadata;
  client: ClientInformation;
  scope: string | undefined;
  signal: AbortSignal | undefined;
}
