import type {
  Annotations,
  CacheScope,
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  Icon,
  Implementation,
  MetaObject,
  PromptArgument,
  ResourceContents,
  ToolAnnotations,
} from '../protocol/types.js';
import type { RequestContext } from './context.js';
import type { SchemaInput } from './tool-schema.js';

/** Cache hints for cacheable results (SEP-2549). */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: CacheScope;
}

export interface ToolDefinition {
  title?: string;
  description?: string;
  /** JSON Schema (2020-12) or a Standard Schema object such as zod or valibot. */
  input?: SchemaInput;
  /** Output schema; with it, `structuredContent` is checked before it is sent. */
  output?: SchemaInput;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: MetaObject;
}

/** What a tool handler may return: a full result, content blocks, or plain text. */
export type ToolReturn = CallToolResult | ContentBlock[] | string;

export type ToolHandler<A = Record<string, unknown>> = (
  args: A,
  ctx: RequestContext,
) => ToolReturn | Promise<ToolReturn>;

export interface ResourceDefinition extends CacheHints {
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  /** Raw size in bytes (static resources only). */
  size?: number;
  icons?: Icon[];
  _meta?: MetaObject;
}

/** What a read handler may return. `uri` may be left out: the requested URI is used. */
export type ReadReturn =
  | { contents: ResourceContents[] }
  | ResourceContents[]
  | PartialContents
  | string;

export type PartialContents =
  | { uri?: string; text: string; mimeType?: string; _meta?: MetaObject }
  | { uri?: string; blob: string; mimeType?: string; _meta?: MetaObject };

export type ReadHandler = (
  uri: string,
  variables: Record<string, string | string[]>,
  ctx: RequestContext,
) => ReadReturn | undefined | Promise<ReadReturn | undefined>;

export type CompleteHandler = (
  value: string,
  context: { arguments: Record<string, string> },
) => string[] | { values: string[]; total?: number; hasMore?: boolean } | Promise<string[] | { values: string[]; total?: number; hasMore?: boolean }>;

export interface ListedResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  size?: number;
  icons?: Icon[];
  _meta?: MetaObject;
}

export interface ResourceTemplateDefinition extends ResourceDefinition {
  /** Lists the concrete resources this template currently matches, for `resources/list`. */
  list?: () => ListedResource[] | Promise<ListedResource[]>;
  /** Completion per template variable. */
  complete?: Record<string, CompleteHandler>;
}

export interface PromptDefinition {
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: MetaObject;
  /** Completion per argument. */
  complete?: Record<string, CompleteHandler>;
}

export type PromptReturn = GetPromptResult | string;

export type PromptHandler = (
  args: Record<string, string>,
  ctx: RequestContext,
) => PromptReturn | Promise<PromptReturn>;

export interface ServerOptions {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
  instructions?: string;
  /** Page size of the four list methods (default 100). */
  pageSize?: number;
  /** Cache hints for discover and the list methods (default ttlMs 0, cacheScope 'public'). */
  cache?: CacheHints;
  /** Default cache hints of `resources/read` (default ttlMs 0, cacheScope 'private'). */
  readCache?: CacheHints;
  /** HMAC secret for `requestState`; set it when several instances serve one client. Default: random per process. */
  requestStateSecret?: string | Uint8Array;
  /** Lifetime of an MRTR `requestState` (default 10 minutes). */
  requestStateTtlMs?: number;
  /** Extra capabilities to advertise (merged with what the registries imply). */
  capabilities?: Record<string, unknown>;
  /** Called with errors thrown by handlers (default: console.error with the method). */
  onError?: (error: unknown, method: string) => void;
}

export type ServerInfo = Implementation;
