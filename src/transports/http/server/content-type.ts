/**
 * The one request Content-Type a POST may carry: `application/json`, at most with
 * `charset=utf-8`. The body is decoded as UTF-8 (JSON's only encoding, RFC 8259), so another
 * charset or a JSON-based type with other semantics (`application/json-patch+json`) is refused
 * rather than misread.
 */
export const ACCEPTED_CONTENT_TYPE = 'application/json (optionally with charset=utf-8)';

/** RFC 9110 token characters. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Whether `value` is `application/json` with no parameter but `charset=utf-8` (any case). */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  if (value === 'application/json') return true; // what nearly every client sends
  // media-type = type "/" subtype *( OWS ";" OWS [ parameter ] ), RFC 9110 §8.3.1 and §5.6.6.
  const [type, ...params] = value.split(';');
  if (type?.trim().toLowerCase() !== 'application/json') return false;
  let charset = false;
  for (const raw of params) {
    const param = raw.trim();
    if (param === '') continue;
    const eq = param.indexOf('=');
    if (eq < 0) return false;
    const name = param.slice(0, eq).trim().toLowerCase();
    let v = param.slice(eq + 1).trim();
    if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
    else if (!TOKEN.test(v)) return false;
    if (name !== 'charset' || charset || v.toLowerCase() !== 'utf-8') return false;
    charset = true;
  }
  return true;
}
