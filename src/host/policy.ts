/** The resolver's policy: which links to read, under which limits, and the checks before a read. */
import type { LinkInfo, RefusalCode, UrlFetcher } from './types.js';

/** What consent answers: a boolean, or a decision with the reason shown in the outcome. */
export type ConsentAnswer = boolean | { allow: boolean; reason?: string };

export interface ResolvePolicy {
  /**
   * Which links to read: `'none'` (the default without `consent`), `'all'`, or a predicate. With
   * a `consent` callback and no `select`, every link is put to consent.
   */
  select?: 'none' | 'all' | ((link: LinkInfo) => boolean);
  /** Asked once per selected link that passed the policy, one at a time, in block order. */
  consent?: (link: LinkInfo) => ConsentAnswer | Promise<ConsentAnswer>;
  /** URI schemes that may be read (`file`, `https`, …, without the colon); default: any. */
  schemes?: readonly string[];
  /** MIME types that may be read: exact (`application/json`) or a family (`text/*`); default: any. */
  mimeTypes?: readonly string[];
  /** Decoded bytes one link may bring; default 1 MiB. */
  maxLinkBytes?: number;
  /** Decoded bytes one `resolve()` (a turn) may read in all; default 4 MiB. */
  budgetBytes?: number;
  /** Reads at once; default 4. */
  concurrency?: number;
  /** Per-read timeout (ms), passed to the client; default: the client's own. */
  timeoutMs?: number;
  /**
   * Lets the host fetch `http:`/`https:` links itself, through this fetcher (the SSRF guard's
   * `fetch`); absent, such links are read with `resources/read` like any other.
   */
  fetchUrls?: UrlFetcher;
  signal?: AbortSignal;
}

export const DEFAULT_MAX_LINK_BYTES = 1024 * 1024;
export const DEFAULT_BUDGET_BYTES = 4 * 1024 * 1024;
export const DEFAULT_CONCURRENCY = 4;

export interface Limits {
  maxLinkBytes: number;
  budgetBytes: number;
  concurrency: number;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(typeof value === 'number' && value >= 0 && !Number.isNaN(value)))
    throw new TypeError(`resolve(): ${name} must be a number >= 0, got ${String(value)}`);
  return value;
}

export function limitsOf(policy: ResolvePolicy): Limits {
  const concurrency = positive(policy.concurrency, DEFAULT_CONCURRENCY, 'concurrency');
  return {
    maxLinkBytes: positive(policy.maxLinkBytes, DEFAULT_MAX_LINK_BYTES, 'maxLinkBytes'),
    budgetBytes: positive(policy.budgetBytes, DEFAULT_BUDGET_BYTES, 'budgetBytes'),
    concurrency: Math.max(1, Math.floor(concurrency)),
  };
}

export function isSelected(policy: ResolvePolicy, link: LinkInfo): boolean {
  const select = policy.select ?? (policy.consent ? 'all' : 'none');
  if (select === 'none') return false;
  if (select === 'all') return true;
  return select(link) === true;
}

/** The scheme of a URI, lower-cased, without the colon. */
export function schemeOf(uri: string): string {
  const colon = uri.indexOf(':');
  return colon > 0 ? uri.slice(0, colon).toLowerCase() : '';
}

/** Without parameters, lower-cased: `Text/HTML; charset=utf-8` is `text/html`. */
export function essence(mime: string): string {
  const semi = mime.indexOf(';');
  return (semi < 0 ? mime : mime.slice(0, semi)).trim().toLowerCase();
}

export function mimeAllowed(patterns: readonly string[] | undefined, mime: string): boolean {
  if (!patterns) return true;
  const type = essence(mime);
  return patterns.some((p) => {
    const want = essence(p);
    if (want === '*/*' || want === '*') return true;
    if (want.endsWith('/*')) return type.startsWith(want.slice(0, -1));
    return type === want;
  });
}

export interface Refusal {
  code: RefusalCode;
  reason: string;
}

const shown = (value: string): string => JSON.stringify(value);

/** The checks a link can fail before anything is read: scheme, declared MIME type, claimed size. */
export function refuseBeforeRead(
  policy: ResolvePolicy,
  limits: Limits,
  link: LinkInfo,
): Refusal | undefined {
  const scheme = schemeOf(link.uri);
  if (policy.schemes && !policy.schemes.some((s) => s.toLowerCase().replace(/:$/, '') === scheme))
    return {
      code: 'scheme',
      reason: `scheme: ${shown(scheme)} is not among the allowed schemes (${policy.schemes.join(', ')})`,
    };
  if (link.mimeType !== undefined && !mimeAllowed(policy.mimeTypes, link.mimeType))
    return {
      code: 'mime',
      reason: `mime: the link declares ${shown(link.mimeType)}, not among the allowed types (${policy.mimeTypes?.join(', ')})`,
    };
  if (link.size !== undefined && link.size > limits.maxLinkBytes)
    return {
      code: 'size',
      reason: `size: the link declares ${link.size} bytes, over the per-link limit of ${limits.maxLinkBytes}`,
    };
  return undefined;
}

/** The checks of what a read brought: the contents' MIME types and their size. */
export function refuseAfterRead(
  policy: ResolvePolicy,
  limits: Limits,
  contents: ReadonlyArray<{ mimeType: string; uri: string }>,
  bytes: number,
): Refusal | undefined {
  const bad = contents.find((c) => !mimeAllowed(policy.mimeTypes, c.mimeType));
  if (bad)
    return {
      code: 'mime',
      reason: `mime: the contents of ${shown(bad.uri)} are ${shown(bad.mimeType)}, not among the allowed types (${policy.mimeTypes?.join(', ')})`,
    };
  if (bytes > limits.maxLinkBytes)
    return {
      code: 'size',
      reason: `size: the read brought ${bytes} bytes, over the per-link limit of ${limits.maxLinkBytes}`,
    };
  return undefined;
}
