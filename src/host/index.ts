/**
 * `mcpkit/host`: what an application around a client needs, I/O-free. The link resolver (consent,
 * allow-lists, budgets, a URI-keyed cache) and context assembly. The SSRF guard that fetches
 * `http(s)` links is Node-side: `mcpkit/guard`.
 *
 * @example
 * const { blocks } = await resolve(result.content, client, {
 *   consent: async (link) => askUser(`Read ${link.name} (${link.size ?? '?'} bytes)?`),
 *   mimeTypes: ['text/*', 'application/json'],
 *   budgetBytes: 256 * 1024,
 * });
 *
 * @module mcpkit/host
 */
export { Resolver, resolve } from './resolver.js';
export type { ResolverOptions } from './resolver.js';
export {
  DEFAULT_BUDGET_BYTES,
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_LINK_BYTES,
  mimeAllowed,
} from './policy.js';
export type { ConsentAnswer, ResolvePolicy } from './policy.js';
export { LinkCache } from './link-cache.js';
export type { LinkCacheOptions, CachedRead } from './link-cache.js';
export type {
  DecodedContents,
  LinkInfo,
  LinkOutcome,
  OutcomeStatus,
  RefusalCode,
  Resolution,
  ResolvedBlock,
  ResolvedEmbedded,
  ResolvedInvalid,
  ResolvedLink,
  ResolvedOther,
  ResolverClient,
  ServerRef,
  SkipCode,
  UrlFetcher,
} from './types.js';
export { assembleContext, contextBytes } from './context-assembly.js';
export type {
  AssembleContextOptions,
  AssembledContext,
  ContextEntry,
  ContextItem,
  LeftOut,
  LeftOutReason,
} from './context-assembly.js';
export { estimateTokens, BYTES_PER_TOKEN } from './token-estimate.js';
