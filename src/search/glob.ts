/**
 * Globs over root-relative paths, matched in time bounded by the lengths of the pattern and the
 * path (a client's pattern must not stall the index): `*` and `?` within a name, `**` across
 * folders, `[a-z]` and `[!a-z]` classes, `{a,b}` alternatives, `\` escaping. Wildcards match
 * names starting with a dot too.
 */

/** Most alternatives one pattern's braces may expand to. */
export const MAX_GLOB_ALTERNATIVES = 64;

type Token =
  | { kind: 'char'; char: string }
  | { kind: 'any' }
  | { kind: 'star' }
  | { kind: 'class'; negated: boolean; ranges: [string, string][] };

type Segment = Token[] | 'globstar';

/** `pattern` made a matcher; throws a RangeError naming what is wrong with it. */
export function compileGlob(pattern: string): (path: string) => boolean {
  const alternatives = expandBraces(pattern).map((alt) =>
    alt.split('/').map((part): Segment => (part === '**' ? 'globstar' : tokensOf(part))),
  );
  return (path) => {
    const names = path.split('/');
    return alternatives.some((segments) => matchPath(segments, names));
  };
}

function expandBraces(pattern: string): string[] {
  const open = findUnescaped(pattern, '{', 0);
  if (open < 0) return [pattern];
  let depth = 0;
  const cuts: number[] = [];
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === ',' && depth === 1) cuts.push(i);
    else if (c === '}' && --depth === 0) {
      const bounds = [open, ...cuts, i];
      const head = pattern.slice(0, open);
      const tail = pattern.slice(i + 1);
      const out: string[] = [];
      for (let k = 0; k + 1 < bounds.length; k++) {
        const middle = pattern.slice(bounds[k]! + 1, bounds[k + 1]);
        for (const rest of expandBraces(head + middle + tail)) {
          out.push(rest);
          if (out.length > MAX_GLOB_ALTERNATIVES)
            throw new RangeError(`the glob has more than ${MAX_GLOB_ALTERNATIVES} alternatives`);
        }
      }
      return out;
    }
  }
  throw new RangeError('the glob has a "{" without its "}"');
}

function findUnescaped(text: string, char: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === char) return i;
  }
  return -1;
}

function tokensOf(part: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < part.length; i++) {
    const c = part[i]!;
    if (c === '\\' && i + 1 < part.length) tokens.push({ kind: 'char', char: part[++i]! });
    else if (c === '*') {
      // Several stars in a name are one.
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '[') {
      const close = part.indexOf(']', i + 2);
      if (close < 0) throw new RangeError('the glob has a "[" without its "]"');
      let body = part.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      const ranges: [string, string][] = [];
      for (let k = 0; k < body.length; k++) {
        if (body[k + 1] === '-' && k + 2 < body.length) {
          ranges.push([body[k]!, body[k + 2]!]);
          k += 2;
        } else ranges.push([body[k]!, body[k]!]);
      }
      tokens.push({ kind: 'class', negated, ranges });
      i = close;
    } else tokens.push({ kind: 'char', char: c });
  }
  return tokens;
}

function matchOne(token: Token, char: string): boolean {
  if (token.kind === 'any') return true;
  if (token.kind === 'char') return token.char === char;
  if (token.kind === 'star') return false;
  const inside = token.ranges.some(([from, to]) => char >= from && char <= to);
  return inside !== token.negated;
}

/** One name against one segment: two pointers, back to the last star (linear per star). */
function matchName(tokens: Token[], name: string): boolean {
  let t = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const token = tokens[t];
    if (token?.kind === 'star') {
      star = t++;
      resume = n;
    } else if (token !== undefined && matchOne(token, name[n]!)) {
      t++;
      n++;
    } else if (star >= 0) {
      t = star + 1;
      n = ++resume;
    } else return false;
  }
  while (tokens[t]?.kind === 'star') t++;
  return t === tokens.length;
}

/** The names of a path against the segments of a pattern (`**`: any number of names). */
function matchPath(segments: Segment[], names: string[]): boolean {
  // reach[j]: names[0..j) matched by the segments so far.
  let reach = new Uint8Array(names.length + 1);
  reach[0] = 1;
  for (const segment of segments) {
    const next = new Uint8Array(names.length + 1);
    for (let j = 0; j <= names.length; j++) {
      if (!reach[j]) continue;
      if (segment === 'globstar') for (let k = j; k <= names.length; k++) next[k] = 1;
      else if (j < names.length && matchName(segment, names[j]!)) next[j + 1] = 1;
    }
    reach = next;
  }
  return reach[names.length] === 1;
}
