/** `--fetch-urls`: the host's own fetch of an http(s) link, only ever through the SSRF guard. */
import { createGuard } from '../guard/index.js';
import type { HostArgs } from './host-args.js';

export interface FetchedLink {
  bytes: Uint8Array;
  mimeType?: string;
  /** The final URL, after redirects. */
  url: string;
}

export type LinkFetch = (url: string, maxBytes: number) => Promise<FetchedLink>;

/**
 * The guarded fetch of `--fetch-urls`: loopback, private, link-local, metadata and the like are
 * refused unless `--allow-address` names them; `--timeout` bounds the whole redirect chain.
 */
export function createLinkFetch(args: HostArgs): LinkFetch {
  const guard = createGuard({ allow: args.allowAddresses, timeoutMs: args.timeoutMs });
  return async (url, maxBytes) => {
    const answer = await guard.fetch(url, { maxBytes });
    const out: FetchedLink = { bytes: answer.bytes, url: answer.url };
    if (answer.mimeType !== undefined) out.mimeType = answer.mimeType;
    return out;
  };
}
