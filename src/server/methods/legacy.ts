import {
  errorResponse,
  resultResponse,
  type JSONRPCRequest,
  type JSONRPCResponse,
} from '../../protocol/jsonrpc.js';
import type { ClientCapabilities, Implementation } from '../../protocol/types.js';
import { validateParams } from '../../protocol/validate.js';
import { LATEST_LEGACY_VERSION, eraOf } from '../../protocol/versions.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import type { ServerCore } from '../core.js';
import { SessionSubscriptions } from '../listen-legacy.js';
import { levelRank } from '../../protocol/log-levels.js';
import type { LegacySession, Peer } from '../peer.js';
import type { AuthInfo } from '../auth-info.js';
import { missingScopes } from '../auth-info.js';
import { readScopes, requireScopes } from './scopes.js';
import type { Params } from './types.js';

/** What a legacy method may look at besides its session: the core and the verified caller. */
export interface LegacyEnv {
  core: ServerCore;
  auth: AuthInfo | undefined;
}

/** A 2025-11-25 method with no 2026-07-28 counterpart: it only touches the session. */
export type LegacyMethod = (
  params: Params,
  session: LegacySession,
  env: LegacyEnv,
) => Record<string, unknown>;

export const LEGACY_METHODS: Record<string, LegacyMethod> = {
  ping: () => ({}),
  'logging/setLevel': (params, session) => {
    const level = params['level'] as string;
    if (levelRank(level) < 0)
      throw ProtocolError.invalidParams(`logging/setLevel: unknown level ${JSON.stringify(level)}`);
    session.logLevel = level;
    return {};
  },
  // A session's subscriptions attach their URIs and are bounded (listen-legacy.ts): add throws
  // the -32602 of one URI past maxListenUris.
  'resources/subscribe': (params, session, { core, auth }) => {
    const uri = params['uri'] as string;
    // Updates of a resource tell what a read would: held to the read's scopes.
    requireScopes(`resource ${uri}`, readScopes(core, uri), auth);
    session.subscriptions.add(uri);
    // And so are the updates of the sub-resources it covers (change-delivery.ts).
    session.mayRead = auth && ((u) => missingScopes(readScopes(core, u), auth).length === 0);
    return {};
  },
  'resources/unsubscribe': (params, session) => {
    session.subscriptions.delete(params['uri'] as string);
    return {};
  },
};

/** The legacy handshake: negotiates a 2025-era version and opens the session. */
export function initialize(core: ServerCore, peer: Peer, request: JSONRPCRequest): JSONRPCResponse {
  const params = request.params ?? {};
  const issue = validateParams('legacy', 'initialize', params);
  if (issue) {
    const error = ProtocolError.invalidParams(`initialize: ${issue.message}`, {
      field: issue.field,
    });
    return errorResponse(request.id, error.code, error.message, error.data);
  }
  const requested = params['protocolVersion'] as string;
  // Answer with the requested version when we speak it in this era, else our newest legacy one.
  const protocolVersion = eraOf(requested) === 'legacy' ? requested : LATEST_LEGACY_VERSION;
  // A repeated initialize replaces the session: what the old one subscribed to is released.
  if (peer.session) peer.session.subscriptions.clear();
  // The first session of this peer: whichever session it holds is released when it closes.
  else peer.onClose(() => peer.session?.subscriptions.clear());
  peer.session = {
    protocolVersion,
    clientCapabilities: params['capabilities'] as ClientCapabilities,
    clientInfo: params['clientInfo'] as Implementation,
    logLevel: undefined,
    subscriptions: new SessionSubscriptions(
      core.listen.attachments,
      core.listen.limits.maxListenUris,
    ),
    initialized: false,
  };
  const result: Record<string, unknown> = {
    protocolVersion,
    capabilities: core.capabilities(),
    serverInfo: core.info,
  };
  if (core.options.instructions !== undefined) result['instructions'] = core.options.instructions;
  return resultResponse(request.id, result);
}
