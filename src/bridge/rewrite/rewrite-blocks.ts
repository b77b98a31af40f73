/**
 * One list of content blocks rewritten for what one side of a host surfaces: links the host
 * would not read are read upstream through the resolver (its consent, allow-lists and budgets)
 * and embedded as text, blobs it would drop are decoded or named in a line of text.
 */
import { decodedBase64Length, type ContentBlock } from '../../protocol/index.js';
import { BYTES_PER_TOKEN, mimeAllowed, Resolver, type ResolvedBlock } from '../../host/index.js';
import type { Decision } from './decisions.js';
import { compileUriPattern, refuseLink } from './link-consent.js';
import { textItem, type OutItem } from './out-item.js';
import { extractResultPdfs, PDF_MIME } from './pdf-place.js';
import { blobAllowed, Placer, type BlockContext, type SideView } from './place-block.js';

export type { BlockContext, SideView } from './place-block.js';

/** The MIME types links may be read for: with `--extract-pdf`, PDFs too where the host drops them. */
function readableTypes(view: SideView, ctx: BlockContext): string[] | null {
  const types = ctx.read.mimeTypes;
  if (!types || !ctx.pdf || blobAllowed(view.blobs, PDF_MIME) || mimeAllowed(types, PDF_MIME))
    return types;
  return [...types, PDF_MIME];
}

function policyOf(
  view: SideView,
  ctx: BlockContext,
  skip: (uri: string) => boolean,
  mimeTypes = readableTypes(view, ctx),
  maxLinkBytes = ctx.maxLinkBytes,
  budgetFloor = 0,
) {
  const { read } = ctx;
  const tokenBytes = read.maxTurnTokens === null ? Infinity : read.maxTurnTokens * BYTES_PER_TOKEN;
  return {
    select: view.links === 'read' ? ('none' as const) : (link: { uri: string }) => !skip(link.uri),
    ...(read.schemes ? { schemes: read.schemes } : {}),
    ...(mimeTypes ? { mimeTypes } : {}),
    maxLinkBytes,
    budgetBytes: Math.max(Math.min(read.maxTurnBytes, tokenBytes), budgetFloor),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.timeoutMs !== undefined ? { timeoutMs: ctx.timeoutMs } : {}),
  };
}

async function resolveWith(
  ctx: BlockContext,
  policy: ReturnType<typeof policyOf>,
  blocks: readonly ContentBlock[],
): Promise<ResolvedBlock[]> {
  const resolver = new Resolver(ctx.upstream, policy, { cache: false });
  try {
    return (await resolver.resolve(blocks)).blocks;
  } finally {
    resolver.close();
  }
}

const isPdfType = (mimeType: unknown): boolean =>
  typeof mimeType === 'string' && mimeType.split(';')[0]?.trim().toLowerCase() === PDF_MIME;

/**
 * How `--extract-pdf` reads a link declared as a PDF: null when it is not one, undefined when it
 * is read (under `--pdf-max-bytes`), else why it is not read.
 */
function pdfLinkRefusal(
  link: { mimeType?: unknown; size?: unknown },
  pdf: { maxBytes: number; readUnsizedLinks: boolean },
): string | null | undefined {
  if (!isPdfType(link.mimeType)) return null;
  if (typeof link.size !== 'number')
    return pdf.readUnsizedLinks
      ? undefined
      : 'the PDF link declares no size, and over stdio an answer past --pdf-max-bytes would end the upstream connection, so the bridge does not read it';
  if (link.size > pdf.maxBytes)
    return `size: the link declares ${link.size} bytes, over the ${pdf.maxBytes} the bridge parses (--pdf-max-bytes)`;
  return undefined;
}

export async function rewriteBlocks(
  blocks: readonly ContentBlock[],
  sources: readonly number[],
  view: SideView,
  ctx: BlockContext,
  decisions: Decision[],
): Promise<OutItem[]> {
  const refused = new Map<string, string>();
  if (view.links !== 'read') {
    const patterns = ctx.read.uriPatterns?.map(compileUriPattern) ?? null;
    for (const b of blocks) {
      if (b?.type !== 'resource_link' || typeof b.uri !== 'string') continue;
      const why = refuseLink(b.uri, patterns);
      if (why !== undefined) refused.set(b.uri, why);
    }
  }
  const pdfLinks = ctx.pdf && !blobAllowed(view.blobs, PDF_MIME) ? new Set<string>() : undefined;
  if (pdfLinks && ctx.pdf && view.links !== 'read')
    for (const b of blocks) {
      if (b?.type !== 'resource_link' || typeof b.uri !== 'string' || refused.has(b.uri)) continue;
      const why = pdfLinkRefusal(b, ctx.pdf);
      if (why === null) continue;
      if (why === undefined) pdfLinks.add(b.uri);
      else refused.set(b.uri, why);
    }
  const skipMain = (uri: string): boolean => refused.has(uri) || pdfLinks?.has(uri) === true;
  let resolved = await resolveWith(ctx, policyOf(view, ctx, skipMain), blocks);
  if (pdfLinks && pdfLinks.size > 0 && ctx.pdf) {
    // PDF links with a declared size within --pdf-max-bytes: read under that limit.
    // Their bytes go to the extraction, not to the host: one PDF's worth at least per result.
    const { maxBytes } = ctx.pdf;
    const policy = policyOf(view, ctx, (uri) => !pdfLinks.has(uri), [PDF_MIME], maxBytes, maxBytes);
    const pdfs = await resolveWith(ctx, policy, blocks);
    resolved = resolved.map((r, i) => {
      const b = blocks[i];
      return b?.type === 'resource_link' && pdfLinks.has(b.uri) ? (pdfs[i] ?? r) : r;
    });
  }
  const out: OutItem[] = [];
  const embeddedUris = new Set<string>();
  const pdfTexts =
    ctx.pdf && !blobAllowed(view.blobs, PDF_MIME)
      ? await extractResultPdfs(resolved, ctx.pdf, ctx.signal)
      : undefined;
  const put = new Placer(out, decisions, view, { ...ctx, pdfTexts });
  for (let i = 0; i < resolved.length; i++) {
    const r = resolved[i] as ResolvedBlock;
    const source = sources[i] ?? i;
    switch (r.type) {
      case 'invalid':
        out.push({ block: r.block as ContentBlock, source });
        break;
      case 'text':
        out.push({
          block: r.block,
          source,
          text: { header: '', body: (r.block as { text: string }).text },
        });
        break;
      case 'image':
      case 'audio': {
        const block = r.block as { mimeType: string; data: string };
        if (blobAllowed(view.blobs, block.mimeType)) {
          out.push({ block: r.block, source });
          break;
        }
        const bytes = decodedBase64Length(block.data);
        const why = `this host does not pass ${block.mimeType} in ${view.where} to the model`;
        out.push(
          textItem(
            source,
            '',
            `[${r.type === 'image' ? 'Image' : 'Audio'} (${block.mimeType}, about ${bytes} bytes)]: not shown (${why}).`,
          ),
        );
        decisions.push({
          uri: '',
          action: 'text',
          reason: why,
          mimeType: block.mimeType,
          bytes,
          block: source,
        });
        break;
      }
      case 'resource':
        put.embedded(r.block, r.contents, r.error, source);
        break;
      case 'resource_link':
        put.link(r.block, r.outcome, refused, embeddedUris, source);
        break;
    }
  }
  return out;
}
