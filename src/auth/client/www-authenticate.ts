/**
 * The Bearer challenge of a `WWW-Authenticate` header (RFC 6750 §3, RFC 9728 §5.1): its
 * auth-params, quoted or not. Other schemes in the same header are skipped.
 */

export interface BearerChallenge {
  /** RFC 9728: where the protected resource metadata is. */
  resourceMetadata?: string;
  /** Space-separated scopes the resource asks for. */
  scope?: string;
  /** `invalid_token`, `insufficient_scope`, … */
  error?: string;
}

const PARAM = /\s*([A-Za-z0-9_.-]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^\s,]*)\s*,?/y;
const SCHEME = /\s*([A-Za-z0-9_.~+/-]+)(?=\s|$|,)\s*,?/y;

/** Parses the header (or undefined when there is no Bearer challenge in it). */
export function parseBearerChallenge(
  header: string | null | undefined,
): BearerChallenge | undefined {
  if (header === null || header === undefined) return undefined;
  let at = 0;
  let bearer: Record<string, string> | undefined;
  let current: Record<string, string> | undefined;
  while (at < header.length) {
    PARAM.lastIndex = at;
    const param = PARAM.exec(header);
    if (param !== null && param[0].length > 0) {
      const value = param[3] !== undefined ? param[3].replace(/\\(.)/g, '$1') : (param[2] ?? '');
      const name = (param[1] ?? '').toLowerCase();
      if (current !== undefined && !(name in current)) current[name] = value;
      at = PARAM.lastIndex;
      continue;
    }
    SCHEME.lastIndex = at;
    const scheme = SCHEME.exec(header);
    if (scheme === null || scheme[0].length === 0) break;
    at = SCHEME.lastIndex;
    if ((scheme[1] ?? '').toLowerCase() === 'bearer' && bearer === undefined) {
      bearer = {};
      current = bearer;
    } else current = undefined;
  }
  if (bearer === undefined) return undefined;
  const out: BearerChallenge = {};
  if (bearer['resource_metadata']) out.resourceMetadata = bearer['resource_metadata'];
  if (bearer['scope']) out.scope = bearer['scope'];
  if (bearer['error']) out.error = bearer['error'];
  return out;
}
