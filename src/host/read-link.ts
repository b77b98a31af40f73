/**
 * One read of one link: through `resources/read` on the server that produced it, or (an http(s)
 * link, when the policy hands a fetcher) by the host through the SSRF guard. Never throws: every
 * way it can end is an outcome-shaped answer.
 */
import { isTextMimeType, sniffMime, DEFAULT_BINARY_MIME } from '../content/index.js';
import { utf8Length } from '../content/wire-size.js';
import { isMcpKitError } from '../errors/index.js';
import { decodeContents } from './decode.js';
import { essence, schemeOf } from './policy.js';
import type { DecodedContents, RefusalCode, ResolverClient, UrlFetcher } from './types.js';

export type ReadAnswer =
  | {
      kind: 'read';
      contents: DecodedContents[];
      bytes: number;
      source: 'server' | 'fetch';
      ttlMs: number;
      shared: boolean;
    }
  | {
      kind: 'refused';
      code: RefusalCode;
      by: 'guard' | 'policy';
      reason: string;
      /** Bytes read before the read was stopped (charged to the turn's budget). */
      bytes?: number;
    }
  | {
      kind: 'failed';
      code: string;
      reason: string;
      error: unknown;
      /** What the failure brought and its outcome keeps (an error's data, a body): charged. */
      bytes?: number;
    };

export interface ReadRequest {
  client: ResolverClient;
  uri: string;
  fetchUrls: UrlFetcher | undefined;
  maxBytes: number;
  signal: AbortSignal | undefined;
  timeoutMs: number | undefined;
}

const GUARD_REFUSALS = new Set(['GUARD_BLOCKED', 'GUARD_BAD_URL']);
const MiB = 1024 * 1024;

/**
 * The most bytes a link's answer may take on the wire for `maxLinkBytes` decoded bytes: base64
 * takes 4/3 and the JSON around it a little, so the read stops at most about 1 MiB past the
 * limit (a link that lies about its size costs no more). Undefined: no limit.
 */
export function wireBytesFor(maxLinkBytes: number): number | undefined {
  if (!Number.isFinite(maxLinkBytes)) return undefined;
  const limit = Math.floor(maxLinkBytes);
  return limit + Math.min(Math.ceil(limit / 3), MiB) + 64 * 1024;
}

function failedFrom(error: unknown, req: ReadRequest): ReadAnswer {
  if (isMcpKitError(error)) {
    if (GUARD_REFUSALS.has(error.code))
      return { kind: 'refused', code: 'guard', by: 'guard', reason: `guard: ${error.message}` };
    if (error.code === 'GUARD_TOO_LARGE') {
      const reason = `size: ${error.message}`;
      return { kind: 'refused', code: 'size', by: 'policy', reason, bytes: req.maxBytes };
    }
    const wire = wireBytesFor(req.maxBytes);
    if (error.code === 'RESPONSE_TOO_LARGE' && wire !== undefined) {
      return {
        kind: 'refused',
        code: 'size',
        by: 'policy',
        reason: `size: the answer passed ${wire} bytes on the wire, more than the per-link limit of ${req.maxBytes} (maxLinkBytes) allows; reading stopped there${error.message.includes('connection was ended') ? ' and the stdio connection was ended (the rest of a line cannot be skipped)' : ''}`,
        bytes: wire,
      };
    }
    const reason = `${error.code}: ${error.message}`;
    return { kind: 'failed', code: error.code, reason, error, bytes: errorBytes(error) };
  }
  const code =
    typeof (error as { code?: unknown })?.code === 'number'
      ? `JSONRPC_${(error as { code: number }).code}`
      : 'READ_FAILED';
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'failed', code, reason: `${code}: ${message}`, error, bytes: errorBytes(error) };
}

/**
 * The bytes of what a failed read brought and its outcome keeps: the error's message, its
 * `data` (a JSON-RPC error's, as JSON) and an HTTP error's `body`. A server that answers every
 * link with a large error must not bring more than the turn's budget.
 */
function errorBytes(error: unknown): number {
  if (typeof error !== 'object' || error === null) return 0;
  const { message, data, body } = error as { message?: unknown; data?: unknown; body?: unknown };
  let bytes = typeof message === 'string' ? utf8Length(message) : 0;
  if (typeof body === 'string') bytes += utf8Length(body);
  if (data !== undefined) {
    try {
      bytes += utf8Length(JSON.stringify(data) ?? '');
    } catch {
      // Not JSON (a cycle): it did not come over the wire.
    }
  }
  return bytes;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

async function fetched(url: string, bytes: Uint8Array, type: string | undefined) {
  const warnings: string[] = [];
  let mimeType = type === undefined || type === '' ? undefined : essence(type);
  if (mimeType === undefined) {
    mimeType = (await sniffMime(bytes)) ?? DEFAULT_BINARY_MIME;
    warnings.push(`${url} came without a Content-Type; ${mimeType} assumed`);
  }
  const contents: DecodedContents = { uri: url, mimeType, bytes, size: bytes.length, warnings };
  if (isTextMimeType(mimeType)) {
    try {
      contents.text = fatalUtf8.decode(bytes);
    } catch {
      warnings.push(`${url} is declared ${mimeType} but is not UTF-8; kept as bytes`);
    }
  }
  return contents;
}

export async function readLink(req: ReadRequest): Promise<ReadAnswer> {
  const scheme = schemeOf(req.uri);
  try {
    if (req.fetchUrls && (scheme === 'http' || scheme === 'https')) {
      const options: { signal?: AbortSignal; maxBytes: number } = { maxBytes: req.maxBytes };
      if (req.signal) options.signal = req.signal;
      const got = await req.fetchUrls(req.uri, options);
      const contents = await fetched(got.url, got.bytes, got.mimeType);
      return {
        kind: 'read',
        contents: [contents],
        bytes: contents.size,
        source: 'fetch',
        ttlMs: 0,
        shared: false,
      };
    }
    const options: {
      signal?: AbortSignal;
      timeoutMs?: number;
      cache: boolean;
      maxResponseBytes?: number;
    } = { cache: false };
    if (req.signal) options.signal = req.signal;
    const wire = wireBytesFor(req.maxBytes);
    if (wire !== undefined) options.maxResponseBytes = wire;
    if (req.timeoutMs !== undefined) options.timeoutMs = req.timeoutMs;
    const result = await req.client.readResource(req.uri, options);
    const list: unknown = (result as { contents?: unknown }).contents;
    if (!Array.isArray(list))
      return {
        kind: 'failed',
        code: 'INVALID_RESULT',
        reason: 'INVALID_RESULT: the read result has no contents array',
        error: undefined,
      };
    const contents: DecodedContents[] = [];
    let bytes = 0;
    for (let i = 0; i < list.length; i++) {
      const decoded = await decodeContents(list[i], `contents[${i}]`);
      if ('error' in decoded) {
        const code = decoded.error.startsWith('INVALID_BASE64')
          ? 'INVALID_BASE64'
          : 'INVALID_CONTENT';
        const reason = decoded.error.startsWith(code) ? decoded.error : `${code}: ${decoded.error}`;
        return { kind: 'failed', code, reason, error: undefined };
      }
      contents.push(decoded.contents);
      bytes += decoded.contents.size;
    }
    const ttl = (result as { ttlMs?: unknown }).ttlMs;
    const scope = (result as { cacheScope?: unknown }).cacheScope;
    return {
      kind: 'read',
      contents,
      bytes,
      source: 'server',
      ttlMs: typeof ttl === 'number' ? ttl : 0,
      // The schema's scopes are "private" and "public": only a public answer may be shared.
      shared: scope === 'public',
    };
  } catch (error) {
    return failedFrom(error, req);
  }
}
