/**
 * Redis URLs carry credentials (`redis://user:password@host`, `?password=`): every message
 * mcpkit prints about Redis goes through these first, the banner and each log line included.
 */

const MASK = '***';

/** Query parameters whose value is a credential (ioredis reads any option from the query). */
const SECRET_PARAM = /pass|secret|token|auth|key|cred/i;

interface Split {
  /** `redis://`, or '' when the string has no `//` authority. */
  head: string;
  userinfo: string | undefined;
  host: string;
  path: string;
  query: string | undefined;
  fragment: string | undefined;
}

/** Plain string cutting, no URL parser: it must never throw, and keep what it does not hide. */
function split(url: string): Split {
  const hash = url.indexOf('#');
  const fragment = hash === -1 ? undefined : url.slice(hash + 1);
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const mark = beforeHash.indexOf('?');
  const query = mark === -1 ? undefined : beforeHash.slice(mark + 1);
  const rest = mark === -1 ? beforeHash : beforeHash.slice(0, mark);
  const slashes = rest.indexOf('//');
  const head = slashes === -1 ? '' : rest.slice(0, slashes + 2);
  const afterHead = rest.slice(head.length);
  const slash = afterHead.indexOf('/');
  const authority = slash === -1 ? afterHead : afterHead.slice(0, slash);
  const path = slash === -1 ? '' : afterHead.slice(slash);
  const at = authority.lastIndexOf('@');
  return {
    head,
    userinfo: at === -1 ? undefined : authority.slice(0, at),
    host: at === -1 ? authority : authority.slice(at + 1),
    path,
    query,
    fragment,
  };
}

function queryParts(query: string): { name: string; value: string | undefined }[] {
  return query.split('&').map((part) => {
    const eq = part.indexOf('=');
    return eq === -1
      ? { name: part, value: undefined }
      : { name: part.slice(0, eq), value: part.slice(eq + 1) };
  });
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A Redis URL fit to print: the user name and password become `***`, as does the value of any
 * query parameter that looks like a credential (`password`, `token`, …). Host, port, database
 * and the other parameters stay, so the line still says where mcpkit tried to connect.
 *
 * @example
 * redactRedisUrl('rediss://app:s3cret@redis.internal:6380/2'); // 'rediss://***@redis.internal:6380/2'
 */
export function redactRedisUrl(url: string): string {
  const { head, userinfo, host, path, query, fragment } = split(url);
  let out = `${head}${userinfo === undefined ? '' : `${MASK}@`}${host}${path}`;
  if (query !== undefined) {
    const parts = queryParts(query).map(({ name, value }) =>
      value !== undefined && SECRET_PARAM.test(decoded(name))
        ? `${name}=${MASK}`
        : part(name, value),
    );
    out += `?${parts.join('&')}`;
  }
  return fragment === undefined ? out : `${out}#${fragment}`;
}

function part(name: string, value: string | undefined): string {
  return value === undefined ? name : `${name}=${value}`;
}

/** The credentials a URL carries, raw and percent-decoded, for scrubbing other text. */
export function urlSecrets(url: string): string[] {
  const { userinfo, query } = split(url);
  const found: string[] = [];
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(':');
    found.push(userinfo);
    if (colon !== -1) found.push(userinfo.slice(colon + 1));
    if (colon > 0) found.push(userinfo.slice(0, colon));
  }
  for (const { name, value } of query === undefined ? [] : queryParts(query))
    if (value !== undefined && SECRET_PARAM.test(decoded(name))) found.push(value);
  const all = found.flatMap((secret) => [secret, decoded(secret)]);
  // Longest first so that a password is masked whole, not around a shorter match inside it;
  // very short strings would mask half the message and hide nothing worth hiding.
  return [...new Set(all)].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
}

/**
 * Text about a connection (an error from the Redis client, say) with the URL's credentials
 * masked, wherever they appear.
 */
export function scrubSecrets(text: string, url: string): string {
  let out = text.split(url).join(redactRedisUrl(url));
  for (const secret of urlSecrets(url)) out = out.split(secret).join(MASK);
  return out;
}
