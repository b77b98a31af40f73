/** Which templates a URI matches, remembered per server while its template list stays the same. */
import { matchSafely } from '../uri/guards.js';
import type { TemplateEntry } from './entries.js';

/** A template a URI matched: its variables, decoded and checked, or why the guards refused them. */
export type TemplateHit =
  | { entry: TemplateEntry; variables: Record<string, string | string[]> }
  | { entry: TemplateEntry; refused: string; variable?: string };

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

/**
 * One server's template matches, remembered per URI for as long as its template list stays the
 * same array (the registry replaces it on every registration): a URI read again is not matched
 * again. Kept variables are frozen; each handler gets its own copy.
 */
export class TemplateMatches {
  /** The list the remembered walks were made on. */
  private list: readonly TemplateEntry[] | undefined;
  private byUri = new Map<string, Walk>();

  /** `current`: the server's template list now. */
  constructor(private readonly current: () => readonly TemplateEntry[]) {}

  /**
   * The `i`-th hit of {@link matchTemplates} on `list` (a walk across awaits stays on the list it
   * began with), matching no further than it needs; only walks on the current list are kept.
   */
  hit(list: readonly TemplateEntry[], uri: string, i: number): TemplateHit | undefined {
    const byUri = this.remembered(list);
    const kept = byUri?.get(uri);
    const walk = kept ?? { hits: [], next: 0 };
    while (walk.hits.length <= i && walk.next < list.length) {
      const last = walk.hits[walk.hits.length - 1];
      if (last !== undefined && 'refused' in last) break; // a refusal ends the walk
      const entry = list[walk.next++] as TemplateEntry;
      const hit = hitOf(entry, uri);
      if (hit) walk.hits.push(hit);
    }
    // Only what a client cannot blow up: short URIs that matched, a bounded number of them.
    if (byUri && !kept && walk.hits.length > 0 && uri.length <= REMEMBERED_URI_CHARS) {
      if (byUri.size >= REMEMBERED_URIS) byUri.clear();
      byUri.set(uri, walk);
    }
    return walk.hits[i];
  }

  /** The walks remembered on `list`, when it is the current list; else undefined. */
  private remembered(list: readonly TemplateEntry[]): Map<string, Walk> | undefined {
    const current = this.current();
    if (list !== current) {
      // Walks of a list the registry replaced are let go (and its entries with them).
      if (this.list !== undefined && this.list !== current) {
        this.list = undefined;
        this.byUri = new Map();
      }
      return undefined;
    }
    if (list !== this.list) {
      this.list = list;
      this.byUri = new Map();
    }
    return this.byUri;
  }
}

function hitOf(entry: TemplateEntry, uri: string): TemplateHit | undefined {
  const match = matchSafely(entry.parsed, uri);
  if (match === undefined) return undefined;
  if (!match.ok)
    return match.variable
      ? { entry, refused: match.problem, variable: match.variable }
      : { entry, refused: match.problem };
  for (const value of Object.values(match.variables))
    if (Array.isArray(value)) Object.freeze(value);
  return { entry, variables: Object.freeze(match.variables) };
}
