/**
 * The identifier parts of ASCII text, scanned by character code: the same parts as the pattern
 * `[A-Z]+(?![a-z])[0-9]*|[A-Z]?[a-z0-9]+` (terms.ts), without a match object per part. The
 * index's build spends most of its time here and in the postings (docs/search-index.md).
 */

const Kind = { Other: 0, Upper: 1, Lower: 2, Digit: 3 } as const;

const KINDS = ((): Uint8Array => {
  const kinds = new Uint8Array(128);
  for (let c = 65; c <= 90; c++) kinds[c] = Kind.Upper;
  for (let c = 97; c <= 122; c++) kinds[c] = Kind.Lower;
  for (let c = 48; c <= 57; c++) kinds[c] = Kind.Digit;
  return kinds;
})();

const kindAt = (text: string, i: number): number =>
  i < text.length ? KINDS[text.charCodeAt(i) & 127]! : Kind.Other;

/**
 * Calls `each` with where every part of `text` (ASCII only) starts and ends (cut to `max`
 * characters; it is not lowercased) and its 1-based line. No string is made.
 */
export function forEachAsciiPart(
  text: string,
  max: number,
  each: (start: number, end: number, line: number) => void,
): void {
  const n = text.length;
  let line = 1;
  let i = 0;
  while (i < n) {
    const code = text.charCodeAt(i);
    const kind = KINDS[code & 127]!;
    if (kind === Kind.Other) {
      if (code === 10) line++;
      i++;
      continue;
    }
    const start = i;
    if (kind === Kind.Upper) {
      let end = i + 1;
      while (kindAt(text, end) === Kind.Upper) end++;
      if (kindAt(text, end) === Kind.Lower) {
        // `HTMLParser`: the run but its last letter, which starts the next part; `Parser`: one.
        if (end - start > 1) i = end - 1;
        else {
          i = end;
          while (kindAt(text, i) >= Kind.Lower) i++;
        }
      } else {
        i = end;
        while (kindAt(text, i) === Kind.Digit) i++;
      }
    } else {
      i++;
      while (kindAt(text, i) >= Kind.Lower) i++;
    }
    each(start, i - start > max ? start + max : i, line);
  }
}
