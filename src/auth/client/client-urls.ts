/** The URLs an OAuthClient decides on: what tokens are kept under, which AS, a CIMD client id. */
import { McpKitError } from '../../errors/index.js';

/** What tokens are kept under: the protected resource's URL, without fragment. */
export function resourceKey(url: URL): string {
  // Asked on every request: cut at the fragment's '#' (the only raw '#' of a serialized URL)
  // rather than parsing the URL again.
  const href = url.href;
  const hash = href.indexOf('#');
  return hash < 0 ? href : href.slice(0, hash);
}

/** The authorization server to use: the PRM's first (MCP lets the client choose). */
export function firstIssuer(servers: string[] | undefined, url: URL): string {
  const first = servers?.[0];
  if (first === undefined) {
    throw new McpKitError(
      'AUTH_FAILED',
      `the protected resource metadata of ${url.href} names no authorization server`,
    );
  }
  return first;
}

/** A CIMD client id: https, a path other than `/`, no fragment (the CIMD draft, §3). */
export function isMetadataDocumentUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.pathname !== '/' && url.hash === '';
  } catch {
    return false;
  }
}
