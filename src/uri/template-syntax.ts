/** RFC 6570 template syntax: the operator table and a single-pass parser. */

import { McpKitError } from '../errors/mcpkit-error.js';
import { encodeValue, isHexCode } from './percent.js';

/** An expression operator; `''` is simple string expansion. */
export type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

export interface OperatorSpec {
  /** Prefix written before the first defined variable. */
  readonly first: string;
  /** Separator between variables (and between exploded members). */
  readonly sep: string;
  /** Whether values are written as `name=value`. */
  readonly named: boolean;
  /** Written after the name when the value is empty. */
  readonly ifemp: string;
  /** Whether reserved characters and `%XX` triplets pass through unencoded. */
  readonly reserved: boolean;
}

/** RFC 6570 appendix A, as a table. */
export const OPERATORS: Readonly<Record<Operator, OperatorSpec>> = {
  '': { first: '', sep: ',', named: false, ifemp: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifemp: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifemp: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifemp: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifemp: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifemp: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifemp: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifemp: '=', reserved: false },
};

/** One variable of an expression, e.g. `list*` or `var:3`. */
export interface VarSpec {
  readonly name: string;
  /** Maximum length in code points (`:N`), when given. */
  readonly prefix?: number;
  readonly explode: boolean;
}

/** Literal text between expressions, already percent-encoded as expansion writes it. */
export interface TemplateLiteral {
  readonly type: 'literal';
  readonly text: string;
}

/** A `{...}` expression. `offset` is where its `{` sits in the template. */
export interface TemplateExpression {
  readonly type: 'expression';
  readonly operator: Operator;
  readonly variables: readonly VarSpec[];
  readonly offset: number;
}

export type TemplatePart = TemplateLiteral | TemplateExpression;

/** Thrown by `parseTemplate` for a malformed template; `offset` points at the culprit. */
export class TemplateSyntaxError extends McpKitError {
  override readonly name: string = 'TemplateSyntaxError';
  readonly template: string;
  readonly offset: number;

  constructor(reason: string, template: string, offset: number) {
    super(
      'TEMPLATE_SYNTAX',
      `${reason} at offset ${offset} in URI template ${JSON.stringify(template)}`,
    );
    this.template = template;
    this.offset = offset;
  }
}

const OPERATOR_CHARS = '+#./;?&';
/** Reserved by RFC 6570 §2.2 for future extensions: an error, not a literal. */
const FUTURE_OPERATOR_CHARS = '=,!@|';

function isVarChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95;
}

/** Parses the inside of one expression; `start` is the offset just after `{`. */
function parseExpression(template: string, start: number, end: number): TemplateExpression {
  let i = start;
  let operator: Operator = '';
  const head = template[i] ?? '';
  if (OPERATOR_CHARS.includes(head)) {
    operator = head as Operator;
    i++;
  } else if (FUTURE_OPERATOR_CHARS.includes(head)) {
    throw new TemplateSyntaxError(`reserved operator "${head}"`, template, i);
  }
  const variables: VarSpec[] = [];
  for (;;) {
    const nameStart = i;
    // varname = varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded
    let dotAllowed = false;
    while (i < end) {
      const c = template.charCodeAt(i);
      if (isVarChar(c)) i++;
      else if (
        c === 37 &&
        isHexCode(template.charCodeAt(i + 1)) &&
        isHexCode(template.charCodeAt(i + 2))
      ) {
        i += 3;
      } else if (c === 46 && dotAllowed && i + 1 < end && template[i + 1] !== '.') {
        i++;
        dotAllowed = false;
        continue;
      } else break;
      dotAllowed = true;
    }
    if (i === nameStart || template[i - 1] === '.') {
      const what = i < end ? `character ${JSON.stringify(template[i])}` : 'end of expression';
      throw new TemplateSyntaxError(`expected a variable name, found ${what}`, template, i);
    }
    const name = template.slice(nameStart, i);
    if (template[i] === ':') {
      const digitsStart = ++i;
      while (i < end && template.charCodeAt(i) >= 48 && template.charCodeAt(i) <= 57) i++;
      const digits = template.slice(digitsStart, i);
      // max-length = %x31-39 0*3DIGIT: 1..9999, no leading zero
      if (digits.length === 0 || digits.length > 4 || digits[0] === '0') {
        throw new TemplateSyntaxError(
          'bad prefix modifier (expected 1 to 9999)',
          template,
          digitsStart,
        );
      }
      variables.push({ name, prefix: Number(digits), explode: false });
    } else if (template[i] === '*') {
      i++;
      variables.push({ name, explode: true });
    } else {
      variables.push({ name, explode: false });
    }
    if (i === end) break;
    if (template[i] !== ',') {
      throw new TemplateSyntaxError(
        `unexpected character ${JSON.stringify(template[i])} in expression`,
        template,
        i,
      );
    }
    i++;
  }
  return { type: 'expression', operator, variables, offset: start - 1 };
}

/**
 * Splits a template into literals and expressions. Literal characters a URI may not hold
 * (space, `<`, `"`, …) are stored percent-encoded, as RFC 6570 §3.1 asks.
 */
export function parseParts(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    const ch = template[i];
    if (ch === '}') throw new TemplateSyntaxError('unmatched "}"', template, i);
    if (ch !== '{') {
      literal += ch;
      i++;
      continue;
    }
    let end = i + 1;
    while (end < template.length && template[end] !== '}' && template[end] !== '{') end++;
    if (end === template.length || template[end] === '{') {
      throw new TemplateSyntaxError('unclosed "{"', template, i);
    }
    if (literal !== '') parts.push({ type: 'literal', text: encodeValue(literal, true) });
    literal = '';
    parts.push(parseExpression(template, i + 1, end));
    i = end + 1;
  }
  if (literal !== '') parts.push({ type: 'literal', text: encodeValue(literal, true) });
  return parts;
}
