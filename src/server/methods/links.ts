import type { ContentBlock } from '../../protocol/types.js';
import { uriProblem } from '../../protocol/uri-syntax.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import type { ServerCore } from '../core.js';
import { artifactTarget, partExists, type ArtifactTarget } from '../artifact-read.js';
import { matchTemplates } from './templates.js';

/**
 * Whether a link to `uri` resolves with `resources/read`: a registered resource, a template
 * that matches it safely (the same lookup reads use), or a live artifact of the link store.
 */
export async function resolvesUri(core: ServerCore, uri: string): Promise<boolean> {
  if (core.resources.get(uri)) return true;
  for (const hit of matchTemplates(core, uri)) return !('refused' in hit);
  if (!core.linkStore.owns(uri)) return false;
  let target: ArtifactTarget;
  try {
    target = artifactTarget(uri);
  } catch {
    return false;
  }
  const found = await core.linkStore.get(target.base);
  return 'found' in found && partExists(target, found.found, core.artifactBytes);
}

/**
 * The link guarantee, checked on every result a tool or prompt returns: each URI we emit is an
 * RFC 3986 URI, and each `resource_link` resolves (an error by default; `content.linkCheck`
 * may make it a warning or turn it off).
 */
export async function checkEmittedLinks(
  core: ServerCore,
  blocks: readonly ContentBlock[],
  who: string,
): Promise<void> {
  for (const [i, b] of blocks.entries()) {
    const uri =
      b.type === 'resource_link' ? b.uri : b.type === 'resource' ? b.resource.uri : undefined;
    const problem = uri === undefined ? undefined : uriProblem(uri);
    if (problem)
      throw ProtocolError.internal(
        `${who} returned content[${i}] with an invalid URI ${JSON.stringify(uri)}: ${problem}`,
      );
  }
  const mode = core.options.content?.linkCheck ?? 'error';
  if (mode === 'off') return;
  const bad: string[] = [];
  for (const b of blocks)
    if (b.type === 'resource_link' && !(await resolvesUri(core, b.uri))) bad.push(b.uri);
  if (bad.length === 0) return;
  const message = `${who} returned resource_link(s) that nothing serves: ${bad.join(', ')}. Register a resource or template for them, or use ctx.attach() so they go to the link store`;
  if (mode === 'warn') {
    (core.options.onWarning ?? console.warn)(`mcpkit: ${message}`);
    return;
  }
  throw ProtocolError.internal(message);
}
