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

function policyOf(view: SideView, ctx: BlockContext, refused: Map<string, string>) {
  const { read } = ctx;
  const mimeTypes = readableTypes(view, ctx);
  const tokenBytes = read.maxTurnTokens === null ? Infinity : read.maxTurnTokens * BYTES_PER_TOKEN;
  return {
    select:
      view.links === 'read' ? ('none' as const) : (link: { uri: string }) => !refused.has(link.uri),
    ...(read.schemes ? { schemes: read.schemes } : {}),
    ...(mimeTypes ? { mimeTypes } : {}),
    maxLinkBytes: ctx.maxLinkBytes,
    budgetBytes: Math.min(read.maxTurnBytes, tokenBytes),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.timeoutMs !== undefined ? { timeoutMs: ctx.timeoutMs } : {}),
  };
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
  const resolver = new Resolver(ctx.upstream, policyOf(view, ctx, refused), { cache: false });
  let resolved: ResolvedBlock[];
  try {
    resolved = (await resolver.resolve(blocks)).blocks;
  } finally {
    resolver.close();
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
