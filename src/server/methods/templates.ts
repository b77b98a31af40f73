import { matchSafely } from '../../uri/guards.js';
import type { ServerCore } from '../core.js';
import type { ResourceStat } from '../definitions.js';
import type { TemplateEntry } from '../entries.js';

/** A template a URI matched: its variables, decoded and checked, or why the guards refused them. */
export type TemplateHit =
  | { entry: TemplateEntry; variables: Record<string, string | string[]> }
  | { entry: TemplateEntry; refused: string; variable?: string };

/**
 * The one template lookup (reads, link checks, `stat`, completion): the templates `uri` matches,
 * in registration order, always through the traversal guards. A refused match ends the walk: a
 * URI that the first template matching it refuses is refused, whatever later templates say.
 */
export function* matchTemplates(core: ServerCore, uri: string): Generator<TemplateHit, void> {
  for (const entry of core.templates.list()) {
    const match = matchSafely(entry.parsed, uri);
    if (match === undefined) continue;
    if (!match.ok) {
      yield match.variable
        ? { entry, refused: match.problem, variable: match.variable }
        : { entry, refused: match.problem };
      return;
    }
    yield { entry, variables: match.variables };
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
    const found = await stat(uri, hit.variables, context);
    if (found !== undefined) return found;
  }
  return undefined;
}
