import { artifactStat, artifactTarget } from './artifact-read.js';
import type { RequestContext } from './context.js';
import type { ServerCore } from './core.js';
import { resolvesUri } from './methods/links.js';
import { blobsInMemory, readResource } from './methods/resources.js';
import { matchTemplates, statResource } from './methods/templates.js';
import type { ContentEnv } from './result-assembly.js';
import { callerKey } from './auth-info.js';
import { artifactOwnedBy } from './link-store.js';

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
    ownsArtifact: (uri) => core.linkStore.owns(uri),
    refuses: (uri) => matchTemplates(core, uri).some((hit) => 'refused' in hit),
    stat: (uri) =>
      core.linkStore.owns(uri)
        ? statArtifact(core, uri, ctx)
        : statResource(core, uri, { capBytes: ctx.capBytes }),
    // Embedded or linked, an artifact is kept as long: a host may read an embedded resource's URI
    // again. Keeping an embedded one is best-effort: its bytes are in the result already.
    artifactUri: async (made, linked) => {
      // Made for this caller: only this caller can read it back (see artifactOwnedBy).
      const content = ctx.auth ? { ...made, owner: callerKey(ctx.auth) } : made;
      if (linked) return core.linkStore.put(content, options.artifactTtlMs);
      if (options.clientCanReadResources === false) return core.linkStore.uriFor(content);
      return core.linkStore
        .put(content, options.artifactTtlMs)
        .catch(() => core.linkStore.uriFor(content));
    },
  };
}

/** Sizes an artifact (or a part of one) of the link store without reading it out. */
async function statArtifact(core: ServerCore, uri: string, ctx: RequestContext) {
  let target;
  try {
    target = artifactTarget(uri);
  } catch {
    return undefined;
  }
  const found = await core.linkStore.get(target.base).catch(() => undefined);
  if (!found || !('found' in found)) return undefined;
  const caller = ctx.auth && callerKey(ctx.auth);
  if (!(await artifactOwnedBy(core.linkStore, target.base, found.found, caller))) return undefined;
  return artifactStat(target, found.found, ctx.capBytes, core.artifactBytes);
}
