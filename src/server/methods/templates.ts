import type { ServerCore } from '../core.js';
import type { ResourceStat } from '../definitions.js';
import type { TemplateHit } from '../template-matches.js';

/**
 * The one template lookup (reads, link checks, `stat`, completion): the templates `uri` matches,
 * in registration order, always through the traversal guards. A refused match ends the walk: a
 * URI that the first template matching it refuses is refused, whatever later templates say.
 */
export function matchTemplates(core: ServerCore, uri: string): readonly TemplateHit[] {
  const list = core.templates.list();
  const hits: TemplateHit[] = [];
  for (let i = 0; ; i++) {
    const hit = core.templateMatches.hit(list, uri, i);
    if (hit === undefined) return hits;
    hits.push(hit);
  }
}

/**
 * The first safely matching template with a `stat` hook sizes the resource; no read happens.
 * `context` (the request's cap) is handed to the hook.
 */
export async function statResource(
  core: ServerCore,
  uri: string,
  context?: { readonly capBytes: number },
): Promise<ResourceStat | undefined> {
  for (const hit of matchTemplates(core, uri)) {
    if ('refused' in hit) return undefined;
    const stat = hit.entry.definition.stat;
    if (!stat) continue;
    const found = await stat(uri, { ...hit.variables }, context);
    if (found !== undefined) return found;
  }
  return undefined;
}
