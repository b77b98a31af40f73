/**
 * The parts of a link-store artifact, pure: where a part of its bytes ends so that the answer to
 * `resources/read` fits a cap, and what that part says of itself in `_meta["dev.mcpkit/part"]`.
 * The server reads parts with it; the assembler sizes the first part a link will name with it.
 */
import { resultTooLarge } from '../errors/wire-errors.js';
import { decodeBase64 } from './blob.js';
import { PART_META_KEY } from './policy.js';
import { boundaryAtOrBefore, textPartEnd } from './utf8-cut.js';
import { jsonStringWireSize, utf8Length } from './wire-size.js';

export const ARTIFACT_PREFIX = 'mcpkit://artifacts/';

/** Bytes of one part when a part URI gives no `length` (1 MiB, as for files). */
export const ARTIFACT_PART_BYTES = 1024 * 1024;

/** The URIs of an artifact's parts, as a template. */
export const ARTIFACT_PARTS_TEMPLATE = `${ARTIFACT_PREFIX}{id}{?offset,length}`;

/**
 * What a read answers besides the contents' string, `uri`, `mimeType` and `_meta`: the keys,
 * `ttlMs`, `cacheScope`, `resultType`, with slack. The JSON-RPC envelope is outside the cap.
 */
const RESULT_OVERHEAD = 128;

export function partUri(base: string, offset: number, length: number): string {
  return `${base}?offset=${offset}&length=${length}`;
}

/** The version parts report: an artifact never changes, so its version is its name. */
export function artifactVersion(base: string): string {
  return base.slice(ARTIFACT_PREFIX.length, ARTIFACT_PREFIX.length + 16);
}

/** Wire bytes of a whole read of an artifact at `uri`, from its string alone. */
export function artifactReadBytes(
  uri: string,
  mimeType: string,
  content: { text?: string | undefined; blob?: string | undefined },
  textWire?: number,
): number {
  const body =
    content.text !== undefined
      ? (textWire ?? jsonStringWireSize(content.text))
      : (content.blob ?? '').length + 2;
  return body + utf8Length(JSON.stringify({ uri, mimeType })) + RESULT_OVERHEAD;
}

/** `_meta["dev.mcpkit/part"]` of the part `[start, end)` of `size` bytes. */
export function partInfo(
  base: string,
  start: number,
  end: number,
  size: number,
  length: number,
): Record<string, unknown> {
  const info: Record<string, unknown> = {
    offset: start,
    length: end - start,
    size,
    version: artifactVersion(base),
  };
  if (end < size) info['next'] = partUri(base, end, length);
  return info;
}

export interface PartCut {
  /** The artifact's bytes: UTF-8 of its text, or its decoded blob. */
  readonly bytes: Uint8Array;
  readonly isText: boolean;
  /** The stored URI (no query) and the type, as the answer carries them. */
  readonly base: string;
  readonly uri: string;
  readonly mimeType: string;
  readonly offset: number;
  readonly length: number;
  readonly capBytes: number;
}

/**
 * Where the part `cut` asks for starts and ends: a text part starts at the character `offset`
 * falls in and ends at a line or character boundary; either is cut further, to a line where it
 * can, until its answer fits `capBytes`. Throws -32603 when not one character fits.
 */
export function cutPart(cut: PartCut): { start: number; end: number } {
  const { bytes, isText, offset, length, capBytes } = cut;
  const size = bytes.length;
  const start = isText ? boundaryAtOrBefore(bytes, offset) : offset;
  let end = Math.min(size, offset + length);
  if (isText && end < size) end = textPartEnd(bytes, start, end);
  const around = (stop: number) =>
    utf8Length(JSON.stringify({ uri: cut.uri, mimeType: cut.mimeType })) +
    RESULT_OVERHEAD +
    utf8Length(JSON.stringify({ [PART_META_KEY]: partInfo(cut.base, start, stop, size, length) }));
  for (;;) {
    const slice = bytes.subarray(start, end);
    const body = isText
      ? jsonStringWireSize(new TextDecoder().decode(slice))
      : Math.ceil(slice.length / 3) * 4 + 2;
    const wire = body + around(end);
    if (wire <= capBytes) return { start, end };
    // Escapes or the envelope made it too large: shrink in proportion (at least a byte), measure again.
    const room = Math.floor(((end - start) * (capBytes - around(end))) / body) - 8;
    const want = Math.min(start + Math.max(0, room), end - 1);
    const next = want <= start ? end : isText ? textPartEnd(bytes, start, want) : want;
    if (next >= end)
      throw resultTooLarge(
        `${cut.uri}: not even one character of this part fits the ${capBytes}-byte cap for one result`,
        { uri: cut.uri, size, wireBytes: wire, capBytes },
      );
    end = next;
  }
}

/**
 * The length of the first part a link names for content that will be an artifact too large to
 * read whole within `capBytes`, or undefined when a whole read fits. Measured with an artifact
 * URI's length, as the server will cut that part.
 */
export function artifactFirstPart(
  content: { text?: string | undefined; blob?: string | undefined; bytes?: Uint8Array | undefined },
  mimeType: string,
  capBytes: number,
  textWire?: number,
): number | undefined {
  const base = ARTIFACT_PREFIX + '0'.repeat(64);
  const isText = content.text !== undefined;
  const blobChars = isText
    ? 0
    : content.blob !== undefined
      ? content.blob.length
      : Math.ceil((content.bytes?.length ?? 0) / 3) * 4;
  const whole = isText
    ? artifactReadBytes(base, mimeType, { text: content.text }, textWire)
    : blobChars + artifactReadBytes(base, mimeType, { blob: '' });
  if (whole <= capBytes) return undefined;
  const bytes = isText
    ? new TextEncoder().encode(content.text)
    : (content.bytes ?? decodeBase64(content.blob ?? ''));
  const { end } = cutPart({
    bytes,
    isText,
    base,
    uri: partUri(base, 0, ARTIFACT_PART_BYTES),
    mimeType,
    offset: 0,
    length: ARTIFACT_PART_BYTES,
    capBytes,
  });
  return end;
}
