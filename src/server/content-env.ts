import { assembleBlocks, type DecisionRecord } from '../content/assemble.js';
import {
  attach,
  isAttachment,
  type Attachment,
  type AttachmentContent,
  type AttachmentInput,
} from '../content/attachment.js';
import type { CallToolResult, ContentBlock, ResourceContents } from '../protocol/types.js';
import { MCPKIT_META_PREFIX } from '../protocol/meta-keys.js';
import { McpKitError } from '../errors/mcpkit-error.js';
import { findBase64Problem } from '../protocol/base64.js';
import { repairBase64 } from '../content/blob.js';
import type { RequestContext } from './context.js';
import { readResource, resolvesUri } from './read.js';
import type { McpServer } from './server.js';
import type { ContentOptions, ResourceStat } from './types.js';
import { matchSafely } from '../uri/index.js';

/** Room kept for the JSON-RPC envelope, `_meta` and the result's other fields. */
export const ENVELOPE_RESERVE_BYTES = 1024;

/** What a request's context needs to embed, link and assemble; built per request by the dispatcher. */
export interface ContentEnv {
  readonly options: ContentOptions;
  readonly capBytes: number;
  readonly method: string;
  read(uri: string, ctx: RequestContext): Promise<Record<string, unknown>>;
  resolves(uri: string): Promise<boolean>;
  describe(uri: string): { name: string; mimeType?: string; size?: number } | undefined;
  /** Sizes a templated resource without reading it (the template's `stat`), if it can. */
  stat(uri: string): Promise<ResourceStat | undefined>;
  artifactUri(
    content: { name: string; mimeType: string; text?: string; blob?: string; size: number },
    keep: boolean,
  ): Promise<string>;
}

export function createContentEnv(
  server: McpServer,
  method: string,
  transportCap: number | undefined,
): ContentEnv {
  const options = server.options.content ?? {};
  const capBytes = options.capBytes ?? (transportCap ?? 32 * 1024 * 1024) - ENVELOPE_RESERVE_BYTES;
  return {
    options,
    capBytes,
    method,
    read: (uri, ctx) => readResource(server, uri, ctx),
    resolves: (uri) => resolvesUri(server, uri),
    describe: (uri) => server.resources.get(uri)?.resource,
    stat: (uri) => statResource(server, uri),
    artifactUri: (content, keep) =>
      keep
        ? server.linkStore.put(content, options.artifactTtlMs)
        : server.linkStore.uriFor(content),
  };
}

/** The first safely matching template with a `stat` hook sizes the resource; no read happens. */
async function statResource(server: McpServer, uri: string): Promise<ResourceStat | undefined> {
  for (const t of server.templates.list()) {
    if (!t.definition.stat) continue;
    const match = matchSafely(t.parsed, uri);
    if (!match?.ok) continue;
    const found = await t.definition.stat(uri, match.variables);
    if (found !== undefined) return found;
  }
  return undefined;
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
  ctx: RequestContext,
  uri: string,
  extra: Partial<AttachmentInput> = {},
): Attachment {
  const known = env.describe(uri);
  let loaded: Promise<AttachmentContent> | undefined;
  const load = (): Promise<AttachmentContent> => {
    loaded ??= env.read(uri, ctx).then((result) => {
      const first = (result['contents'] as ResourceContents[] | undefined)?.[0];
      if (!first) throw new McpKitError('ATTACHMENT_EMPTY', `${uri} has no contents`);
      return toContent(uri, first);
    });
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
  const o = env.options;
  const decisions: DecisionRecord[] = [];
  const { blocks } = await assembleBlocks(await withStatSizes(items), {
    capBytes: env.capBytes,
    ...(o.blockBudgetBytes !== undefined ? { blockBudgetBytes: o.blockBudgetBytes } : {}),
    ...(o.resultBudgetBytes !== undefined ? { resultBudgetBytes: o.resultBudgetBytes } : {}),
    ...(o.clientCanReadResources !== undefined
      ? { clientCanReadResources: o.clientCanReadResources }
      : {}),
    ...(o.policy !== undefined ? { policy: o.policy } : {}),
    artifactUri: env.artifactUri,
    itemOverheadBytes,
    onDecision: (record) => {
      decisions.push(record);
      if (o.onDecision) o.onDecision(record, env.method);
      else if (debugging('policy')) console.error(describeDecision(env.method, record));
    },
  });
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

/** Gives attachments that can `stat` their size, so that the policy can link them unread. */
async function withStatSizes(
  items: ReadonlyArray<ContentBlock | Attachment>,
): Promise<ReadonlyArray<ContentBlock | Attachment>> {
  if (!items.some((item) => isAttachment(item) && item.size === undefined && item.stat))
    return items;
  return Promise.all(
    items.map(async (item) => {
      if (!isAttachment(item) || item.size !== undefined || !item.stat || hasContent(item))
        return item;
      const found = await item.stat();
      if (found === undefined) return item;
      const mimeType = item.mimeType ?? found.mimeType;
      return attach({ ...item, size: found.size, ...(mimeType !== undefined ? { mimeType } : {}) });
    }),
  );
}

function hasContent(item: Attachment): boolean {
  return item.text !== undefined || item.bytes !== undefined || item.blob !== undefined;
}

/** Finds `resource_link` blocks that resolve nowhere; the link guarantee. */
export async function unresolvedLinks(
  env: ContentEnv,
  blocks: ReadonlyArray<ContentBlock>,
): Promise<string[]> {
  const bad: string[] = [];
  for (const block of blocks) {
    if (block.type === 'resource_link' && !(await env.resolves(block.uri))) bad.push(block.uri);
  }
  return bad;
}

export function toolResultOf(
  content: ContentBlock[],
  meta?: Record<string, unknown>,
): CallToolResult {
  return meta ? { content, _meta: meta } : { content };
}

/** Whether MCPKIT_DEBUG names `topic` (comma-separated topics, or `*`). Read per call: tests set it. */
export function debugging(topic: string): boolean {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env?.['MCPKIT_DEBUG'];
  if (!value) return false;
  return value.split(',').some((t) => t.trim() === topic || t.trim() === '*');
}

/** One readable line per decision, for the debug log. */
export function describeDecision(method: string, record: DecisionRecord): string {
  const d = record.decision;
  return `mcpkit policy: ${method} ${record.name}${record.uri ? ` <${record.uri}>` : ''} -> ${d.kind} (${d.reason}): ${d.detail}`;
}
