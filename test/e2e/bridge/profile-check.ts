/**
 * What a host's profile lets reach the model, checked on a result the host got through the
 * bridge: the profile (as `--explain-profile` prints it) says which blocks may arrive.
 */
import { expect } from 'vitest';

type Obj = Record<string, unknown>;

export interface SideRules {
  resourceLinks: 'read' | 'text' | 'drop';
  blobs: 'all' | 'image/*' | 'none';
  embeddedText: boolean;
  maxResult: { chars?: number; tokens?: number } | null;
  nonText?: boolean;
}

export interface ExplainedProfile {
  name: string;
  readsResources: boolean;
  tools: SideRules;
  prompts: SideRules;
}

/** The MIME type of a block carrying bytes (image, audio, embedded blob); undefined otherwise. */
function blobMime(block: Obj): string | undefined {
  if (block['type'] === 'image' || block['type'] === 'audio') return String(block['mimeType']);
  const resource = block['type'] === 'resource' ? (block['resource'] as Obj) : undefined;
  return resource && typeof resource['blob'] === 'string'
    ? String(resource['mimeType'] ?? 'application/octet-stream')
    : undefined;
}

/** All text the model is shown: text blocks and embedded texts. */
export function textOfBlocks(blocks: readonly Obj[]): string {
  return blocks
    .map((b) =>
      b['type'] === 'text'
        ? String(b['text'])
        : b['type'] === 'resource' && typeof (b['resource'] as Obj)['text'] === 'string'
          ? String((b['resource'] as Obj)['text'])
          : '',
    )
    .join('\n');
}

/** Asserts that `blocks` hold only what `rules` let through; `what` names the call. */
export function expectSurfaced(rules: SideRules, blocks: readonly Obj[], what: string): void {
  for (const block of blocks) {
    if (rules.resourceLinks !== 'read')
      expect(block['type'], `${what}: a resource_link reached the host`).not.toBe('resource_link');
    if (rules.nonText === false)
      expect(block['type'], `${what}: prompt not text-only`).toBe('text');
    const mime = blobMime(block);
    if (mime !== undefined) {
      expect(rules.blobs, `${what}: a ${mime} blob reached the host`).not.toBe('none');
      if (rules.blobs === 'image/*') expect(mime, `${what}: a non-image blob`).toMatch(/^image\//);
    }
    if (!rules.embeddedText && block['type'] === 'resource')
      expect(typeof (block['resource'] as Obj)['text'], `${what}: embedded text kept`).not.toBe(
        'string',
      );
  }
  const chars = rules.maxResult?.chars;
  if (chars !== undefined)
    expect(textOfBlocks(blocks).length, `${what}: over the host's limit`).toBeLessThanOrEqual(
      chars + blocks.length,
    );
}
