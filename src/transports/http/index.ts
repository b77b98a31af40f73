/** @module mcpkit/http */
export { createHttpHandler } from './web-handler.js';
export type { WebHandler } from './web-handler.js';
export { HttpEndpoint } from './endpoint.js';
export { DEFAULT_HTTP_MAX_RESPONSE_BYTES, DEFAULT_MAX_BODY_BYTES } from './options.js';
export type { HttpOptions } from './options.js';
export type { HttpExchange, HttpResponder, SseSink } from './exchange.js';
export { checkOrigin, createOriginGuard, LOOPBACK_HOSTS } from './origin-guard.js';
export type { OriginGuard, OriginGuardOptions } from './origin-guard.js';
export { decodeHeaderValue } from '../../protocol/header-values.js';
export { HttpClientTransport } from './client-transport.js';
export {
  DEFAULT_CLIENT_MAX_RECONNECTS,
  DEFAULT_CLIENT_MAX_RESPONSE_BYTES,
} from './client-options.js';
export type { HttpClientOptions, HttpRequesterChoice } from './client-options.js';
export type { HttpStatusError } from './client-failures.js';
