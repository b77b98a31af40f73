/**
 * Result assembly for one request: it sees the server only through a `ContentEnv`, which
 * `content-env.ts` binds to a server and a request. No I/O but the opt-in debug log.
 */
import { assembleBlocks, type DecisionRecord } from '../content/assemble.js';
import {
  attach,
  isAttachment,
  type Attachment,
  type AttachmentContent,
  type AttachmentInput,
} from '../content/attachment.js';
import { repairBase64 } from '../content/blob.js';
import { hasContent } from '../content/block-shapes.js';
import { firstPartDescription } from '../content/policy.js';
import { McpKitError } from '../errors/mcpkit-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { isUri } from '../protocol/uri-syntax.js';
import { findBase64Problem } from '../protocol/base64.js';
import { MCPKIT_META_PREFIX } from '../protocol/meta-keys.js';
import type { ContentBlock, ResourceContents } from '../protocol/types.js';
import { debugging, describeDecision } from './debug-log.js';
import type { ContentOptions } from './options.js';

/** What one request's result assembly may ask of the server it runs in. */
export interface ContentEnv {
  readonly options: ContentOptions;
  /** The hard cap for one result on the wire (see `RequestContext.capBytes`). */
  readonly capBytes: number;
  readonly method: string;
  /** Reads a resource as `resources/read` would, for this request. */
  read(uri: string): Promise<Record<string, unknown>>;
  /** Whether a link to `uri` would resolve (the link guarantee). */
  resolves(uri: string): Promise<boolean>;
  describe(uri: string): { name: string; mimeType?: string; size?: number } | undefined;
  /** Whether `uri` is one of this server's artifact URIs (its link store's). */
  ownsArtifact?(uri: string): boolean;
  /** Whether a template matches `uri` but refuses it (a walk out of it, an encoded separator). */
  refuses?(uri: string): boolean;
  /**
   * Sizes a templated resource without reading it (the template's `stat`, told this request's
   * cap), if it can; `firstPart` when it is too large to be read whole here.
   */
  stat(uri: string): Promise<{ size: number; mimeType?: string; firstPart?: string } | undefined>;
  /** Stores an attachment without a URI in the link store (embedded or `linked`) and names it. */
  artifactUri(
    content: { name: string; mimeType: string; text?: string; blob?: string; size: number },
    linked: boolean,
  ): Promise<string>;
}

function lastSegment(uri: string): string {
  const path = uri.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const name = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(name) || uri;
  } catch {
    return name || uri;
  }
}

function toContent(uri: string, contents: ResourceContents): AttachmentContent {
  const mime = contents.mimeType !== undefined ? { mimeType: contents.mimeType } : {};
  if ('text' in contents) return { text: contents.text, ...mime };
  // What we emit is canonical base64: a reader's blob is repaired when it can be, else refused.
  if (findBase64Problem(contents.blob) === undefined) return { blob: contents.blob, ...mime };
  const repaired = repairBase64(contents.blob);
  if (!repaired) {
    const problem = findBase64Problem(contents.blob);
    throw new McpKitError(
      'INVALID_CONTENT',
      `${uri}: the read handler returned a blob that is not base64 (${problem?.reason} at offset ${problem?.offset})`,
    );
  }
  return { blob: repaired.base64, ...mime };
}

/** An attachment for a URI this server serves: read lazily, through the server's own read path. */
export function attachUri(
  env: ContentEnv,
  uri: string,
  extra: Partial<AttachmentInput> = {},
): Attachment {
  // The author's mistake, said as such (not as the client's "resource not found").
  if (!isUri(uri))
    throw new McpKitError(
      'INVALID_URI',
      `attached ${JSON.stringify(uri)}, which is not an absolute URI (RFC 3986): attach a URI ` +
        'this server serves, or the content itself, such as ctx.attach({ uri, text, mimeType })',
    );
  const known = env.describe(uri);
  let loaded: Promise<AttachmentContent> | undefined;
  const load = (): Promise<AttachmentContent> => {
    loaded ??= env.read(uri).then(
      (result) => {
        const first = (result['contents'] as ResourceContents[] | undefined)?.[0];
        if (!first) throw new McpKitError('ATTACHMENT_EMPTY', `${uri} has no contents`);
        return toContent(uri, first);
      },
      async (cause: unknown) => {
        // Only a plain "not found" of a URI nothing serves is the author's: an expired
        // artifact, a template refusing the URI or a store that failed keep their own error.
        if (
          !isNotFound(cause, uri) ||
          env.ownsArtifact?.(uri) === true ||
          env.refuses?.(uri) === true
        )
          throw cause;
        let served: boolean;
        try {
          served = await env.resolves(uri);
        } catch {
          throw cause;
        }
        // A template matches but its handler found nothing: still the author's URI to fix.
        if (served)
          throw new McpKitError(
            'ATTACHMENT_NOT_SERVED',
            `attached ${uri}, which a template matches but whose read handler found nothing ` +
              '(it returned undefined): attach a URI the handler serves, or the content itself, ' +
              'such as ctx.attach({ uri, text, mimeType })',
            { cause },
          );
        throw new McpKitError(
          'ATTACHMENT_NOT_SERVED',
          `attached ${uri}, which no resource, template or link-store entry serves: register ` +
            'it (server.resource), or attach the content itself, such as ctx.attach({ uri, text, mimeType })',
          { cause },
        );
      },
    );
    return loaded;
  };
  return attach({
    uri,
    name: known?.name ?? lastSegment(uri),
    ...(known?.mimeType !== undefined ? { mimeType: known.mimeType } : {}),
    ...(known?.size !== undefined ? { size: known.size } : { stat: () => env.stat(uri) }),
    load,
    ...extra,
  });
}

/** Assembles blocks and attachments for one result, checking every link it emits. */
export async function assembleForResult(
  env: ContentEnv,
  items: ReadonlyArray<ContentBlock | Attachment>,
  itemOverheadBytes = 0,
): Promise<{ content: ContentBlock[]; meta?: Record<string, unknown> }> {
  checkBlobs(items);
  const o = env.options;
  const decisions: DecisionRecord[] = [];
  const sized = await withStatSizes(env, items);
  const { blocks } = await assembleBlocks(sized.items, {
    capBytes: env.capBytes,
    blockBudgetBytes: o.blockBudgetBytes,
    resultBudgetBytes: o.resultBudgetBytes,
    clientCanReadResources: o.clientCanReadResources,
    policy: o.policy,
    artifactUri: env.artifactUri,
    itemOverheadBytes,
    onDecision: (record) => {
      decisions.push(record);
      if (o.onDecision) o.onDecision(record, env.method);
      else if (debugging('policy')) console.error(describeDecision(env.method, record));
    },
  });
  for (const [index, part] of sized.parts) {
    const block = blocks[index];
    if (block?.type === 'resource_link' && block.uri === part.uri && part.size !== undefined)
      blocks[index] = { ...block, size: part.size };
  }
  if (!o.explain) return { content: blocks };
  const explained = decisions.map((d) => ({
    uri: d.uri,
    name: d.name,
    kind: d.decision.kind,
    reason: d.decision.reason,
    detail: d.decision.detail,
  }));
  return { content: blocks, meta: { [`${MCPKIT_META_PREFIX}decisions`]: explained } };
}

/**
 * The author's blobs are checked as a read handler's are: invalid base64 never reaches the wire
 * (McpKitError `INVALID_BASE64`, which the tool or prompt reports as the author's mistake).
 */
function checkBlobs(items: ReadonlyArray<ContentBlock | Attachment>): void {
  for (const item of items) {
    const found = blobOf(item);
    if (found === undefined) continue;
    const problem = findBase64Problem(found.blob);
    if (problem === undefined) continue;
    throw new McpKitError(
      'INVALID_BASE64',
      `${found.what} has a blob that is not base64 (${problem.reason} at offset ${problem.offset}): ` +
        'give canonical base64 (encodeBase64 from mcpkit/content), or the raw bytes as { bytes }',
    );
  }
}

function blobOf(item: ContentBlock | Attachment): { blob: string; what: string } | undefined {
  if (isAttachment(item)) {
    if (typeof item.blob !== 'string') return undefined;
    return { blob: item.blob, what: `attached ${item.uri ?? JSON.stringify(item.name)}` };
  }
  const block = item as {
    type?: unknown;
    data?: unknown;
    resource?: { uri?: unknown; blob?: unknown };
  };
  if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string')
    return { blob: block.data, what: `an ${block.type} block` };
  if (block.type === 'resource' && typeof block.resource?.blob === 'string')
    return {
      blob: block.resource.blob,
      what: `the embedded resource ${String(block.resource.uri)}`,
    };
  return undefined;
}

/** The first part a link to a resource too large to read whole points at, and that part's size. */
interface FirstPart {
  readonly uri: string;
  readonly size: number | undefined;
}

/** The `firstPart` of what a stat found, read by shape: `Attachment.stat` types only the size. */
function firstPartOf(found: object): string | undefined {
  const part = (found as { firstPart?: unknown }).firstPart;
  return typeof part === 'string' ? part : undefined;
}

/**
 * Gives attachments that can `stat` their size, so that the policy can link them unread. One
 * whose stat names a `firstPart` cannot be read whole here: it is linked by that URI, with a
 * description that says so (fitted as such), and its link later gets the part's size.
 */
async function withStatSizes(
  env: ContentEnv,
  items: ReadonlyArray<ContentBlock | Attachment>,
): Promise<{ items: ReadonlyArray<ContentBlock | Attachment>; parts: Map<number, FirstPart> }> {
  const parts = new Map<number, FirstPart>();
  if (!items.some((item) => isAttachment(item) && item.size === undefined && item.stat))
    return { items, parts };
  const sized = await Promise.all(
    items.map(async (item, index) => {
      if (!isAttachment(item) || item.size !== undefined || !item.stat || hasContent(item))
        return item;
      const found = await item.stat();
      if (found === undefined) return item;
      const mimeType = item.mimeType ?? found.mimeType;
      const typed = { ...item, size: found.size, ...(mimeType !== undefined ? { mimeType } : {}) };
      const firstPart = firstPartOf(found);
      if (firstPart === undefined) return attach(typed);
      // Sized as the whole resource, so that the policy links it; the link names the part.
      parts.set(index, { uri: firstPart, size: (await env.stat(firstPart))?.size });
      const note = firstPartDescription(item.name, found.size);
      const description = item.description === undefined ? note : `${item.description}. ${note}`;
      return attach({ ...typed, uri: firstPart, description });
    }),
  );
  return { items: sized, parts };
}

/** Whether `error` is the plain "Resource not found" of `uri` (resourceNotFound()). */
function isNotFound(error: unknown, uri: string): boolean {
  return (
    error instanceof ProtocolError &&
    (error.data as { uri?: unknown } | undefined)?.uri === uri &&
    error.message.startsWith('Resource not found')
  );
}
