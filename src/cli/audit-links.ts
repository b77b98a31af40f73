/**
 * The links met in tool results and prompts, each read once: through `resources/read` on the
 * server that produced it, or, with `--fetch-urls`, an uncovered http(s) link through the SSRF
 * guard. A failed read is `link-read-failed` when a listed resource or template covers the link,
 * `link-unresolved` when nothing does (`link-not-checked` for an uncovered http(s) link that was
 * not fetched: the host may be meant to fetch it).
 */
import type { McpClient } from '../client/index.js';
import { McpKitError } from '../errors/index.js';
import {
  checkReadContents,
  sizeContradicts,
  type ContentContext,
  type LinkMet,
  type ReadItem,
} from './audit-content.js';
import type { Coverage } from './audit-coverage.js';
import type { LinkFetch } from './audit-fetch.js';
import { quote, type Place } from './audit-findings.js';
import { mimeContradiction } from './audit-mime.js';
import { describeError, isInvalidResult, judged, type ReadBudget } from './audit-read.js';
import type { LinkOutcome, WalkRecord } from './audit-record.js';
import { LINK_READS, type RequestBudget } from './audit-requests.js';

export interface LinkDeps {
  client: McpClient;
  ctx: ContentContext;
  budget: ReadBudget;
  coverage: Coverage;
  requests: RequestBudget;
  /** Present with `--fetch-urls`. */
  fetch?: LinkFetch;
  /** Present when a report (--html) lists every link checked. */
  record?: WalkRecord;
}

const HTTP = /^https?:/i;

/** Where a link was met, for its findings: the request whose answer held it. */
function metIn(link: LinkMet): string {
  const { method, name } = link.place;
  return name === undefined ? method : `${method} ${quote(name, 80)}`;
}

/** Adds a link's outcome to the record, when there is one. */
function note(
  link: LinkMet,
  deps: LinkDeps,
  outcome: LinkOutcome,
  detail: string,
  bytes?: number,
): void {
  if (!deps.record) return;
  const coveredBy = deps.coverage.coveredBy(link.uri);
  deps.record.links.push({
    uri: link.uri,
    metIn: metIn(link),
    path: link.path,
    outcome,
    detail,
    ...(coveredBy === undefined ? {} : { coveredBy }),
    ...(bytes === undefined ? {} : { bytes }),
  });
}

/** Checks every link (one read per distinct URI); returns how many were read or fetched. */
export async function checkLinks(
  links: readonly LinkMet[],
  deps: LinkDeps,
  progress?: (done: number, total: number) => void,
): Promise<number> {
  const seen = new Set<string>();
  const unique = links.filter((l) => !seen.has(l.uri) && seen.add(l.uri));
  let read = 0;
  for (let i = 0; i < unique.length; i++) {
    progress?.(i, unique.length);
    if (await checkLink(unique[i] as LinkMet, deps)) read++;
  }
  return read;
}

async function checkLink(link: LinkMet, deps: LinkDeps): Promise<boolean> {
  const { ctx, budget, coverage } = deps;
  const where: Place = { method: link.place.method, uri: link.uri };
  if (link.place.name !== undefined) where.name = link.place.name;
  const at = { ...where, path: link.path };
  const coveredBy = coverage.coveredBy(link.uri);
  const http = HTTP.test(link.uri);
  if (!budget.fits(link.size)) {
    const message = `not read: ${budget.left === 0 ? 'the budget is spent' : `its size (${link.size}) is over what is left of the budget (${budget.left} bytes)`} (--budget ${budget.limit})`;
    ctx.log.add({ code: 'link-not-checked', message, ...at });
    note(link, deps, 'not checked', message);
    budget.linksSkipped++;
    return false;
  }
  if (!deps.requests.allow(LINK_READS, 'link(s) not read', link.uri)) {
    note(link, deps, 'not checked', 'not read: the request budget is spent (--max-requests)');
    return false;
  }
  if (coveredBy === undefined && http && deps.fetch) return fetchLink(link, deps, at);

  const place: Place = { method: 'resources/read', uri: link.uri };
  let items: ReadItem[] = [];
  const got = await judged(
    place,
    ctx,
    (onRawResult) => deps.client.readResource(link.uri, { onRawResult, cache: false }),
    async (raw) => void (items = await checkReadContents(raw, place, ctx)),
  );
  if (got.raw !== undefined) {
    const bytes = items.reduce((n, item) => n + item.bytes, 0);
    budget.spend(bytes);
    // An answer the client refused was judged already (schema-violation): it was not a failed read.
    if (got.error === undefined || isInvalidResult(got.error)) {
      const only = items.length === 1 ? items[0] : undefined;
      if (link.size !== undefined && only !== undefined && sizeContradicts(link.size, only)) {
        ctx.log.add({
          code: 'size-mismatch',
          message: `the link says ${link.size} bytes, the read gave ${bytes}`,
          ...at,
        });
      }
      note(link, deps, 'read', '', bytes);
      return true;
    }
  }
  const why = describeError(got.error);
  if (coveredBy !== undefined) {
    const message = `a link met in ${metIn(link)}, covered by ${coveredBy}, failed to read: ${why}`;
    ctx.log.add({ code: 'link-read-failed', message, ...at });
    note(link, deps, 'read failed', message);
  } else if (http) {
    const message = `an http(s) link no listed resource or template covers, which resources/read did not resolve (${why}); not fetched (--fetch-urls fetches it through the SSRF guard)`;
    ctx.log.add({ code: 'link-not-checked', message, ...at });
    note(link, deps, 'not checked', message);
  } else {
    const message = `a link met in ${metIn(link)} that no listed resource or template covers, and resources/read failed: ${why}`;
    ctx.log.add({ code: 'link-unresolved', message, ...at });
    note(link, deps, 'unresolved', message);
  }
  return false;
}

async function fetchLink(
  link: LinkMet,
  deps: LinkDeps,
  at: Place & { path: string },
): Promise<boolean> {
  const { ctx, budget } = deps;
  try {
    const got = await (deps.fetch as LinkFetch)(link.uri, budget.left);
    budget.spend(got.bytes.length);
    const declared = link.mimeType ?? got.mimeType;
    const why = declared === undefined ? undefined : await mimeContradiction(declared, got.bytes);
    if (why)
      ctx.log.add({ code: 'mime-mismatch', message: `fetched ${quote(got.url)}: ${why}`, ...at });
    note(link, deps, 'fetched', '', got.bytes.length);
    return true;
  } catch (error) {
    if (error instanceof McpKitError && error.code === 'GUARD_TOO_LARGE') {
      budget.spend(budget.left);
      const message = `fetch stopped: the body is over what is left of the budget (--budget ${budget.limit})`;
      ctx.log.add({ code: 'link-not-checked', message, ...at });
      note(link, deps, 'not checked', message);
      return false;
    }
    const message = `an http(s) link met in ${metIn(link)} that no listed resource or template covers, and the guarded fetch failed: ${describeError(error)}`;
    ctx.log.add({ code: 'link-unresolved', message, ...at });
    note(link, deps, 'unresolved', message);
    return false;
  }
}
