/**
 * Streamable HTTP for servers: a handler for node:http, web `Request`/`Response` runtimes and
 * frameworks, and the Origin/Host guard. The client side is `mcpkit/http/client`.
 * @module mcpkit/http
 */
export { createHttpHandler } from './web-handler.js';
export type { WebHandler } from './web-handler.js';
export { HttpEndpoint } from './endpoint.js';
export { DEFAULT_HTTP_MAX_RESPONSE_BYTES, DEFAULT_MAX_BODY_BYTES } from './options.js';
export type { HttpOptions } from './options.js';
export type { HttpExchange, HttpResponder, SseSink } from './exchange.js';
export { checkOrigin, createOriginGuard, LOOPBACK_HOSTS } from './origin-guard.js';
export type { OriginGuard, OriginGuardOptions } from './origin-guard.js';
export { decodeHeaderValue } from '../../../protocol/header-values.js';
