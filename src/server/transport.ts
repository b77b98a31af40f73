/**
 * `mcpkit/server/transport`: what a transport needs of a server, and nothing an author does.
 * A transport calls `server.connect(options)` once per connection, hands every decoded message
 * to `peer.handle(message, extra)`, writes the response it resolves with (if any), and calls
 * `peer.close()` when the connection ends. A transport with headers checks them before
 * `peer.handle`, once `checkModernMeta` passes: the engine never calls back into it.
 *
 * @example
 * const peer = server.connect({ transport: 'memory', send: (m) => out.push(m) });
 * const response = await peer.handle(JSON.parse(line));
 *
 * @module mcpkit/server/transport
 */
export { Peer } from './peer.js';
export { DEFAULT_MAX_LISTEN_QUEUE_BYTES } from './options.js';
export { checkModernMeta } from './modern-envelope.js';
export type { HandleExtra, LegacySession, PeerOptions, TransportKind } from './peer.js';
export type { ChannelFlow } from './channel-flow.js';
export { STREAM_WINDOW_BYTES } from './answer-budget.js';
export type { AnswerBudget, AnswerLease } from './answer-budget.js';
export { callerKey, isAuthInfo, missingScopes, type AuthInfo } from './auth-info.js';
export { onTokenExpiry } from './token-expiry.js';
