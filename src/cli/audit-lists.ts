/**
 * The four lists, every page, each page judged as sent; then the checks of their entries: names
 * given twice, URIs, templates, and listed sizes that imply an answer over the stdio cap.
 */
import type { McpClient } from '../client/index.js';
import { ListBounds, type ListLimits } from '../client/lists.js';
import { McpKitError } from '../errors/index.js';
import { isTextMimeType } from '../content/index.js';
import { base64Length } from '../protocol/index.js';
import { RESULT_CAP_BYTES } from './audit-answer.js';
import { checkUri, type ContentContext } from './audit-content.js';
import type { Coverage } from './audit-coverage.js';
import { pointer, quote } from './audit-findings.js';
import { describeError, judged } from './audit-read.js';
import type { RequestBudget } from './audit-requests.js';
import { CLI_LIST_LIMIT_NAMES } from './list-limits.js';
import { listFieldOf, type ListMethod } from '../protocol/methods.js';

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type { ListMethod };

/** One entry of a list, with where it was: the page and its JSON pointer in that page. */
export interface Listed {
  entry: Obj;
  page: number;
  path: string;
}

/**
 * Every entry of every page of `method`, within the list limits (`list-too-large` past
 * --max-list-items, --max-list-bytes or --max-cursor-bytes: what came before is kept) and the
 * request budget. A failed page or a cursor seen twice ends the list (`pagination-loop`).
 */
export async function walkList(
  client: McpClient,
  method: ListMethod,
  ctx: ContentContext,
  limits: ListLimits,
  requests: RequestBudget,
): Promise<Listed[]> {
  const field = listFieldOf(method);
  const out: Listed[] = [];
  const bounds = new ListBounds(method, limits, CLI_LIST_LIMIT_NAMES);
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    const what = `the rest of ${method} (from page ${page + 1}) not listed`;
    if (!requests.allow(method, what)) break;
    const params = cursor === undefined ? {} : { cursor };
    const got = await judged({ method }, ctx, (onRawResult) =>
      client.request(method, params, { onRawResult, cache: false }),
    );
    const raw = got.raw;
    if (raw === undefined) {
      ctx.log.add({
        code: 'request-failed',
        message: `${method}${page > 0 ? ` (page ${page + 1}, cursor ${quote(cursor)})` : ''} failed: ${describeError(got.error)}`,
        method,
      });
      break;
    }
    const entries = isObj(raw) && Array.isArray(raw[field]) ? (raw[field] as unknown[]) : [];
    const next = isObj(raw) ? raw['nextCursor'] : undefined;
    try {
      bounds.addPage(entries);
      entries.forEach((entry, i) => {
        if (isObj(entry)) out.push({ entry, page, path: pointer('', field, i) });
      });
      if (typeof next !== 'string') break;
      await bounds.follow(next);
    } catch (error) {
      if (!(error instanceof McpKitError)) throw error;
      const loop = error.code === 'PAGE_LIMIT';
      ctx.log.add({
        code: loop ? 'pagination-loop' : 'list-too-large',
        message: loop
          ? `${error.message}: the list never ends`
          : `${error.message}; the list was walked up to there (${out.length} entries)`,
        method,
        ...(loop || /handed out a cursor/.test(error.message) ? { path: '/nextCursor' } : {}),
      });
      break;
    }
    cursor = next;
  }
  return out;
}

/** `name-reused` for every name given to two entries of one list. */
export function checkNames(
  method: ListMethod,
  listed: readonly Listed[],
  ctx: ContentContext,
): void {
  const first = new Map<string, Listed>();
  const what = listFieldOf(method).replace(/s$/, '');
  for (const item of listed) {
    const name = item.entry['name'];
    if (typeof name !== 'string') continue;
    const earlier = first.get(name);
    if (!earlier) {
      first.set(name, item);
      continue;
    }
    const uri = item.entry['uri'];
    ctx.log.add({
      code: 'name-reused',
      message: `two ${what}s are named ${quote(name, 80)} (${at(earlier)} and ${at(item)}); a host that shows or picks by name cannot tell them apart`,
      method,
      name,
      path: item.path,
      ...(typeof uri === 'string' ? { uri } : {}),
    });
  }
}

function at(item: Listed): string {
  return item.page === 0 ? item.path : `${item.path} of page ${item.page + 1}`;
}

/** URIs of listed resources and templates; fills `coverage`. */
export function checkResourceEntries(
  resources: readonly Listed[],
  templates: readonly Listed[],
  ctx: ContentContext,
  coverage: Coverage,
): void {
  for (const { entry, path } of resources) {
    const uri = entry['uri'];
    const place = { method: 'resources/list', ...(typeof uri === 'string' ? { uri } : {}) };
    if (checkUri(uri, pointer(path, 'uri'), place, ctx)) coverage.addResource(uri as string);
  }
  for (const { entry, path } of templates) {
    const template = entry['uriTemplate'];
    if (typeof template !== 'string') continue;
    const problem = coverage.addTemplate(template);
    if (problem === undefined) continue;
    ctx.log.add({
      code: 'template-invalid',
      message: `${quote(template)} is not an RFC 6570 template: ${problem}`,
      method: 'resources/templates/list',
      path: pointer(path, 'uriTemplate'),
      ...(typeof entry['name'] === 'string' ? { name: entry['name'] } : {}),
    });
  }
}

/**
 * The least a whole read of a listed resource takes on the wire, from its listed `size` (base64
 * for a binary type), or undefined without a size. A size that is not a byte count (negative,
 * fractional, over `Number.MAX_SAFE_INTEGER`) is ignored, as an absent one: no estimate is made
 * from it (a hostile server's `1.5e308` must not drive a chart or a warning).
 */
export function listedWireBytes(entry: Obj): number | undefined {
  const { uri, size, mimeType } = entry;
  if (typeof uri !== 'string' || !isByteCount(size)) return undefined;
  const binary = typeof mimeType === 'string' && !isTextMimeType(mimeType);
  return (binary ? base64Length(size) : size) + 2 * uri.length + 100;
}

function isByteCount(size: unknown): size is number {
  return typeof size === 'number' && Number.isSafeInteger(size) && size >= 0;
}

/**
 * A listed `size` that implies a read answer over 10 MiB (base64 for a binary type) is a
 * warning, unless a parts template covers the resource.
 */
export function checkListedSizes(
  resources: readonly Listed[],
  ctx: ContentContext,
  coverage: Coverage,
): void {
  for (const { entry, path } of resources) {
    const { uri, size, mimeType } = entry as { uri?: unknown; size?: unknown; mimeType?: unknown };
    const wire = listedWireBytes(entry);
    if (typeof uri !== 'string' || typeof size !== 'number' || wire === undefined) continue;
    const binary = typeof mimeType === 'string' && !isTextMimeType(mimeType);
    if (wire <= RESULT_CAP_BYTES || coverage.partsTemplateFor(uri) !== undefined) continue;
    ctx.log.add({
      code: 'result-over-cap',
      severity: 'warning',
      message: `its listed size (${size} bytes${binary ? ', base64 on the wire' : ''}) implies a read answer over the ${RESULT_CAP_BYTES} bytes (10 MiB) the official SDK client's stdio buffer takes, and no parts template covers it`,
      method: 'resources/list',
      uri,
      path: pointer(path, 'size'),
    });
  }
}
