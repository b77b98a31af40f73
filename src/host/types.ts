/** The shapes the host side trades in: what a link is, what became of it, what a block resolved to. */
import type {
  Annotations,
  ContentBlock,
  EmbeddedResource,
  Implementation,
  ReadResourceResult,
  ResourceLink,
} from '../protocol/index.js';

/** The server a link came from, as it named itself. */
export interface ServerRef {
  name: string;
  version?: string;
}

/** What the consent callback and the policy see of a link (all of it server-supplied, untrusted). */
export interface LinkInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** The size the server claims (decoded bytes); a hint, checked again after the read. */
  size?: number;
  /** Hints only: they never bypass consent or a budget. */
  annotations?: Annotations;
  server: ServerRef;
}

export type OutcomeStatus = 'read' | 'refused' | 'skipped' | 'failed';

/** Why a link was refused: by consent, by an allow-list or limit of the policy, by the SSRF guard. */
export type RefusalCode = 'consent' | 'guard' | 'scheme' | 'mime' | 'size';
export type SkipCode = 'budget' | 'not-requested';

/** Resource contents as bytes: text kept as text too, blobs decoded. */
export interface DecodedContents {
  uri: string;
  /** As sent, or inferred (`text/plain` for text, sniffed or `application/octet-stream` for blobs). */
  mimeType: string;
  text?: string;
  bytes: Uint8Array;
  /** Decoded bytes (UTF-8 for text). */
  size: number;
  warnings: string[];
}

/** What became of one link. Every link gets one; nothing is dropped silently. */
export interface LinkOutcome {
  status: OutcomeStatus;
  /** The code (`RefusalCode`, `SkipCode`, or an error code for `failed`). */
  code?: string;
  /** Starts with the code: `consent: …`, `budget: …`, `REQUEST_TIMEOUT: …`. */
  reason?: string;
  /** Who refused (refused only). */
  by?: 'consent' | 'policy' | 'guard';
  /** The contents obtained (read only). */
  contents?: DecodedContents[];
  /**
   * Decoded bytes obtained, when a read happened (read, and refusals after the read); for a read
   * stopped at the per-link limit, the bytes it was allowed on the wire, charged to the budget.
   */
  bytes?: number;
  /**
   * What a read brought before the policy or the budget turned it away (refused or skipped after
   * the read): for an audit trail or a digest, never for the model.
   */
  discarded?: DecodedContents[];
  /** Where the bytes came from (read only). */
  source?: 'server' | 'fetch' | 'cache';
  /** The error (failed only). */
  error?: unknown;
}

/** An embedded resource: a snapshot that crossed with the result, decoded and checked. */
export interface ResolvedEmbedded {
  type: 'resource';
  block: EmbeddedResource;
  /** Absent when the block could not be decoded (`error` says why). */
  contents?: DecodedContents;
  error?: string;
  warnings: string[];
}

export interface ResolvedLink {
  type: 'resource_link';
  block: ResourceLink;
  link: LinkInfo;
  outcome: LinkOutcome;
}

/** Text, image, audio (and any block type the resolver has nothing to do for): passed through. */
export interface ResolvedOther {
  type: Exclude<ContentBlock['type'], 'resource' | 'resource_link'>;
  block: ContentBlock;
}

/** Something in the content array that is not a content block at all (a result taken as received). */
export interface ResolvedInvalid {
  type: 'invalid';
  block: unknown;
  error: string;
}

export type ResolvedBlock = ResolvedEmbedded | ResolvedLink | ResolvedOther | ResolvedInvalid;

/** The result of one `resolve()` (one turn). */
export interface Resolution {
  blocks: ResolvedBlock[];
  /** Decoded bytes obtained by reads in this turn (cache hits included), the budget's measure. */
  bytesRead: number;
  warnings: string[];
}

/** The part of a client the resolver uses (an `McpClient` is one). */
export interface ResolverClient {
  readResource(
    uri: string,
    options?: {
      signal?: AbortSignal;
      timeoutMs?: number;
      cache?: boolean;
      /** The most bytes the answer may take on the wire (`McpClient`'s `RequestOptions`). */
      maxResponseBytes?: number;
    },
  ): Promise<ReadResourceResult>;
  readonly serverInfo?: Implementation | undefined;
  /** When present, resource-updated notifications drop cached reads. */
  addNotificationListener?(
    listener: (notification: { method: string; params?: Record<string, unknown> }) => void,
  ): () => void;
}

/** A host-side fetch of an `http(s)` link: normally the SSRF guard's (`mcpkit/guard`). */
export type UrlFetcher = (
  url: string,
  options: { signal?: AbortSignal; maxBytes: number },
) => Promise<{ bytes: Uint8Array; mimeType?: string; url: string }>;
