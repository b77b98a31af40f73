/**
 * The parts template of a served folder, `file:///{+path}{?offset,length,version}`: part URIs,
 * the first part of a file too large to read whole, and `resources/read` of one part.
 */
import { base64Length } from '../../protocol/base64.js';
import { resourceRefused } from '../../errors/wire-errors.js';
import { isTextMimeType, mimeFromName } from '../../content/mime.js';
import { PART_META_KEY } from '../../content/policy.js';
import { parseTemplate, type UriTemplate } from '../../uri/index.js';
import type { ReadReturn, ResourceStat } from '../../server/index.js';
import type { ProviderFs } from './fs-types.js';
import { escapePath } from './paths.js';
import {
  DEFAULT_PART_BYTES,
  PART_QUERY,
  parsePartRequest,
  partMeta,
  partStat,
  type PartRequest,
} from './parts.js';
import { PartScratch, readFilePart, type PartLimit, type PartReadOptions } from './read-part.js';
import type { Containment } from './resolve.js';
import type { StreamLimits } from './stream-steps.js';
import {
  badPartParameter,
  contentsEnvelope,
  fileChanged,
  metaOf,
  partChanged,
  partTooLarge,
  wholeEnvelope,
} from './wire.js';

/** The description of the parts template, as `resources/templates/list` shows it. */
export const PARTS_DESCRIPTION =
  'One part of a file under the served folder, for files too large to read whole. ' +
  '"offset": first byte (default 0); "length": most bytes (default: the server\'s part size); ' +
  '"version": the version of the file a part was read from, so that a walk of a file that ' +
  'changed fails clearly instead of mixing two versions. A part is cut to fit the connection, and ' +
  `a text part ends at a line or character boundary. Each part's _meta["${PART_META_KEY}"] is ` +
  '{ offset, length, size, version, next }: read next until it is absent to get every byte once.';

/** What the parts of a folder need of its provider. */
export interface FilePartsOptions {
  /** The URI prefix of the folder (`file:///`). */
  readonly prefix: string;
  /** The `length` of a part URI that gives none (default 1 MiB). */
  readonly partBytes?: number;
  readonly fs: ProviderFs;
  containment(): Promise<Containment>;
  /** Size and type of a served file, undefined when it is not served (the provider's stat). */
  stat(relative: string): Promise<ResourceStat | undefined>;
  /** What bounds each step of a streamed part's reads (the provider's read time limit). */
  readonly streamLimits?: StreamLimits | undefined;
}

type PartName = { offset: number; length: number; version?: string };

/** Part URIs and part reads of one served folder. */
export class FileParts {
  /** `${prefix}{+path}{?offset,length,version}`. */
  readonly template: string;
  readonly partBytes: number;
  private readonly parsed: UriTemplate;
  private readonly options: FilePartsOptions;
  private readonly scratch = new PartScratch();

  constructor(options: FilePartsOptions) {
    this.options = options;
    this.template = `${options.prefix}{+path}${PART_QUERY}`;
    this.parsed = parseTemplate(this.template);
    this.partBytes = options.partBytes ?? DEFAULT_PART_BYTES;
    if (!Number.isSafeInteger(this.partBytes) || this.partBytes < 1) {
      throw new RangeError(
        `partBytes must be a whole number of bytes, at least 1 (got ${String(options.partBytes)})`,
      );
    }
  }

  /** The URI of a part of a root-relative path: the template expanded, never concatenated. */
  uri(relative: string, { offset, length, version }: PartName): string {
    return this.parsed.expand({ path: escapePath(relative), offset, length, version });
  }

  /** The URI of the first part of a file: offset 0, `partBytes` long, any version. */
  first(relative: string): string {
    return this.uri(relative, { offset: 0, length: this.partBytes });
  }

  /**
   * The first part of a file whose contents cannot fit `capBytes`, judged from its size and type
   * as a whole read judges them before reading; undefined when it may be read whole.
   */
  firstIfTooLarge(
    file: { path: string; size: number; mimeType?: string },
    capBytes: number,
  ): string | undefined {
    const type = file.mimeType ?? mimeFromName(file.path);
    const binary = type !== undefined && !isTextMimeType(type);
    const least = (binary ? base64Length(file.size) : file.size) + 2;
    // With no query, the template expands to the whole file's URI.
    const whole = this.parsed.expand({ path: escapePath(file.path) });
    return least > capBytes - wholeEnvelope(whole) ? this.first(file.path) : undefined;
  }

  /** What `stat` says of a part URI: at most how many bytes it holds, and the file's type. */
  async stat(
    uri: string,
    variables: Record<string, string | string[]>,
  ): Promise<ResourceStat | undefined> {
    const request = this.requestOf(uri, variables);
    if (!request) return undefined;
    const file = await this.options.stat(variables['path'] as string);
    return file && partStat(file, request);
  }

  /**
   * The most bytes the part `uri` names may take, known before anything is read: its length,
   * within `capBytes`. 0 for a URI that names no part (the read says why).
   */
  answerBytes(uri: string, variables: Record<string, string | string[]>, capBytes: number): number {
    const request = this.requestOf(uri, variables);
    return request ? Math.min(request.length, capBytes) : 0;
  }

  /** The part a URI names; undefined for none (a read says what is wrong, these only size it). */
  private requestOf(
    uri: string,
    variables: Record<string, string | string[]>,
  ): PartRequest | undefined {
    if (typeof variables['path'] !== 'string' || !uri.includes('?')) return undefined;
    try {
      return parsePartRequest(uri, variables, this.partBytes);
    } catch {
      return undefined;
    }
  }

  /**
   * Reads the part `uri` names, within `capBytes` for the whole result: one contents item with
   * the URI as asked, text or blob, and `_meta` with the file's size and modification time and
   * `"dev.mcpkit/part": { offset, length, size, version, next? }`. Undefined when the file is not
   * served, or when the URI has no query (the whole file's, read by the other template). With
   * `streams` (the writer streams bodies), a large blob part is a StreamedBody. -32602
   * for a parameter that names no part (or a version the file no longer has); -32603 when it
   * kept changing, or when not one character fits.
   */
  async read(
    uri: string,
    variables: Record<string, string | string[]>,
    capBytes: number,
    options: PartReadOptions = {},
  ): Promise<ReadReturn | undefined> {
    const relative = variables['path'];
    if (typeof relative !== 'string' || !uri.includes('?')) return undefined;
    const request = parsePartRequest(uri, variables, this.partBytes);
    const within = await this.options.containment();
    const limitFor: PartLimit = ({ mimeType, version, size }) =>
      capBytes -
      contentsEnvelope(uri, mimeType, this.largestMeta(relative, request, version, size));
    const outcome = await readFilePart(this.options.fs, within, relative, request, limitFor, {
      ...options,
      scratch: this.scratch,
      limits: this.options.streamLimits,
    });
    switch (outcome.kind) {
      case 'missing':
        return undefined;
      case 'refused':
        throw resourceRefused(uri, outcome.reason);
      case 'beyond-end':
        throw pastTheEnd(uri, request.offset, outcome.size);
      case 'changed': {
        const { version } = outcome;
        const firstPart = this.uri(relative, { offset: 0, length: request.length, version });
        throw partChanged(uri, version, firstPart);
      }
      case 'unsteady':
        throw fileChanged(uri, outcome.attempts);
      case 'too-large':
        throw partTooLarge(uri, outcome.size, outcome.wireBytes, outcome.limit);
      case 'ok': {
        const { mimeType, text, blob, offset, length, size, mtimeMs, version } = outcome.part;
        const end = offset + length;
        const next =
          end < size
            ? this.uri(relative, { offset: end, length: request.length, version })
            : undefined;
        const part = { offset, length, size, version, ...(next !== undefined ? { next } : {}) };
        const body = text !== undefined ? { text } : { blob: blob as string };
        const _meta = { ...metaOf(size, mtimeMs), ...partMeta(part) };
        return { contents: [{ uri, mimeType, ...body, _meta }] };
      }
    }
  }

  /**
   * The longest `_meta` a part of this file carries (offsets and lengths have at most as many
   * digits as its size), so that the part is cut to fit with room for it.
   */
  private largestMeta(
    relative: string,
    request: PartRequest,
    version: string,
    size: number,
  ): Record<string, unknown> {
    const next = this.uri(relative, { offset: size, length: request.length, version });
    return { ...metaOf(size, 0), ...partMeta({ offset: size, length: size, size, version, next }) };
  }
}

function pastTheEnd(uri: string, offset: number, size: number) {
  const where =
    size === 0
      ? 'the file is empty: its one part is at offset 0'
      : `its last byte is at offset ${size - 1}`;
  return badPartParameter(
    uri,
    'offset',
    'beyond-end',
    `${offset} is past the end of the file (${size} bytes; ${where})`,
    size,
  );
}
