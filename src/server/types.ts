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
import type { LinkStore } from './link-store.js';
import type { DecisionRecord } from '../content/assemble.js';
import type { Policy } from '../content/policy.js';

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
  { contents: ResourceContents[] } | ResourceContents[] | PartialContents | string;

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
) =>
  | string[]
  | { values: string[]; total?: number; hasMore?: boolean }
  | Promise<string[] | { values: string[]; total?: number; hasMore?: boolean }>;

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

/** What `stat` knows about a resource without reading it. */
export interface ResourceStat {
  /** Raw size in bytes. */
  size: number;
  mimeType?: string;
}

/**
 * Sizes a resource without reading it (variables decoded and checked, as for `read`); undefined
 * when nothing is there. Lets `ctx.attach(uri)` and `ctx.link(uri)` link a large resource unread.
 */
export type StatHandler = (
  uri: string,
  variables: Record<string, string | string[]>,
) => ResourceStat | undefined | Promise<ResourceStat | undefined>;

export interface ResourceTemplateDefinition extends ResourceDefinition {
  /** Lists the concrete resources this template currently matches, for `resources/list`. */
  list?: () => ListedResource[] | Promise<ListedResource[]>;
  /** Completion per template variable. */
  complete?: Record<string, CompleteHandler>;
  /** Sizes a matching resource without reading it (templates only). */
  stat?: StatHandler;
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
  /** Where ephemeral artifacts are kept for links (default: in memory, 1 hour). */
  linkStore?: LinkStore;
  /** The embed-vs-link policy and the link guarantee. */
  content?: ContentOptions;
  /** Called with warnings such as unresolved links under linkCheck 'warn' (default: console.warn). */
  onWarning?: (message: string) => void;
  /** Called with errors thrown by handlers (default: console.error with the method). */
  onError?: (error: unknown, method: string) => void;
}

export type ServerInfo = Implementation;

/** How results embed or link resources, and how strictly links are checked. */
export interface ContentOptions {
  /** Soft cap for one embedded block on the wire (default 1 MiB). */
  blockBudgetBytes?: number;
  /** Soft cap for all blocks of one result on the wire (default 4 MiB). */
  resultBudgetBytes?: number;
  /** Hard cap for one result; default: the transport's message cap less 1 KiB of envelope. */
  capBytes?: number;
  /** Whether clients follow links with resources/read (default true). */
  clientCanReadResources?: boolean;
  /** Replaces the default embed-vs-link policy. */
  policy?: Policy;
  /** What to do when a result links to a URI nothing serves (default 'error'). */
  linkCheck?: 'error' | 'warn' | 'off';
  /** Adds each decision to the result's `_meta["dev.mcpkit/decisions"]` (default false). */
  explain?: boolean;
  /** Sees every embed-or-link decision with its reason (default: none). */
  onDecision?: (record: DecisionRecord, method: string) => void;
  /** Lifetime of artifacts put in the link store by results (default: the store's). */
  artifactTtlMs?: number;
}
