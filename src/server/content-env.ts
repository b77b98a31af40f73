import { artifactReadBytes, firstArtifactPart } from './artifact-read.js';
import type { RequestContext } from './context.js';
import type { ServerCore } from './core.js';
import { resolvesUri } from './methods/links.js';
import { blobsInMemory, readResource } from './methods/resources.js';
import { statResource } from './methods/templates.js';
import type { ContentEnv } from './result-assembly.js';

/** Binds result assembly to a server and one request: reads go through the server's own read path. */
export function createContentEnv(core: ServerCore, ctx: RequestContext): ContentEnv {
  const options = core.options.content ?? {};
  return {
    options,
    capBytes: ctx.capBytes,
    method: ctx.method,
    read: (uri) => readResource(core, uri, ctx).then(blobsInMemory),
    resolves: (uri) => resolvesUri(core, uri),
    describe: (uri) => core.resources.get(uri)?.resource,
    stat: (uri) => statResource(core, uri, { capBytes: ctx.capBytes }),
    // Embedded or linked, an artifact is kept as long: a host may read an embedded resource's URI again.
    artifactUri: async (content, linked) => {
      const uri = await core.linkStore.put(content, options.artifactTtlMs);
      if (!linked || artifactReadBytes(uri, content) <= ctx.capBytes) return uri;
      const first = firstArtifactPart(uri, content, ctx.capBytes);
      return { uri, firstPart: { uri: first.uri, size: Math.min(first.length, content.size) } };
    },
  };
}
