/** Wire types of 2026-07-28 (and the 2025-11-25 shapes a dual-era server speaks). */
export type Role = 'user' | 'assistant';
export type LoggingLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
export type CacheScope = 'public' | 'private';
export type ResultType = 'complete' | 'input_required';
export type MetaObject = Record<string, unknown>;

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: MetaObject;
}

export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: MetaObject;
}

export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: MetaObject;
}

export interface Resource {
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

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: MetaObject;
}

export interface ResourceLink extends Resource {
  type: 'resource_link';
}

export interface TextResourceContents {
  uri: string;
  text: string;
  mimeType?: string;
  _meta?: MetaObject;
}

export interface BlobResourceContents {
  uri: string;
  blob: string;
  mimeType?: string;
  _meta?: MetaObject;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: MetaObject;
}

export type ContentBlock =
  TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: MetaObject;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: MetaObject;
}

export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

export interface ServerCapabilities {
  experimental?: Record<string, object>;
  logging?: object;
  completions?: object;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  extensions?: Record<string, object>;
}

export interface ClientCapabilities {
  experimental?: Record<string, object>;
  roots?: { listChanged?: boolean };
  sampling?: { context?: object; tools?: object };
  elicitation?: { form?: object; url?: object };
  extensions?: Record<string, object>;
  [key: string]: unknown;
}

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: MetaObject;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: MetaObject;
}

export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: MetaObject;
}

export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** A request embedded in an InputRequiredResult (no `id`, no `jsonrpc`). */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params?: Record<string, unknown>;
}

export type InputRequests = Record<string, InputRequest>;
export type InputResponses = Record<string, Record<string, unknown>>;

export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: InputRequests;
  requestState?: string;
  _meta?: MetaObject;
}
