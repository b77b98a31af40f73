/** What the registries hold per definition: the wire object plus what serving it needs. */
import type { Prompt, Resource, ResourceTemplate, Tool } from '../protocol/types.js';
import type { UriTemplate } from '../uri/index.js';
import type {
  CompleteHandler,
  PromptHandler,
  ReadHandler,
  ResourceTemplateDefinition,
  ToolHandler,
} from './definitions.js';
import type { CacheHints } from './options.js';
import type { CompiledSchema } from './tool-schema.js';

export interface ToolEntry {
  tool: Tool;
  input: CompiledSchema;
  output: CompiledSchema | undefined;
  handler: ToolHandler<never>;
  /** OAuth scopes needed to see and call it. */
  scopes?: readonly string[] | undefined;
}

export interface ResourceEntry {
  resource: Resource;
  cache: CacheHints;
  read: ReadHandler;
  /** OAuth scopes needed to see and read it. */
  scopes?: readonly string[] | undefined;
}

export interface TemplateEntry {
  template: ResourceTemplate;
  parsed: UriTemplate;
  definition: ResourceTemplateDefinition;
  read: ReadHandler;
}

export interface PromptEntry {
  prompt: Prompt;
  complete: Record<string, CompleteHandler>;
  handler: PromptHandler;
  /** The arguments' schema (`input`), checked and parsed before the handler runs. */
  input?: CompiledSchema | undefined;
  /** OAuth scopes needed to see and get it. */
  scopes?: readonly string[] | undefined;
}
