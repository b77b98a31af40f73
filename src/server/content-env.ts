import { collectBlob, isStreamedBody } from '../content/streamed-body.js';
import type { RequestContext } from './context.js';
import type { ServerCore } from './core.js';
import { resolvesUri } from './methods/links.js';
import { readResource } from './methods/resources.js';
import { statResource } from './methods/templates.js';
import type { ContentEnv } from './result-assembly.js';

/** Binds result assembly to a server and one request: reads go through the server's own read path. */
export function createContentEnv(core: ServerCore, ctx: RequestContext): ContentEnv {
  const options = core.options.content ?? {};
  return {
    options,
    capBytes: ctx.capBytes,
    method: ctx.method,
    read: (uri) => readResource(core, uri, ctx).then(inMemory),
    resolves: (uri) => resolvesUri(core, uri),
    describe: (uri) => core.resources.get(uri)?.resource,
    stat: (uri) => statResource(core, uri, { capBytes: ctx.capBytes }),
    artifactUri: (content, keep) =>
      keep ? core.linkStore.put(content, options.artifactTtlMs) : core.linkStore.uriFor(content),
  };
}

/**
 * A read result with its streamed blobs read into strings: assembly measures and embeds them.
 * Only a `resources/read` handler that attaches another resource gets one here (ctx.streamsBodies
 * is false for every other method).
 */
async function inMemory(result: Record<string, unknown>): Promise<Record<string, unknown>> {
  const contents = result['contents'];
  if (!Array.isArray(contents)) return result;
  if (!contents.some((c) => isStreamedBody((c as { blob?: unknown } | null)?.blob))) return result;
  const read = await Promise.all(
    contents.map(async (c: Record<string, unknown>) =>
      isStreamedBody(c['blob']) ? { ...c, blob: await collectBlob(c['blob']) } : c,
    ),
  );
  return { ...result, contents: read };
}
