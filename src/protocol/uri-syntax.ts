/** A linear RFC 3986 syntax check for absolute URIs (scheme ":" hier-part [?query] [#fragment]). */

const ALLOWED = new Uint8Array(128);
{
  const chars =
    'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789' + "-._~:/?#[]@!$&'()*+,;=";
  for (let i = 0; i < chars.length; i++) ALLOWED[chars.charCodeAt(i)] = 1;
}

function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** Why `value` is not an absolute URI, or undefined when it is one. */
export function uriProblem(value: string): string | undefined {
  if (value.length === 0) return 'the URI is empty';
  if (!isAlpha(value.charCodeAt(0))) return 'a URI must start with a scheme (a letter)';
  let i = 1;
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 58) break;
    if (!(isAlpha(c) || (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46)) {
      return `character ${JSON.stringify(value[i])} at offset ${i} is not allowed in a scheme`;
    }
  }
  if (i === value.length) return 'a URI needs a scheme followed by ":"';
  let fragment = false;
  for (i = i + 1; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 37) {
      if (!isHex(value.charCodeAt(i + 1)) || !isHex(value.charCodeAt(i + 2))) {
        return `bad percent-encoding at offset ${i}`;
      }
      i += 2;
      continue;
    }
    if (c >= 128 || ALLOWED[c] === 0) {
      return `character ${JSON.stringify(value[i])} at offset ${i} must be percent-encoded`;
    }
    if (c === 35) {
      if (fragment) return `a second "#" at offset ${i}`;
      fragment = true;
    }
  }
  return undefined;
}

export function isUri(value: string): boolean {
  return uriProblem(value) === undefined;
}
