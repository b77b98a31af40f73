/**
 * `resources/read` of a link-store artifact: whole when its answer fits this connection's cap,
 * else in parts, as the filesystem provider reads a large file: `…?offset=N&length=M` gives the
 * bytes from `offset` (of the UTF-8 text, or of the decoded blob), each part naming the next in
 * `_meta["dev.mcpkit/part"]`. An artifact never changes (its URI is a MAC of its content), so a
 * walk needs no version pin; a `version` is accepted when it is the artifact's own.
 */
import {
  ARTIFACT_PART_BYTES,
  ARTIFACT_PARTS_TEMPLATE,
  artifactReadBytes,
  artifactVersion,
  cutPart,
  partInfo,
  partUri,
} from '../content/artifact-parts.js';
import { decodeBase64, encodeBase64 } from '../content/blob.js';
import { PART_META_KEY } from '../content/policy.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { resultTooLarge } from '../errors/wire-errors.js';
import type { ResourceContents } from '../protocol/types.js';
import type { StoredArtifact } from './link-store.js';

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

function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

function integerOf(uri: string, name: string, value: string): number {
  if (!DIGITS.test(value))
    throw badParameter(
      uri,
      name,
      'not-an-integer',
      `must be a decimal integer, got ${shown(value)}`,
    );
  const n = Number(value);
  if (!Number.isSafeInteger(n))
    throw badParameter(uri, name, 'unsafe-integer', `must be at most ${Number.MAX_SAFE_INTEGER}`);
  return n;
}

function decoded(uri: string, name: string, value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw badParameter(uri, name, 'malformed', `is not valid percent-encoding: ${shown(value)}`);
  }
}

/** Splits `uri` (one the store owns); throws -32602 naming a query parameter it cannot use. */
export function artifactTarget(uri: string): ArtifactTarget {
  const at = uri.indexOf('?');
  if (at < 0) return { base: uri };
  const base = uri.slice(0, at);
  const seen = new Map<string, string>();
  for (const pair of uri.slice(at + 1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decoded(uri, 'query', eq < 0 ? pair : pair.slice(0, eq));
    const value = decoded(uri, name, eq < 0 ? '' : pair.slice(eq + 1));
    const known = name === 'offset' || name === 'length' || name === 'version';
    if (!known || seen.has(name))
      throw badParameter(
        uri,
        name,
        known ? 'repeated' : 'unknown',
        `is not a parameter of ${ARTIFACT_PARTS_TEMPLATE} (give offset and length, once each)`,
      );
    seen.set(name, value);
  }
  const version = seen.get('version');
  if (version !== undefined && version !== artifactVersion(base))
    throw badParameter(
      uri,
      'version',
      'not-this-artifact',
      `is not this artifact's version (${artifactVersion(base)}; an artifact never changes)`,
    );
  const offset = seen.has('offset') ? integerOf(uri, 'offset', seen.get('offset') ?? '') : 0;
  const length = seen.has('length')
    ? integerOf(uri, 'length', seen.get('length') ?? '')
    : ARTIFACT_PART_BYTES;
  if (length === 0) throw badParameter(uri, 'length', 'zero', 'must be at least 1, got "0"');
  return { base, part: { offset, length } };
}

/**
 * One server's artifact bytes, kept with the stored object while it lives: a walk reads many
 * parts of one artifact, and encoding it again for each would make the walk quadratic.
 */
export class ArtifactBytes {
  private readonly kept = new WeakMap<StoredArtifact, Uint8Array>();

  of(a: StoredArtifact): Uint8Array {
    let bytes = this.kept.get(a);
    if (!bytes) {
      bytes = a.text !== undefined ? new TextEncoder().encode(a.text) : decodeBase64(a.blob ?? '');
      this.kept.set(a, bytes);
    }
    return bytes;
  }
}

function contentsOf(uri: string, a: StoredArtifact): ResourceContents {
  return a.text !== undefined
    ? { uri, mimeType: a.mimeType, text: a.text }
    : { uri, mimeType: a.mimeType, blob: a.blob ?? '' };
}

/** Whether the whole artifact's answer fits `capBytes`. */
export function fitsWhole(uri: string, a: StoredArtifact, capBytes: number): boolean {
  return artifactReadBytes(uri, a.mimeType, a) <= capBytes;
}

/** The first part of an artifact as it will be read within `capBytes`: its URI and length. */
export function firstArtifactPart(
  base: string,
  a: StoredArtifact,
  capBytes: number,
  kept: ArtifactBytes,
): { uri: string; length: number } {
  const cut = cutPart({
    bytes: kept.of(a),
    isText: a.text !== undefined,
    base,
    uri: partUri(base, 0, ARTIFACT_PART_BYTES),
    mimeType: a.mimeType,
    offset: 0,
    length: ARTIFACT_PART_BYTES,
    capBytes,
  });
  return { uri: partUri(base, 0, cut.end), length: cut.end };
}

/** The whole artifact's contents, or -32603 with where its parts start when it cannot fit. */
export function wholeArtifact(
  uri: string,
  a: StoredArtifact,
  capBytes: number,
  kept: ArtifactBytes,
): ResourceContents {
  if (fitsWhole(uri, a, capBytes)) return contentsOf(uri, a);
  const wireBytes = artifactReadBytes(uri, a.mimeType, a);
  const firstPart = firstArtifactPart(uri, a, capBytes, kept).uri;
  throw resultTooLarge(
    `${uri} is too large to return over this connection: ${a.size} bytes, ${wireBytes} on the wire, ` +
      `over the ${capBytes}-byte cap for one result. Read it in parts through ${ARTIFACT_PARTS_TEMPLATE}, ` +
      `starting with ${firstPart} (each part's _meta["${PART_META_KEY}"].next names the next one).`,
    { uri, size: a.size, wireBytes, capBytes, partsTemplate: ARTIFACT_PARTS_TEMPLATE, firstPart },
  );
}

/** -32602 when a part's offset lies past the artifact's end. */
function pastEnd(uri: string, offset: number, size: number): ProtocolError {
  return ProtocolError.invalidParams(
    `Invalid part ${uri}: "offset" ${offset} lies past the end of the artifact (${size} bytes)`,
    { uri, parameter: 'offset', reason: 'past-end', size },
  );
}

/** Whether the part `target` names lies inside the artifact (the link check of a part URI). */
export function partExists(
  target: ArtifactTarget,
  a: StoredArtifact,
  kept: ArtifactBytes,
): boolean {
  if (!target.part) return true;
  const size = kept.of(a).length;
  return target.part.offset < size || (target.part.offset === 0 && size === 0);
}

/** One part of an artifact, cut to fit `capBytes` (see {@link cutPart}). */
export function artifactPart(
  uri: string,
  target: Required<ArtifactTarget>,
  a: StoredArtifact,
  capBytes: number,
  kept: ArtifactBytes,
): ResourceContents {
  const bytes = kept.of(a);
  const isText = a.text !== undefined;
  const { offset, length } = target.part;
  if (!partExists(target, a, kept)) throw pastEnd(uri, offset, bytes.length);
  const { start, end } = cutPart({
    bytes,
    isText,
    base: target.base,
    uri,
    mimeType: a.mimeType,
    offset,
    length,
    capBytes,
  });
  const slice = bytes.subarray(start, end);
  const meta = { [PART_META_KEY]: partInfo(target.base, start, end, bytes.length, length) };
  return isText
    ? { uri, mimeType: a.mimeType, text: new TextDecoder().decode(slice), _meta: meta }
    : { uri, mimeType: a.mimeType, blob: encodeBase64(slice), _meta: meta };
}

/** What `stat` says of an artifact URI or one of its parts, told the cap of this request. */
export function artifactStat(
  target: ArtifactTarget,
  a: StoredArtifact,
  capBytes: number,
  kept: ArtifactBytes,
): { size: number; mimeType: string; firstPart?: string } | undefined {
  if (target.part) {
    if (!partExists(target, a, kept)) return undefined;
    const size = kept.of(a).length;
    return { size: Math.min(target.part.length, size - target.part.offset), mimeType: a.mimeType };
  }
  if (fitsWhole(target.base, a, capBytes)) return { size: a.size, mimeType: a.mimeType };
  return {
    size: a.size,
    mimeType: a.mimeType,
    firstPart: firstArtifactPart(target.base, a, capBytes, kept).uri,
  };
}
