/**
 * `mcpkit/server`: what a server author uses. Transports use `mcpkit/server/transport`.
 *
 * @module mcpkit/server
 */
export { McpServer, createServer } from './server.js';
export type { Registered } from './server.js';
export { RequestContext } from './context.js';
export type { AuthInfo } from './auth-info.js';
export { DEFAULT_MAX_RESPONSE_TOTAL_BYTES, STREAM_WINDOW_BYTES } from './answer-budget.js';
export type { AnswerBudget, AnswerLease } from './answer-budget.js';
export { InputRequiredSignal, isInputRequired } from './input-required.js';
export { ENVELOPE_RESERVE_BYTES } from './options.js';
export type { ServerOptions, ContentOptions, CacheHints } from './options.js';
export type {
  ToolDefinition,
  ToolHandler,
  ToolReturn,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ReadHandler,
  ReadReturn,
  PartialContents,
  PromptDefinition,
  PromptHandler,
  PromptReturn,
  CompleteHandler,
  ListedResource,
  ResourceStat,
  StatHandler,
} from './definitions.js';
export type { StandardSchemaLike, SchemaInput } from './tool-schema.js';
export type {
  JsonValue,
  PromptArgs,
  SchemaValue,
  StandardOutput,
  TemplateVariables,
  ToolArgs,
  ToolStructured,
} from './inferred-types.js';
export type { ListKind } from './registry.js';
export { MemoryLinkStore, ARTIFACT_URI_PREFIX } from './link-store.js';
export { MemoryBus } from './change-bus.js';
export { versionedRead } from './versioned-read.js';
export type { VersionedRead } from './versioned-read.js';
export type { ChangeBus, ChangeEvent } from './change-bus.js';
export type { AttachHook } from './attach-tracker.js';
export type {
  LinkStore,
  StoredArtifact,
  ArtifactLookup,
  MemoryLinkStoreOptions,
} from './link-store.js';
