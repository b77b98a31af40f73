/**
 * `resources/read` of a link-store artifact: whole when its answer fits this connection's cap,
 * else in parts, as the filesystem provider reads a large file: `…?offset=N&length=M` gives the
 * bytes from `offset` (of the UTF-8 text, or of the decoded blob), each part naming the next in
 * `_meta["dev.mcpkit/part"]`. An artifact never changes (its URI is a MAC of its content), so a
 * walk needs no version pin.
 */
import { decodeBase64, encodeBase64 } from '../content/blob.js';
import { PART_META_KEY } from '../content/policy.js';
import { boundaryAtOrBefore, textPartEnd } from '../content/utf8-cut.js';
import { jsonStringWireSize, utf8Length } from '../content/wire-size.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { resultTooLarge } from '../errors/wire-errors.js';
import type { ResourceContents } from '../protocol/types.js';
import { ARTIFACT_URI_PREFIX, type StoredArtifact } from './link-store.js';

/** Bytes of one part when a part URI gives no `length` (1 MiB, as for files). */
export const ARTIFACT_PART_BYTES = 1024 * 1024;

/** The URIs of an artifact's parts, as a template. */
export const ARTIFACT_PARTS_TEMPLATE = `${ARTIFACT_URI_PREFIX}{id}{?offset,length}`;

/** What a read answers besides the contents' own string: the result's other fields, with slack. */
const RESULT_OVERHEAD = 96;

const DIGITS = /^[0-9]+$/;

/** An artifact URI split into the stored one and, for a part, the range it asks for. */
export interface ArtifactTarget {
  /** The URI the link store knows (no query). */
  readonly base: string;
  readonly part?: { readonly offset: number; readonly length: number };
}

function badParameter(uri: string, parameter: string, reason: string, problem: string) {
  return ProtocolError.invalidParams(`Invalid part ${uri}: "${parameter}" ${problem}`, {
    uri,
    parameter,
    reason,
  });
}

function integerOf(uri: string, name: string, value: string): number {
  const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (!DIGITS.test(value))
    throw badParameter(uri, name, 'not-an-integer', `must be a decimal integer, got ${shown}`);
  const n = Number(value);
  if (!Number.isSafeInteger(n))
    throw badParameter(uri, name, 'unsafe-integer', `must be at most ${Number.MAX_SAFE_INTEGER}`);
  return n;
}

/** Splits `uri` (one the store owns); throws -32602 naming a query parameter it cannot use. */
export function artifactTarget(uri: string): ArtifactTarget {
  const at = uri.indexOf('?');
  if (at < 0) return { base: uri };
  const base = uri.slice(0, at);
  let offset: number | undefined;
  let length: number | undefined;
  for (const pair of uri.slice(at + 1).split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    if (name === 'offset' && offset === undefined) offset = integerOf(uri, name, value);
    else if (name === 'length' && length === undefined) length = integerOf(uri, name, value);
    else
      throw badParameter(
        uri,
        name,
        name === 'offset' || name === 'length' ? 'repeated' : 'unknown',
        `is not a parameter of ${ARTIFACT_PARTS_TEMPLATE} (give offset and length, once each)`,
      );
  }
  if (length === 0) throw badParameter(uri, 'length', 'zero', 'must be at least 1, got "0"');
  return { base, part: { offset: offset ?? 0, length: length ?? ARTIFACT_PART_BYTES } };
}

export function partUri(base: string, offset: number, length: number): string {
  return `${base}?offset=${offset}&length=${length}`;
}

function contentsOf(
  uri: string,
  a: Pick<StoredArtifact, 'mimeType' | 'text' | 'blob'>,
): ResourceContents {
  return a.text !== undefined
    ? { uri, mimeType: a.mimeType, text: a.text }
    : { uri, mimeType: a.mimeType, blob: a.blob ?? '' };
}

/** Wire bytes of a whole read of the artifact at `uri`, from its string alone. */
export function artifactReadBytes(
  uri: string,
  a: Pick<StoredArtifact, 'mimeType' | 'text' | 'blob'>,
): number {
  const body = a.text !== undefined ? jsonStringWireSize(a.text) : (a.blob ?? '').length + 2;
  return body + utf8Length(JSON.stringify({ uri, mimeType: a.mimeType })) + RESULT_OVERHEAD;
}

/** The first part's URI of an artifact too large to read whole within `capBytes`. */
export function firstArtifactPart(
  base: string,
  a: Pick<StoredArtifact, 'blob'>,
  capBytes: number,
): { uri: string; length: number } {
  // A blob part's base64 is 4/3 of its bytes: ask for what fits, so the part is not cut.
  const fits = a.blob !== undefined ? Math.floor((capBytes - 512) / 4) * 3 : ARTIFACT_PART_BYTES;
  const length = Math.max(1, Math.min(ARTIFACT_PART_BYTES, fits));
  return { uri: partUri(base, 0, length), length };
}

/** The whole artifact's contents, or -32603 with where its parts start when it cannot fit. */
export function wholeArtifact(uri: string, a: StoredArtifact, capBytes: number): ResourceContents {
  const wireBytes = artifactReadBytes(uri, a);
  if (wireBytes <= capBytes) return contentsOf(uri, a);
  const firstPart = firstArtifactPart(uri, a, capBytes).uri;
  throw resultTooLarge(
    `${uri} is too large to return over this connection: ${a.size} bytes, ${wireBytes} on the wire, ` +
      `over the ${capBytes}-byte cap for one result. Read it in parts through ${ARTIFACT_PARTS_TEMPLATE}, ` +
      `starting with ${firstPart} (each part's _meta["${PART_META_KEY}"].next names the next one).`,
    {
      uri,
      size: a.size,
      wireBytes,
      capBytes,
      partsTemplate: ARTIFACT_PARTS_TEMPLATE,
      firstPart,
    },
  );
}

/**
 * One part of an artifact: the asked range, a text part starting at the character `offset`
 * falls in and ending at a line or character boundary, cut further to fit `capBytes`.
 */
export function artifactPart(
  uri: string,
  target: Required<ArtifactTarget>,
  a: StoredArtifact,
  capBytes: number,
): ResourceContents {
  const isText = a.text !== undefined;
  const bytes = isText ? new TextEncoder().encode(a.text) : decodeBase64(a.blob ?? '');
  const size = bytes.length;
  const { offset, length } = target.part;
  if (offset > size || (offset === size && size > 0))
    throw ProtocolError.invalidParams(
      `Invalid part ${uri}: "offset" ${offset} lies past the end of the artifact (${size} bytes)`,
      { uri, parameter: 'offset', reason: 'past-end', size },
    );
  const start = isText ? boundaryAtOrBefore(bytes, offset) : offset;
  let end = Math.min(size, offset + length);
  if (isText && end < size) end = textPartEnd(bytes, start, end);
  const base = (stop: number) =>
    utf8Length(JSON.stringify({ uri, mimeType: a.mimeType })) +
    RESULT_OVERHEAD +
    utf8Length(JSON.stringify(partInfo(target.base, start, stop, size, length)));
  for (;;) {
    const slice = bytes.subarray(start, end);
    const body = isText
      ? jsonStringWireSize(new TextDecoder().decode(slice))
      : Math.ceil(slice.length / 3) * 4 + 2;
    const wire = body + base(end);
    if (wire <= capBytes) break;
    // Escapes made it too large: shrink in proportion (always by at least a byte), measure again.
    const room = Math.floor(((end - start) * (capBytes - base(end))) / body) - 8;
    const want = Math.min(start + Math.max(0, room), end - 1);
    const next = want <= start ? end : isText ? textPartEnd(bytes, start, want) : want;
    if (next >= end)
      throw resultTooLarge(
        `${uri}: not even one character of this part fits the ${capBytes}-byte cap for one result`,
        { uri, size, wireBytes: wire, capBytes },
      );
    end = next;
  }
  const slice = bytes.subarray(start, end);
  const meta = { [PART_META_KEY]: partInfo(target.base, start, end, size, length) };
  return isText
    ? { uri, mimeType: a.mimeType, text: new TextDecoder().decode(slice), _meta: meta }
    : { uri, mimeType: a.mimeType, blob: encodeBase64(slice), _meta: meta };
}

function partInfo(base: string, start: number, end: number, size: number, length: number) {
  const info: Record<string, unknown> = {
    offset: start,
    length: end - start,
    size,
    // An artifact never changes: its version is its name.
    version: base.slice(ARTIFACT_URI_PREFIX.length, ARTIFACT_URI_PREFIX.length + 16),
  };
  if (end < size) info['next'] = partUri(base, end, length);
  return info;
}
