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
export function matchTemplates(core: ServerCore, uri: string): readonly TemplateHit[] {
  const list = core.templates.list();
  const hits: TemplateHit[] = [];
  for (let i = 0; ; i++) {
    const hit = templateHit(list, uri, i);
    if (hit === undefined) return hits;
    hits.push(hit);
  }
}

/**
 * The `i`-th hit of {@link matchTemplates} on `list` (the server's templates when the caller
 * began: a walk across awaits stays on one list), matching no further than it needs: a read
 * whose first template serves it never matches the others.
 */
export function templateHit(
  list: readonly TemplateEntry[],
  uri: string,
  i: number,
): TemplateHit | undefined {
  // Remembered per URI for as long as the template list stays the same array (it is replaced on
  // every registration): a URI read again is not matched again. Kept variables are frozen; each
  // handler gets its own copy.
  let byUri = remembered.get(list);
  if (!byUri) remembered.set(list, (byUri = new Map()));
  const kept = byUri.get(uri);
  const walk = kept ?? { hits: [], next: 0 };
  while (walk.hits.length <= i && walk.next < list.length) {
    const last = walk.hits[walk.hits.length - 1];
    if (last !== undefined && 'refused' in last) break; // a refusal ends the walk
    const entry = list[walk.next++] as TemplateEntry;
    const hit = hitOf(entry, uri);
    if (hit) walk.hits.push(hit);
  }
  // Only what a client cannot blow up: short URIs that matched, a bounded number of them.
  if (!kept && walk.hits.length > 0 && uri.length <= REMEMBERED_URI_CHARS) {
    if (byUri.size >= REMEMBERED_URIS) byUri.clear();
    byUri.set(uri, walk);
  }
  return walk.hits[i];
}

/** How far the templates were matched against one URI, and what matched. */
interface Walk {
  readonly hits: TemplateHit[];
  /** The next template to match. */
  next: number;
}

/** URIs whose template matches are remembered at most (then forgotten all at once). */
const REMEMBERED_URIS = 10_000;
/** Longest URI remembered: with the decoded variables, at most ~40 MiB in all. */
const REMEMBERED_URI_CHARS = 2048;

const remembered = new WeakMap<readonly TemplateEntry[], Map<string, Walk>>();

function hitOf(entry: TemplateEntry, uri: string): TemplateHit | undefined {
  const match = matchSafely(entry.parsed, uri);
  if (match === undefined) return undefined;
  if (!match.ok) {
    return match.variable
      ? { entry, refused: match.problem, variable: match.variable }
      : { entry, refused: match.problem };
  }
  for (const value of Object.values(match.variables))
    if (Array.isArray(value)) Object.freeze(value);
  return { entry, variables: Object.freeze(match.variables) };
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
