/**
 * Checks of content as the server sent it: blobs (base64, `mimeType`, the bytes against the
 * declared type), URIs, embedded blocks (resources, images, audio) against the block budget; and
 * the links met, collected for the link checks.
 */
import { contentWireSize, decodeBase64, repairBase64, utf8Length } from '../content/index.js';
import { SNIFF_SAMPLE } from '../content/mime.js';
import { decodedBase64Length, findBase64Problem, uriProblem } from '../protocol/index.js';
import type { ContentBlock } from '../protocol/index.js';
import type { AnswerContext } from './audit-answer.js';
import { pointer, quote, type Place } from './audit-findings.js';
import { mimeContradiction } from './audit-mime.js';
import type { TimeoutStreak } from './audit-read.js';

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface ContentContext extends AnswerContext {
  /** Embedded blocks larger than this on the wire get `embed-over-budget`. */
  blockBudgetBytes: number;
  /** Counts timeouts in a row across the walk (absent: the walk never stops early). */
  timeouts?: TimeoutStreak;
}

/** One contents item of a read: its URI, decoded bytes, and whether it came as `text`. */
export interface ReadItem {
  uri: unknown;
  bytes: number;
  text: boolean;
}

/** The UTF-8 byte order mark, as `fs.stat` counts it and a text contents item does not. */
const UTF8_BOM_BYTES = 3;

/**
 * Whether a `size` (listed, or a link's) contradicts the bytes read. A text item 3 bytes short is
 * a UTF-8 file whose byte order mark the server dropped when it decoded the text (mcpkit serve
 * lists the file's size): the same content, not a lie.
 */
export function sizeContradicts(size: number, item: ReadItem): boolean {
  if (item.bytes === size) return false;
  return !(item.text && item.bytes + UTF8_BOM_BYTES === size);
}

/** A `resource_link` met in a tool result or prompt. */
export interface LinkMet {
  uri: string;
  name?: string;
  mimeType?: string;
  size?: number;
  /** The request whose answer held it, and where. */
  place: Place;
  path: string;
}

/** Checks a URI; true when it is a valid RFC 3986 URI. */
export function checkUri(uri: unknown, path: string, place: Place, ctx: AnswerContext): boolean {
  if (typeof uri !== 'string') return false;
  const problem = uriProblem(uri);
  if (problem === undefined) return true;
  // One finding per URI, wherever else it shows up.
  if (ctx.log.findings.some((f) => f.code === 'uri-invalid' && f.uri === uri)) return false;
  ctx.log.add({
    code: 'uri-invalid',
    message: `${quote(uri)} is not an RFC 3986 URI: ${problem}`,
    path,
    ...place,
    uri,
  });
  return false;
}

/** Decoded length of canonical base64 of length `n` ending in `pad` '='. */
/** The first bytes of canonical base64, enough to sniff. */
function sampleOf(canonical: string): Uint8Array {
  const chars = Math.min(canonical.length, Math.ceil(SNIFF_SAMPLE / 3) * 4);
  return decodeBase64(canonical.slice(0, chars));
}

/**
 * Checks base64 (a blob, or image/audio `data`); returns the decoded size and a sample of the
 * bytes (none when it is not base64 at all).
 */
function checkBase64(
  value: string,
  path: string,
  place: Place,
  ctx: AnswerContext,
): { bytes: number; sample?: Uint8Array } {
  const problem = findBase64Problem(value);
  if (problem === undefined) return { bytes: decodedBase64Length(value), sample: sampleOf(value) };
  const repaired = repairBase64(value);
  if (repaired === undefined) {
    ctx.log.add({
      code: 'blob-invalid-base64',
      message: `not base64: ${problem.reason} (offset ${problem.offset})`,
      path,
      ...place,
    });
    return { bytes: decodedBase64Length(value) };
  }
  ctx.log.add({
    code: 'blob-noncanonical-base64',
    message: `base64 that decodes but is not canonical (${problem.reason}); a strict client refuses it: ${repaired.fixes.join(', ')}`,
    path,
    ...place,
  });
  return { bytes: decodedBase64Length(repaired.base64), sample: sampleOf(repaired.base64) };
}

async function checkMime(
  declared: unknown,
  sample: Uint8Array | undefined,
  path: string,
  place: Place,
  ctx: AnswerContext,
): Promise<void> {
  if (typeof declared !== 'string' || sample === undefined) return;
  const why = await mimeContradiction(declared, sample);
  if (why) ctx.log.add({ code: 'mime-mismatch', message: why, path, ...place });
}

/**
 * Checks one resource contents item (of a read, or inside an embedded resource); returns its
 * decoded size (UTF-8 bytes for text).
 */
export async function checkContentsItem(
  item: unknown,
  path: string,
  place: Place,
  ctx: AnswerContext,
): Promise<number> {
  if (!isObj(item)) return 0;
  checkUri(item['uri'], pointer(path, 'uri'), place, ctx);
  if (typeof item['text'] === 'string') return utf8Length(item['text']);
  const blob = item['blob'];
  if (typeof blob !== 'string') return 0;
  const { bytes, sample } = checkBase64(blob, pointer(path, 'blob'), place, ctx);
  if (item['mimeType'] === undefined) {
    ctx.log.add({
      code: 'blob-missing-mime',
      message: 'a blob without mimeType: hosts must guess what the bytes are',
      path: pointer(path, 'mimeType'),
      ...place,
    });
  }
  await checkMime(item['mimeType'], sample, pointer(path, 'mimeType'), place, ctx);
  return bytes;
}

/** Checks `contents` of a `resources/read` answer; returns the decoded bytes of each item. */
export async function checkReadContents(
  raw: unknown,
  place: Place,
  ctx: AnswerContext,
): Promise<ReadItem[]> {
  const contents =
    isObj(raw) && Array.isArray(raw['contents']) ? (raw['contents'] as unknown[]) : [];
  const out: ReadItem[] = [];
  for (let i = 0; i < contents.length; i++) {
    const item = contents[i];
    const bytes = await checkContentsItem(item, pointer('/contents', i), place, ctx);
    const text = isObj(item) && typeof item['text'] === 'string';
    out.push({ uri: isObj(item) ? item['uri'] : undefined, bytes, text });
  }
  return out;
}

/** `embed-over-budget` for a block (an embedded resource, image or audio) over the block budget. */
function checkBlockBudget(block: Obj, path: string, place: Place, ctx: ContentContext): void {
  const wire = contentWireSize(block as unknown as ContentBlock);
  if (wire <= ctx.blockBudgetBytes) return;
  const resource = isObj(block['resource']) ? block['resource'] : undefined;
  const what = resource ? 'an embedded resource' : `an embedded ${String(block['type'])} block`;
  ctx.log.add({
    code: 'embed-over-budget',
    message: `${what} of ${wire} bytes on the wire, over the block budget of ${ctx.blockBudgetBytes} (--block-budget); send a resource_link instead`,
    path,
    ...place,
    ...(typeof resource?.['uri'] === 'string' ? { uri: resource['uri'] } : {}),
  });
}

/**
 * Checks content blocks (a tool result's `content`, each prompt message's `content`), each at
 * its JSON pointer; the links met are appended to `links`.
 */
export async function checkBlocks(
  blocks: ReadonlyArray<{ block: unknown; path: string }>,
  place: Place,
  ctx: ContentContext,
  links: LinkMet[],
): Promise<void> {
  for (const { block, path } of blocks) {
    if (!isObj(block)) continue;
    const type = block['type'];
    if ((type === 'image' || type === 'audio') && typeof block['data'] === 'string') {
      const { sample } = checkBase64(block['data'], pointer(path, 'data'), place, ctx);
      await checkMime(block['mimeType'], sample, pointer(path, 'mimeType'), place, ctx);
      // Image and audio bytes travel inline just as an embedded resource's do.
      checkBlockBudget(block, path, place, ctx);
    } else if (type === 'resource' && isObj(block['resource'])) {
      await checkContentsItem(block['resource'], pointer(path, 'resource'), place, ctx);
      checkBlockBudget(block, path, place, ctx);
    } else if (type === 'resource_link') {
      const uri = block['uri'];
      if (!checkUri(uri, pointer(path, 'uri'), place, ctx)) continue;
      const link: LinkMet = { uri: uri as string, place, path };
      if (typeof block['name'] === 'string') link.name = block['name'];
      if (typeof block['mimeType'] === 'string') link.mimeType = block['mimeType'];
      if (typeof block['size'] === 'number') link.size = block['size'];
      links.push(link);
    }
  }
}
