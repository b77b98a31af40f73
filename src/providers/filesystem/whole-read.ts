/** `resources/read` of a whole file (`file:///{+path}`): its contents, or why there are none. */
import { resourceRefused } from '../../errors/wire-errors.js';
import { asBlobString } from '../../content/streamed-body.js';
import { versionedRead, type ReadReturn, type VersionedRead } from '../../server/index.js';
import type { FileContents } from './read-file.js';
import type { WholeReadOutcome } from './streamed-file.js';
import { fileChanged, metaOf, tooLarge, wholeEnvelope } from './wire.js';

/** What a whole read needs of its provider. */
export interface WholeReadSource {
  readonly partsTemplate: string;
  /** The URI of the first part of a file, named when it cannot be read whole. */
  firstPart(relative: string): string;
  /**
   * Reads a file whose text or blob may take at most `limit` bytes on the wire; without a
   * promise when it was read at once.
   */
  read(relative: string, limit: number): WholeReadOutcome | Promise<WholeReadOutcome>;
}

/** A whole read's answer: the cached version it served, a streamed blob, or nothing there. */
type WholeAnswer = ReadReturn | VersionedRead<ReadReturn> | undefined;

/**
 * One contents item (uri, mimeType, text or blob, `_meta` with size and modification time);
 * undefined when nothing is served there. A file that cannot fit the result cap is refused
 * with -32603 naming the parts template, from the limit its body was held to.
 */
export function readWhole(
  uri: string,
  relative: string,
  ctx: { readonly capBytes: number },
  source: WholeReadSource,
): WholeAnswer | Promise<WholeAnswer> {
  // The limit the text or blob is compared with: the one a refusal reports.
  const limit = ctx.capBytes - wholeEnvelope(uri);
  const outcome = source.read(relative, limit);
  return outcome instanceof Promise
    ? outcome.then((o) => answerOf(uri, relative, limit, source, o))
    : answerOf(uri, relative, limit, source, outcome);
}

/** The contents item of a whole read's outcome, or the error it is. */
function answerOf(
  uri: string,
  relative: string,
  limit: number,
  source: WholeReadSource,
  outcome: WholeReadOutcome,
): WholeAnswer {
  switch (outcome.kind) {
    case 'missing':
      return undefined;
    case 'refused':
      throw resourceRefused(uri, outcome.reason);
    case 'too-large':
      throw tooLarge(uri, outcome.size, outcome.wireBytes, limit, {
        partsTemplate: source.partsTemplate,
        firstPart: source.firstPart(relative),
      });
    case 'changed':
      throw fileChanged(uri, outcome.attempts);
    case 'ok': {
      const c = outcome.contents;
      // The cached contents stand for this file version: its answer is encoded once, and built
      // only when no encoded one is kept (a repeated read builds nothing).
      return versionedRead(() => ({ contents: [itemOf(uri, c)] }), c);
    }
    case 'streamed': {
      const { mimeType, body, size, mtimeMs } = outcome.contents;
      const blob = asBlobString(body);
      return { contents: [{ uri, mimeType, blob, _meta: metaOf(size, mtimeMs) }] };
    }
  }
}

/** The contents item of `c` at `uri`, with `_meta` (size, modification time). */
function itemOf(uri: string, c: FileContents) {
  const meta = metaOf(c.size, c.mtimeMs);
  // Two literals, not a spread of the body: one shape each, built without a runtime call.
  return c.text !== undefined
    ? { uri, mimeType: c.mimeType, text: c.text, _meta: meta }
    : { uri, mimeType: c.mimeType, blob: c.blob as string, _meta: meta };
}
