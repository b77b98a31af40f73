/**
 * Matching a URI against parsed template parts: the inverse of expansion.
 *
 * No regexes and no backtracking across parts. Each expression scans the longest run of
 * characters its expansion could have produced, then ends at the LAST place where the next
 * literal (or the next expression's leading character) fits inside that run. Cost is
 * O(parts × length); any input is safe. Ambiguous templates such as `{a}{b}` resolve greedily
 * to the left.
 */

import {
  decodeComponent,
  encodedCodePoints,
  isReservedCode,
  isTripletAt,
  isUnreservedCode,
} from './percent.js';
import {
  OPERATORS,
  type OperatorSpec,
  type TemplatePart,
  type VarSpec,
} from './template-syntax.js';

/** Variable values found in a URI; exploded variables give arrays. */
export type MatchedValues = Record<string, string | string[]>;

/** Where in a URI a part sits; a `{+var}` in the path must not swallow the query. */
type Section = 'path' | 'query' | 'fragment';

interface ExpressionStep {
  readonly kind: 'expression';
  readonly op: OperatorSpec;
  readonly specs: readonly VarSpec[];
  /** ASCII characters allowed in the run after the operator's leading character. */
  readonly allowed: Uint8Array;
  /** Separators the run may hold: `{/a}` is one segment, `{/a*}` any number. */
  readonly maxSeps: number;
}

type Step = { readonly kind: 'literal'; readonly text: string } | ExpressionStep;

interface Occurrence {
  readonly value: string | string[];
  readonly prefix: number | undefined;
}

const code = (ch: string): number => ch.charCodeAt(0);

function allowedChars(
  operator: string,
  op: OperatorSpec,
  specs: readonly VarSpec[],
  section: Section,
): Uint8Array {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    if (isUnreservedCode(c) || (op.reserved && isReservedCode(c))) t[c] = 1;
  }
  if (op.reserved) {
    t[code('#')] = 0;
    if (operator === '+' && section === 'path') t[code('?')] = 0;
    return t;
  }
  // Only what expansion itself writes unencoded: list commas, `name=value`, and separators.
  t[code(',')] = 1;
  t[code(op.sep)] = 1;
  if (op.named || specs.some((s) => s.explode)) t[code('=')] = 1;
  return t;
}

/** Compiles parts into steps once per template; adjacent `{?a}{&b}` become one query step. */
export function compileSteps(parts: readonly TemplatePart[]): Step[] {
  const steps: Step[] = [];
  let section: Section = 'path';
  let queryStep = false;
  for (const part of parts) {
    if (part.type === 'literal') {
      steps.push({ kind: 'literal', text: part.text });
      if (part.text.includes('#')) section = 'fragment';
      else if (part.text.includes('?') && section === 'path') section = 'query';
      queryStep = false;
      continue;
    }
    const operator = part.operator;
    const op = OPERATORS[operator];
    const isQuery = operator === '?' || operator === '&';
    const last = steps[steps.length - 1];
    if (isQuery && queryStep && last?.kind === 'expression') {
      // Parameters of adjacent query expressions may come in any order, so match them as one.
      steps[steps.length - 1] = { ...last, specs: [...last.specs, ...part.variables] };
    } else {
      steps.push({
        kind: 'expression',
        op,
        specs: part.variables,
        allowed: allowedChars(operator, op, part.variables, section),
        maxSeps:
          operator === '/' && !part.variables.some((s) => s.explode)
            ? part.variables.length - 1
            : Infinity,
      });
    }
    queryStep = isQuery;
    if (isQuery && section === 'path') section = 'query';
    if (operator === '#') section = 'fragment';
  }
  return steps;
}

/** End of the longest run at `p` that the expression could have produced. */
function scanRun(s: string, p: number, step: ExpressionStep): number {
  const { first, sep } = step.op;
  let i = p;
  if (first !== '') {
    if (s[i] !== first) return p;
    i++;
  }
  let seps = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 37) {
      if (!isTripletAt(s, i)) break;
      i += 3;
      continue;
    }
    if (c >= 128 || step.allowed[c] !== 1) break;
    if (s[i] === sep && step.maxSeps !== Infinity && seps++ === step.maxSeps) break;
    i++;
  }
  return i;
}

/** Where the expression's region ends inside its run [p, q], given what follows; -1 = no match. */
function regionEnd(s: string, p: number, q: number, next: Step | undefined): number {
  if (next === undefined) return q;
  if (next.kind === 'literal') {
    let at = s.lastIndexOf(next.text, q);
    // A cut inside a %XX triplet is not a real boundary; look further left.
    while (at >= p && ((at - 1 >= p && s[at - 1] === '%') || (at - 2 >= p && s[at - 2] === '%'))) {
      at = at === 0 ? -1 : s.lastIndexOf(next.text, at - 1);
    }
    return at >= p ? at : -1;
  }
  const first = next.op.first;
  if (first === '') return q;
  const at = s.lastIndexOf(first, q);
  // at === p would leave this expression empty although it matched something: keep it.
  return at > p ? at : q;
}

type Recorder = (spec: VarSpec, value: string | string[]) => void;

function parseNamed(parts: readonly string[], step: ExpressionStep, record: Recorder): boolean {
  const seen = new Set<string>();
  const exploded = new Map<VarSpec, string[]>();
  for (const part of parts) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    const spec = step.specs.find((s) => s.name === key);
    // Unknown parameters and a raw '=' inside a value both fail: expansion writes neither.
    if (spec === undefined || value.includes('=')) return false;
    if (spec.explode) {
      const list = exploded.get(spec);
      if (list) list.push(value);
      else exploded.set(spec, [value]);
    } else {
      if (seen.has(key)) return false;
      seen.add(key);
      record(spec, value);
    }
  }
  for (const [spec, list] of exploded) record(spec, list);
  return true;
}

function parseRegion(region: string, step: ExpressionStep, record: Recorder): boolean {
  const { op, specs } = step;
  if (region === '') {
    // `{var}` matching nothing is an empty value; `{/var}` matching nothing is an absent one.
    const spec = specs[0];
    if (op.first === '' && spec !== undefined && !spec.explode) record(spec, '');
    return true;
  }
  const parts = (op.first === '' ? region : region.slice(1)).split(op.sep);
  if (op.named) return parseNamed(parts, step, record);
  let j = 0;
  for (let i = 0; i < specs.length && j < parts.length; i++) {
    const spec = specs[i] as VarSpec;
    // The last variable takes the rest; an exploded one earlier leaves one part per follower.
    const followers = specs.length - 1 - i;
    const take =
      followers === 0
        ? parts.length - j
        : spec.explode
          ? Math.max(1, parts.length - j - followers)
          : 1;
    const chunk = parts.slice(j, j + take);
    j += take;
    if (spec.explode) {
      record(spec, chunk);
      continue;
    }
    // Extra parts join back only where the separator may sit inside one value: ',' (a list
    // written without explode) and '.' (unreserved). '/' inside one `{/var}` was encoded.
    if (chunk.length > 1 && op.sep !== ',' && op.sep !== '.') return false;
    const value = chunk.join(op.sep);
    if (!op.reserved && value.includes('=')) return false;
    record(spec, value);
  }
  return true;
}

function sameValue(a: string | string[], b: string | string[]): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Reconciles repeated variables (`{x}/{x}`, `{var:1}/{var}`) and decodes the values. */
function finalize(found: Map<string, Occurrence[]>, decode: boolean): MatchedValues | undefined {
  const entries: [string, string | string[]][] = [];
  for (const [name, list] of found) {
    let full: string | string[] | undefined;
    let longest: Occurrence | undefined;
    for (const o of list) {
      if (o.prefix === undefined) {
        if (full === undefined) full = o.value;
        else if (!sameValue(full, o.value)) return undefined;
      } else if (longest?.prefix === undefined || o.prefix > longest.prefix) longest = o;
    }
    full ??= longest?.value;
    if (full === undefined) continue;
    for (const o of list) {
      if (o.prefix === undefined) continue;
      if (typeof o.value !== 'string' || typeof full !== 'string') return undefined;
      if (encodedCodePoints(o.value, o.prefix).end !== o.value.length) return undefined;
      if (full.slice(0, encodedCodePoints(full, o.prefix).end) !== o.value) return undefined;
    }
    if (!decode) {
      entries.push([name, full]);
      continue;
    }
    if (typeof full === 'string') {
      const d = decodeComponent(full);
      if (d === undefined) return undefined;
      entries.push([name, d]);
    } else {
      const d = full.map(decodeComponent);
      if (d.some((v) => v === undefined)) return undefined;
      entries.push([name, d as string[]]);
    }
  }
  // fromEntries defines own properties, so a variable named `__proto__` stays a plain key.
  return Object.fromEntries(entries);
}

/** Matches `uri` against compiled steps; undefined when it does not match. */
export function matchSteps(
  steps: readonly Step[],
  uri: string,
  decode: boolean,
): MatchedValues | undefined {
  const found = new Map<string, Occurrence[]>();
  const record: Recorder = (spec, value) => {
    const o: Occurrence = { value, prefix: spec.prefix };
    const list = found.get(spec.name);
    if (list) list.push(o);
    else found.set(spec.name, [o]);
  };
  let pos = 0;
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k] as Step;
    if (step.kind === 'literal') {
      if (!uri.startsWith(step.text, pos)) return undefined;
      pos += step.text.length;
      continue;
    }
    const end = regionEnd(uri, pos, scanRun(uri, pos, step), steps[k + 1]);
    if (end < 0 || !parseRegion(uri.slice(pos, end), step, record)) return undefined;
    pos = end;
  }
  return pos === uri.length ? finalize(found, decode) : undefined;
}
