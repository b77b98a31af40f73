import type {
  Implementation,
  Prompt,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '../protocol/types.js';
import type { AnswerBudget } from './answer-budget.js';
import type { ArtifactBytes } from './artifact-read.js';
import type { EncodedReads } from './encoded-reads.js';
import type { PromptEntry, ResourceEntry, TemplateEntry, ToolEntry } from './entries.js';
import type { LinkStore } from './link-store.js';
import type { ListenHub } from './listen-hub.js';
import type { ServerOptions } from './options.js';
import type { RegistryView } from './registry.js';
import type { RequestStateSigner } from './request-state.js';
import type { TemplateMatches } from './template-matches.js';

/**
 * What the engine (dispatch, methods, reads, result assembly) needs of a server. `McpServer`
 * builds one and keeps it private; the engine never sees the class, so no engine file depends
 * on the author API.
 */
export interface ServerCore {
  readonly info: Implementation;
  readonly options: ServerOptions;
  readonly tools: RegistryView<ToolEntry, Tool>;
  readonly resources: RegistryView<ResourceEntry, Resource>;
  readonly templates: RegistryView<TemplateEntry, ResourceTemplate>;
  /** Which templates each URI matched, remembered while the template list stays the same. */
  readonly templateMatches: TemplateMatches;
  readonly prompts: RegistryView<PromptEntry, Prompt>;
  readonly listen: ListenHub;
  readonly signer: RequestStateSigner;
  readonly linkStore: LinkStore;
  /** The bytes of artifacts being read in parts, kept while the stored object lives. */
  readonly artifactBytes: ArtifactBytes;
  /** This server's answers of versioned reads, encoded once (`maxEncodedReadBytes`). */
  readonly encodedReads: EncodedReads;
  /** Bytes of answers being produced or waiting to be written (`maxResponseTotalBytes`). */
  readonly answers: AnswerBudget;
  /** `_meta` of a result that brings none: `serverInfo`, one frozen object shared by all. */
  readonly resultMeta: Readonly<Record<string, unknown>>;
  capabilities(): ServerCapabilities;
  /**
   * Whether any tool, prompt, resource or template was registered with scopes (a flag set at
   * registration, never cleared): without one, requests do no scope work at all.
   */
  hasScopedEntries(): boolean;
}
