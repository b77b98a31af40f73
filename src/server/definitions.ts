/** What a server author registers: definitions and the handlers behind them. */
import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  Icon,
  MetaObject,
  PromptArgument,
  Resource,
  ResourceContents,
  ToolAnnotations,
} from '../protocol/types.js';
import type { RequestContext } from './context.js';
import type { CacheHints } from './options.js';
import type { SchemaInput } from './tool-schema.js';
import type { VersionedRead } from './versioned-read.js';

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
  /**
   * OAuth scopes a caller needs to see and call it (with an authorization layer, mcpkit/auth):
   * a caller without them gets 403 `insufficient_scope` naming them over HTTP, and does not see
   * the tool in `tools/list`. Listed in the Protected Resource Metadata `scopes_supported`.
   */
  scopes?: readonly string[];
}

/**
 * What a tool handler may return: a full result, content blocks, or plain text. `O` is the
 * type of `structuredContent` (from the tool's `output` schema).
 */
export type ToolReturn<O = unknown> =
  | (Omit<CallToolResult, 'structuredContent'> & { structuredContent?: O })
  // An error result (toolError()) is not held to the output schema.
  | (CallToolResult & { isError: true })
  | ContentBlock[]
  | string;

/** A tool's handler: `A` its arguments and `O` its structuredContent, read off its schemas. */
export type ToolHandler<A = Record<string, unknown>, O = unknown> = (
  args: A,
  ctx: RequestContext,
) => ToolReturn<O> | Promise<ToolReturn<O>>;

/** A resource's listing fields (the wire `Resource` without its URI) and its cache hints. */
export interface ResourceDefinition extends Omit<Resource, 'uri'>, CacheHints {
  /** Raw size in bytes (static resources only). */
  size?: number;
  /**
   * OAuth scopes a caller needs to see and read it (with an authorization layer): see
   * `ToolDefinition.scopes`. On a template, every URI it serves needs them.
   */
  scopes?: readonly string[];
}

/** What a read handler may return. `uri` may be left out: the requested URI is used. */
export type ReadReturn =
  { contents: ResourceContents[] } | ResourceContents[] | PartialContents | string;

export type PartialContents =
  | { uri?: string; text: string; mimeType?: string; _meta?: MetaObject }
  | { uri?: string; blob: string; mimeType?: string; _meta?: MetaObject };

/**
 * A read handler; `V` its template's variables, read off the template string. Undefined: nothing
 * is served there. A {@link VersionedRead} (`versionedRead(answer, version)`) also says which
 * version of the content it served, so that its answer is encoded once per version.
 */
export type ReadHandler<V = Record<string, string | string[]>> = (
  uri: string,
  variables: V,
  ctx: RequestContext,
) =>
  | ReadReturn
  | VersionedRead<ReadReturn>
  | undefined
  | Promise<ReadReturn | VersionedRead<ReadReturn> | undefined>;

export type CompleteHandler = (
  value: string,
  context: { arguments: Record<string, string> },
) =>
  | string[]
  | { values: string[]; total?: number; hasMore?: boolean }
  | Promise<string[] | { values: string[]; total?: number; hasMore?: boolean }>;

/** One entry of `resources/list`: the wire `Resource`, as a template's `list` returns it. */
export type ListedResource = Resource;

/** What `stat` knows about a resource without reading it. */
export interface ResourceStat {
  /** Raw size in bytes. */
  size: number;
  mimeType?: string;
  /**
   * URI of the first part of a resource too large to be read whole over this connection (see
   * the `capBytes` a stat is given); links to it then point there, and their description says so.
   * The URI must resolve (an advertised template).
   */
  firstPart?: string;
}

/**
 * Sizes a resource without reading it (variables decoded and checked, as for `read`); undefined
 * when nothing is there. Lets `ctx.attach(uri)` and `ctx.link(uri)` link a large resource unread.
 * `context.capBytes`, when given, is the cap of the request the link is for (`ctx.capBytes`).
 */
export type StatHandler = (
  uri: string,
  variables: Record<string, string | string[]>,
  context?: { readonly capBytes: number },
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
  /** The arguments as a list (each a string, `required` or not); or give `input` instead. */
  arguments?: PromptArgument[];
  /**
   * The arguments as an object schema (Standard Schema or JSON Schema): validated and parsed on
   * every call, typed for the handler, advertised as the `arguments` list (names, descriptions,
   * required). The wire carries strings: a number or boolean must be parsed by the schema
   * (`z.coerce.number()`, `z.stringbool()`).
   */
  input?: SchemaInput;
  icons?: Icon[];
  _meta?: MetaObject;
  /** Completion per argument. */
  complete?: Record<string, CompleteHandler>;
  /** OAuth scopes a caller needs to see and get it (see `ToolDefinition.scopes`). */
  scopes?: readonly string[];
}

export type PromptReturn = GetPromptResult | string;

/** A prompt's handler; `A` its arguments, read off its `arguments` list. */
export type PromptHandler<A = Record<string, string>> = (
  args: A,
  ctx: RequestContext,
) => PromptReturn | Promise<PromptReturn>;
