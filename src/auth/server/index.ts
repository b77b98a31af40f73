export { ResourceServer } from './resource-server.js';
export type { AuthOutcome, AuthRefusal, AuthRequest } from './resource-server.js';
export type { ResourceServerOptions } from './options.js';
export type { IntrospectionOptions } from './introspection.js';
export { bearerChallenge, type BearerError } from './challenge.js';
export { JWT_ALGORITHMS, MAX_CLOCK_SKEW_S } from './jwt-verifier.js';
export { KID_REFRESH_MS } from './key-set.js';
export { MAX_DOCUMENT_BYTES, DOCUMENT_TIMEOUT_MS } from './remote-json.js';
