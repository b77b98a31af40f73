/** The shape of a host profile: what one host surfaces to its model, for tool results and prompts. */

/** What the host does with a `resource_link` block: reads it, shows it as a line of text, drops it. */
export type LinkHandling = 'read' | 'text' | 'drop';

/** Which blob MIME types reach the model (image/audio blocks and embedded blobs). */
export type BlobHandling = 'all' | 'image/*' | 'none';

/** The largest result the host keeps; the tighter of the two counts when both are given. */
export interface ResultLimit {
  /** UTF-16 characters of text (JavaScript string length). */
  chars?: number;
  /** Estimated tokens: `ceil(UTF-8 bytes / 4)` (`estimateTokens` of `mcpkit/host`). */
  tokens?: number;
}

/** What the host surfaces on one side (tool results, or prompt messages). */
export interface SurfaceRules {
  resourceLinks: LinkHandling;
  blobs: BlobHandling;
  /** Whether embedded text resources (`{type: "resource", resource: {text}}`) reach the model. */
  embeddedText: boolean;
  /** The largest result the host keeps, or null: no limit known. */
  maxResult: ResultLimit | null;
}

export interface PromptRules extends SurfaceRules {
  /** False: the host accepts only `text` blocks in prompt messages; everything else becomes text. */
  nonText: boolean;
}

/**
 * Which links the bridge reads for the host (consent given by configuration): upstream
 * `resources/read` only, never a local file, never a fetch of its own.
 */
export interface ReadRules {
  /** URI schemes that may be read (without the colon); null: any. */
  schemes: string[] | null;
  /** MIME types that may be read, exact or a family (`text/*`); null: any. */
  mimeTypes: string[] | null;
  /** Glob patterns (`*` any run, `?` one character) a URI must match to be read; null: any. */
  uriPatterns: string[] | null;
  /** Decoded bytes all links of one result may bring together. */
  maxTurnBytes: number;
  /** Estimated tokens all links of one result may bring together; null: only the byte budget. */
  maxTurnTokens: number | null;
}

export interface HostProfile {
  /** Built-in name, or the file's `name`. */
  name: string;
  /** False: the host never reads resources itself, so the bridge adds `read_resource`/`list_resources`. */
  readsResources: boolean;
  /** A line on the host (shown by `--explain-profile`). */
  description?: string;
  /** Public sources of the behaviour described (issue threads, docs). */
  sources?: string[];
  tools?: SurfaceRules;
  prompts?: PromptRules;
  read?: ReadRules;
  /** Resize images to what the host accepts: declared, not supported yet (must be false). */
  resizeImages?: boolean;
  [field: string]: unknown;
}

/** A profile with every field present (what `loadProfile` returns). */
export interface FullProfile extends HostProfile {
  description: string;
  sources: string[];
  tools: SurfaceRules;
  prompts: PromptRules;
  read: ReadRules;
  resizeImages: boolean;
}
