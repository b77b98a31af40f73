import { collectBlob, isStreamedBody } from '../../content/streamed-body.js';
import { callerKey, missingScopes } from '../auth-info.js';
import { requireScopes, visibleTo } from './scopes.js';
import { artifactOwnedBy } from '../link-store.js';
import type { Resource, ResourceContents } from '../../protocol/types.js';
import { ERROR_CODES } from '../../protocol/error-codes.js';
import { isMcpKitError } from '../../errors/mcpkit-error.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { resourceNotFound, resourceRefused } from '../../errors/wire-errors.js';
import type { RequestContext } from '../context.js';
import type { ServerCore } from '../core.js';
import type { PartialContents, ReadReturn } from '../definitions.js';
import { artifactPart, artifactTarget, wholeArtifact } from '../artifact-read.js';
import { finalResult } from '../modern-envelope.js';
import { VersionedRead } from '../versioned-read.js';
import { lister } from './lists.js';
import type { MethodSpec, Result } from './types.js';
import { boundTarget } from './target.js';

function normalizeContents(
  uri: string,
  value: ReadReturn,
  mimeType: string | undefined,
): ResourceContents[] {
  if (typeof value === 'string')
    return [mimeType === undefined ? { uri, text: value } : { uri, mimeType, text: value }];
  const list: Array<ResourceContents | PartialContents> = Array.isArray(value)
    ? value
    : 'contents' in value
      ? value.contents
      : [value];
  return list.map((item) => {
    // Complete already (the usual answer of a provider): taken as it is, not copied.
    if (typeof item.uri === 'string' && (item.mimeType !== undefined || mimeType === undefined))
      return item as ResourceContents;
    const out = { ...item, uri: item.uri ?? uri } as ResourceContents;
    if (out.mimeType === undefined && mimeType !== undefined) out.mimeType = mimeType;
    return out;
  });
}

function withCache(result: Result, hints: { ttlMs?: number; cacheScope?: string }): Result {
  if (hints.ttlMs !== undefined) result['ttlMs'] = hints.ttlMs;
  if (hints.cacheScope !== undefined) result['cacheScope'] = hints.cacheScope;
  return result;
}

/**
 * A read's result, built on first use, and the version its handler said it served (see
 * versionedRead): an answer the server kept encoded is written without building the result.
 */
interface ReadOutcome {
  result(): Result;
  readonly version?: object | undefined;
  /** The `cacheScope` the result carries, known without building it. */
  readonly cacheScope?: string | undefined;
}

/** The result of a handler's answer, with `mimeType` and cache hints of its definition. */
function outcomeOf(
  uri: string,
  value: ReadReturn | VersionedRead<ReadReturn>,
  mimeType: string | undefined,
  hints: { ttlMs?: number; cacheScope?: string },
): ReadOutcome {
  if (!(value instanceof VersionedRead)) {
    const result = withCache({ contents: normalizeContents(uri, value, mimeType) }, hints);
    return { result: () => result };
  }
  let result: Result | undefined;
  return {
    result: () =>
      (result ??= withCache({ contents: normalizeContents(uri, value.answer, mimeType) }, hints)),
    version: value.version,
    cacheScope: hints.cacheScope,
  };
}

/**
 * Reads a resource the way `resources/read` does: registered resources, then templates (with
 * their variables decoded and checked), then the link store. Throws not-found or refusals.
 */
export async function readResource(
  core: ServerCore,
  uri: string,
  ctx: RequestContext,
): Promise<Result> {
  return (await resolveRead(core, uri, ctx)).result();
}

async function resolveRead(
  core: ServerCore,
  uri: string,
  ctx: RequestContext,
): Promise<ReadOutcome> {
  const entry = core.resources.get(uri);
  if (entry) {
    requireScopes(`resource ${uri}`, entry.scopes, ctx.auth);
    const value = await entry.read(uri, {}, ctx);
    if (value === undefined) throw resourceNotFound(uri, ctx.era);
    return outcomeOf(uri, value, entry.resource.mimeType, entry.cache);
  }
  const templates = core.templates.list();
  for (let i = 0, hit; (hit = core.templateMatches.hit(templates, uri, i)) !== undefined; i++) {
    if ('refused' in hit) throw resourceRefused(uri, hit.refused, hit.variable);
    requireScopes(`resource ${uri}`, hit.entry.definition.scopes, ctx.auth);
    const value = await hit.entry.read(uri, { ...hit.variables }, ctx);
    if (value === undefined) continue;
    return outcomeOf(uri, value, hit.entry.template.mimeType, hit.entry.definition);
  }
  if (core.linkStore.owns(uri)) {
    const target = artifactTarget(uri);
    const found = await core.linkStore.get(target.base).catch((error: unknown) => {
      // A shared store that cannot answer (Redis down): say so, once the store logged why.
      if (!isMcpKitError(error)) throw error;
      throw new ProtocolError(
        ERROR_CODES.INTERNAL_ERROR,
        `${uri}: the link store cannot be read right now (${error.code}); try again shortly`,
        { uri, reason: 'store-unavailable' },
        { cause: error },
      );
    });
    const caller = ctx.auth && callerKey(ctx.auth);
    if (
      'found' in found &&
      (await artifactOwnedBy(core.linkStore, target.base, found.found, caller))
    ) {
      const a = found.found;
      const contents = target.part
        ? artifactPart(
            uri,
            { base: target.base, part: target.part },
            a,
            ctx.capBytes,
            core.artifactBytes,
          )
        : wholeArtifact(uri, a, ctx.capBytes, core.artifactBytes);
      const result = {
        contents: [contents],
        ttlMs: Math.max(0, a.expiresAt - Date.now()),
        cacheScope: 'private',
      };
      return { result: () => result };
    }
    if ('expired' in found)
      throw resourceNotFound(
        uri,
        ctx.era,
        ' (this artifact expired: call the tool that produced it again)',
      );
  }
  throw resourceNotFound(uri, ctx.era);
}

/**
 * A read result with its streamed blobs read into strings: for assembly, which measures and
 * embeds them, and for a transport that does not stream (a handler may return a streamed blob
 * whatever `ctx.streamsBodies` says).
 */
export function blobsInMemory(result: Result): Result | Promise<Result> {
  // The usual answer has no streamed blob: returned as it is, without a turn of the loop.
  if (!holdsStreamedBlob(result)) return result;
  return Promise.all(
    (result['contents'] as Record<string, unknown>[]).map(async (c) => {
      if (isStreamedBody(c['blob'])) return { ...c, blob: await collectBlob(c['blob']) };
      // A streamed text is a JSON string: the same collection, then its escapes undone.
      if (isStreamedBody(c['text']))
        return { ...c, text: JSON.parse(`"${await collectBlob(c['text'])}"`) as string };
      return c;
    }),
  ).then((read) => ({ ...result, contents: read }));
}

function holdsStreamedBlob(result: Result): boolean {
  const contents = result['contents'];
  return (
    Array.isArray(contents) &&
    contents.some((c) => {
      const item = c as { blob?: unknown; text?: unknown } | null;
      return isStreamedBody(item?.blob) || isStreamedBody(item?.text);
    })
  );
}

/**
 * A versioned read's final answer, encoded once per version, URI and era (encoded-reads.ts); not
 * one with a streamed blob, which is read as the client takes it.
 */
function encodedOnce(core: ServerCore, uri: string, ctx: RequestContext, read: ReadOutcome) {
  const { version } = read;
  if (version === undefined) return undefined;
  // A private answer is one caller's: never handed to another (with auth, callers are known).
  const scope = read.cacheScope ?? core.options.readCache?.cacheScope ?? 'private';
  const caller = ctx.auth && scope === 'private' ? `\n${callerKey(ctx.auth)}` : '';
  const key = `${ctx.era}\n${uri}${caller}`;
  return core.encodedReads.answer(version, key, () => {
    const result = read.result();
    return holdsStreamedBlob(result) ? undefined : finalResult(core, ctx.era, 'read', result);
  });
}

/** Static resources, then what each template's `list` reports; what the caller may read. */
async function allResources(
  core: ServerCore,
  _era: unknown,
  ctx: RequestContext,
): Promise<readonly Resource[]> {
  const templates = core.templates.list();
  const statics = visibleTo(core, ctx.auth, core.resources.wire(), core.resources.list());
  if (!templates.some((t) => t.definition.list)) return statics;
  const all: Resource[] = [...statics];
  for (const t of templates) {
    if (missingScopes(t.definition.scopes, ctx.auth).length > 0) continue;
    if (t.definition.list) all.push(...(await t.definition.list()));
  }
  return all;
}

export const resourceMethods: Record<string, MethodSpec> = {
  'resources/list': {
    run: lister('resources', 'resources/list', allResources, (r) => r.uri),
  },
  'resources/templates/list': {
    run: lister(
      'resourceTemplates',
      'resources/templates/list',
      (core, _era, ctx) =>
        visibleTo(
          core,
          ctx.auth,
          core.templates.wire(),
          core.templates.list(),
          (e) => e.definition.scopes,
        ),
      (t) => t.uriTemplate,
    ),
  },
  'resources/read': {
    target: (p, auth) => boundTarget('resources/read', p['uri'], undefined, auth),
    run: async (params, { core, ctx }) => {
      const uri = params['uri'] as string;
      const read = await resolveRead(core, uri, ctx);
      const encoded = encodedOnce(core, uri, ctx, read);
      if (encoded) return encoded;
      const result = read.result();
      return ctx.streamsBodies ? result : blobsInMemory(result);
    },
  },
};
