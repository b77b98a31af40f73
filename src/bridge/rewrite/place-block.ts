/**
 * Where each block of the rewritten content goes: kept as sent, given as text, or named in a line
 * of text, for what one side of the host surfaces.
 */
import type { ContentBlock, EmbeddedResource, ResourceLink } from '../../protocol/index.js';
import { encodeBase64, isTextMimeType } from '../../content/index.js';
import {
  mimeAllowed,
  type DecodedContents,
  type LinkOutcome,
  type ResolverClient,
} from '../../host/index.js';
import type { BlobHandling, LinkHandling, ReadRules } from '../profiles/index.js';
import type { Decision } from './decisions.js';
import { header, linkNotRead, notShown, restCall, sameAsAbove, type NoteSubject } from './notes.js';
import { textItem, type OutItem } from './out-item.js';
import { prefixWithinBytes } from './result-limit.js';
import type { PdfExtractOptions, PdfOutcome } from '../pdf/pdf-text.js';
import { pdfTextItems } from './pdf-place.js';

/** What one side of the host surfaces, prompts' `nonText: false` already applied. */
export interface SideView {
  links: LinkHandling;
  blobs: BlobHandling;
  embeddedText: boolean;
  /** `"tool results"` or `"prompts"`, for the reasons. */
  where: string;
}

export interface BlockContext {
  upstream: ResolverClient;
  read: ReadRules;
  maxLinkBytes: number;
  readToolName: string;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  /** `--extract-pdf`: its limits; absent, PDFs are named, never parsed. */
  pdf?: PdfExtractOptions | undefined;
  /** The text extracted from this result's PDFs, by their bytes (extractResultPdfs). */
  pdfTexts?: ReadonlyMap<Uint8Array, PdfOutcome> | undefined;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

export function blobAllowed(blobs: BlobHandling, mimeType: string): boolean {
  if (blobs === 'all') return true;
  return blobs === 'image/*' && mimeAllowed(['image/*'], mimeType);
}

function asText(bytes: Uint8Array): string | undefined {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export class Placer {
  constructor(
    private readonly out: OutItem[],
    private readonly decisions: Decision[],
    private readonly view: SideView,
    private readonly ctx: BlockContext,
  ) {}

  private decide(d: Decision): void {
    this.decisions.push(d);
  }

  /**
   * Text of a resource, as an embedded resource where the host surfaces them, else a text block;
   * `size`: the resource's whole size when `text` is only its start.
   */
  private textOf(
    subject: NoteSubject,
    text: string,
    mimeType: string,
    what: string,
    source: number,
    base?: EmbeddedResource,
    size?: number,
  ): void {
    const part = { uri: subject.uri, mimeType, ...(size !== undefined ? { size } : {}) };
    if (this.view.embeddedText) {
      const block: EmbeddedResource = base
        ? { ...base, resource: { uri: subject.uri, mimeType, text } }
        : { type: 'resource', resource: { uri: subject.uri, mimeType, text } };
      this.out.push({ block, source, text: { header: '', body: text, ...part } });
      return;
    }
    this.out.push(textItem(source, header({ ...subject, mimeType }, what), text, part));
  }

  /**
   * A PDF the host would not see, as its extracted text (`--extract-pdf`); false when there is
   * none. `why` gets the reason extraction failed, for the line that names the PDF instead.
   */
  private pdfText(subject: NoteSubject, bytes: Uint8Array, source: number, why: string[]): boolean {
    const outcome = this.ctx.pdf ? this.ctx.pdfTexts?.get(bytes) : undefined;
    if (!outcome || !this.ctx.pdf) return false;
    if (!outcome.ok) {
      why.push(`its text could not be extracted: ${outcome.reason}`);
      return false;
    }
    this.out.push(...pdfTextItems(subject, outcome, this.ctx.readToolName, this.ctx.pdf, source));
    this.decide({
      uri: subject.uri,
      action: 'extracted',
      reason: `the host does not pass ${subject.mimeType ?? 'application/pdf'} in ${this.view.where}; text of ${outcome.pagesRead} of ${outcome.pageCount} pages extracted (--extract-pdf)`,
      ...(subject.mimeType ? { mimeType: subject.mimeType } : {}),
      ...(subject.bytes !== undefined ? { bytes: subject.bytes } : {}),
      block: source,
    });
    return true;
  }

  embedded(
    block: EmbeddedResource,
    contents: DecodedContents | undefined,
    error: string | undefined,
    source: number,
  ): void {
    const uri = typeof block.resource?.uri === 'string' ? block.resource.uri : '';
    if (!contents) {
      const why = `it could not be decoded: ${error ?? 'invalid'}`;
      this.out.push(textItem(source, '', notShown({ uri }, why, this.ctx.readToolName)));
      this.decide({ uri, action: 'text', reason: why, block: source });
      return;
    }
    const { mimeType, size: bytes } = contents;
    const subject: NoteSubject = { uri, mimeType, bytes };
    if (contents.text !== undefined) {
      if (this.view.embeddedText) {
        this.out.push({ block, source, text: { header: '', body: contents.text, uri, mimeType } });
        this.decide({
          uri,
          action: 'kept',
          reason: `the host surfaces embedded text in ${this.view.where}`,
          mimeType,
          bytes,
          block: source,
        });
      } else {
        this.textOf(subject, contents.text, mimeType, 'embedded text', source);
        this.decide({
          uri,
          action: 'text',
          reason: `the host does not surface embedded resources in ${this.view.where}; given as a text block`,
          mimeType,
          bytes,
          block: source,
        });
      }
      return;
    }
    if (blobAllowed(this.view.blobs, mimeType)) {
      this.out.push({ block, source });
      this.decide({
        uri,
        action: 'kept',
        reason: `the host passes ${mimeType} blobs in ${this.view.where}`,
        mimeType,
        bytes,
        block: source,
      });
      return;
    }
    const text = isTextMimeType(mimeType) ? asText(contents.bytes) : undefined;
    if (text !== undefined) {
      this.textOf(subject, text, mimeType, 'a blob decoded as text', source, block);
      this.decide({
        uri,
        action: 'decoded',
        reason: `a ${mimeType} blob the host would drop, decoded as UTF-8 text`,
        mimeType,
        bytes,
        block: source,
      });
      return;
    }
    const failed: string[] = [];
    if (this.pdfText(subject, contents.bytes, source, failed)) return;
    const why = [
      `this host does not pass ${mimeType} to the model in ${this.view.where}`,
      ...failed,
    ].join('; ');
    this.out.push(textItem(source, '', notShown(subject, why, this.ctx.readToolName)));
    this.decide({ uri, action: 'text', reason: why, mimeType, bytes, block: source });
  }

  link(
    block: ResourceLink,
    outcome: LinkOutcome,
    refused: Map<string, string>,
    seen: Set<string>,
    source: number,
  ): void {
    const { uri } = block;
    const subject: NoteSubject = {
      uri,
      name: block.name,
      mimeType: block.mimeType,
      bytes: typeof block.size === 'number' ? block.size : outcome.bytes,
    };
    const mime = block.mimeType ? { mimeType: block.mimeType } : {};
    const size = subject.bytes !== undefined ? { bytes: subject.bytes } : {};
    if (this.view.links === 'read') {
      this.out.push({ block, source });
      this.decide({
        uri,
        action: 'kept',
        reason: `the host reads resource links in ${this.view.where} itself`,
        ...mime,
        ...size,
        block: source,
      });
      return;
    }
    const guard = refused.get(uri);
    if (guard !== undefined) {
      // What the guard refused comes without the call that would ask the upstream for it anyway.
      const tool = guard.startsWith('guard: ') ? undefined : this.ctx.readToolName;
      this.out.push(textItem(source, '', linkNotRead(subject, guard, tool)));
      this.decide({ uri, action: 'text', reason: guard, ...mime, ...size, block: source });
      return;
    }
    if (outcome.status === 'read' && seen.has(uri)) {
      this.out.push(textItem(source, '', sameAsAbove(subject)));
      this.decide({
        uri,
        action: 'text',
        reason: 'the same resource was embedded above',
        ...mime,
        ...size,
        block: source,
      });
      return;
    }
    if (outcome.status === 'read' && outcome.contents) {
      seen.add(uri);
      for (const c of outcome.contents) this.contents(subject, c, source);
      const types = [...new Set(outcome.contents.map((c) => c.mimeType))].join(', ');
      this.decide({
        uri,
        action: 'embedded',
        reason: `read upstream with resources/read (${outcome.source ?? 'server'}) for a host that does not read links in ${this.view.where}`,
        ...(types ? { mimeType: types } : mime),
        bytes: outcome.bytes ?? 0,
        block: source,
      });
      return;
    }
    const first = outcome.discarded?.[0];
    if (outcome.code === 'size' && first?.text !== undefined) {
      // The upstream sent more than the per-link limit (a size it did not declare): cut, counted.
      const kept = prefixWithinBytes(first.text, this.ctx.maxLinkBytes);
      const keptBytes = new TextEncoder().encode(kept).length;
      seen.add(uri);
      // What the host's limit leaves out of it is counted to the resource's end, not the cut's.
      const s = { ...subject, uri: first.uri || uri, bytes: first.size };
      this.textOf(s, kept, first.mimeType, 'read by the bridge', source, undefined, first.size);
      const rest = restCall(this.ctx.readToolName, uri, keptBytes, first.size - keptBytes);
      this.out.push(
        textItem(
          source,
          '',
          `[${uri}: cut at ${keptBytes} of ${first.size} bytes (the bridge's per-link limit is ${this.ctx.maxLinkBytes}); read the rest with ${rest}]`,
        ),
      );
      this.decide({
        uri,
        action: 'truncated',
        reason: outcome.reason ?? 'size',
        mimeType: first.mimeType,
        bytes: outcome.bytes ?? first.size,
        block: source,
      });
      return;
    }
    const why = outcome.reason ?? outcome.status;
    this.out.push(textItem(source, '', linkNotRead(subject, why, this.ctx.readToolName)));
    this.decide({ uri, action: 'text', reason: why, ...mime, ...size, block: source });
  }

  private contents(subject: NoteSubject, c: DecodedContents, source: number): void {
    const s = { ...subject, uri: c.uri || subject.uri };
    if (c.text !== undefined) {
      this.textOf(s, c.text, c.mimeType, 'read by the bridge', source);
      return;
    }
    if (blobAllowed(this.view.blobs, c.mimeType)) {
      const data = encodeBase64(c.bytes);
      // An image as an image block; any other blob the host passes as an embedded blob resource.
      const block: ContentBlock = mimeAllowed(['image/*'], c.mimeType)
        ? { type: 'image', data, mimeType: c.mimeType }
        : { type: 'resource', resource: { uri: s.uri, mimeType: c.mimeType, blob: data } };
      this.out.push({ block, source });
      return;
    }
    const text = isTextMimeType(c.mimeType) ? asText(c.bytes) : undefined;
    if (text !== undefined) {
      this.textOf(s, text, c.mimeType, 'read by the bridge and decoded', source);
      return;
    }
    const failed: string[] = [];
    const subjectOf = { ...s, mimeType: c.mimeType, bytes: c.size };
    if (this.pdfText(subjectOf, c.bytes, source, failed)) return;
    const why = [
      `this host does not pass ${c.mimeType} to the model in ${this.view.where}`,
      ...failed,
    ].join('; ');
    this.out.push(textItem(source, '', notShown(subjectOf, why, this.ctx.readToolName)));
  }
}
