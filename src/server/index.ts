export { McpServer, createServer } from './server.js';
export { RequestContext } from './context.js';
export { Peer } from './peer.js';
export type { LegacySession, PeerOptions, HandleExtra, TransportKind } from './peer.js';
export { httpStatusOf } from './dispatch.js';
export type {
  ServerOptions,
  ToolDefinition,
  ToolHandler,
  ToolReturn,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ReadHandler,
  ReadReturn,
  PromptDefinition,
  PromptHandler,
  PromptReturn,
  CompleteHandler,
  CacheHints,
  ListedResource,
  ResourceStat,
  StatHandler,
  ContentOptions,
} from './types.js';
export type { StandardSchemaLike, SchemaInput } from './tool-schema.js';
export type { ListKind } from './registry.js';
export { MemoryLinkStore, artifactUri, artifactKey, ARTIFACT_URI_PREFIX } from './link-store.js';
export type {
  LinkStore,
  StoredArtifact,
  ArtifactLookup,
  MemoryLinkStoreOptions,
} from './link-store.js';
