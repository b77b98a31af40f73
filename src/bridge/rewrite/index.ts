/**
 * Rewriting upstream results for what the host surfaces. Placeholder: results pass through
 * unchanged until the rewriter lands (issue 29); the signatures are the contract.
 */
import type { CallToolResult, GetPromptResult } from '../../protocol/index.js';
import type { ResolverClient } from '../../host/index.js';
import type { HostProfile } from '../profiles/index.js';

export interface RewriteContext {
  profile: HostProfile;
  /** The upstream, read through for links the host would not read itself. */
  upstream: ResolverClient;
  /** `--max-link-bytes`: the most decoded bytes one resolved link may bring (default 256 KiB). */
  maxLinkBytes: number;
  /** `--max-result-chars`: the most text one result carries; undefined = the profile's limit. */
  maxResultChars?: number | undefined;
  /** The name the bridge's own read tool has downstream (`read_resource`, or prefixed on a clash). */
  readToolName: string;
  signal?: AbortSignal | undefined;
}

export async function rewriteToolResult(
  result: CallToolResult,
  _ctx: RewriteContext,
): Promise<CallToolResult> {
  return result;
}

export async function rewritePromptResult(
  result: GetPromptResult,
  _ctx: RewriteContext,
): Promise<GetPromptResult> {
  return result;
}
