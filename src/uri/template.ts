/** RFC 6570 URI Templates (levels 1–4) that expand values into URIs and match URIs back. */

import { expandParts, type TemplateValues } from './template-expand.js';
import { compileSteps, matchSteps, type MatchedValues } from './template-match.js';
import { parseParts, TemplateSyntaxError, type TemplatePart } from './template-syntax.js';

export interface MatchOptions {
  /** Percent-decode the values (default true). `false` returns them exactly as in the URI. */
  readonly decode?: boolean;
}

/** A parsed template. Parse once, then expand and match as often as needed. */
export interface UriTemplate {
  readonly template: string;
  /** Variable names in order of first appearance, without duplicates. */
  readonly variables: readonly string[];
  /** The parsed literals and expressions, e.g. to learn each variable's operator. */
  readonly parts: readonly TemplatePart[];
  /** Expands the template; undefined values, empty lists and empty maps are skipped (RFC 6570). */
  expand(values: TemplateValues): string;
  /**
   * Matches a URI and returns its variables (exploded ones as arrays), or undefined when it does
   * not match. Never throws. Absent variables are missing from the result. Query parameters of
   * `{?a,b}` may come in any order or be absent; an unknown one fails the match. Exploded maps
   * come back as `key=value` strings.
   */
  match(uri: string, options?: MatchOptions): MatchedValues | undefined;
}

/**
 * Parses an RFC 6570 template.
 *
 * @throws TemplateSyntaxError on an unclosed or stray brace, a reserved operator, a bad variable
 *   name or a bad prefix modifier.
 * @example
 * const t = parseTemplate('file:///{+path}{?rev}');
 * t.expand({ path: 'docs/a b.md', rev: 3 }); // 'file:///docs/a%20b.md?rev=3'
 * t.match('file:///docs/a%20b.md?rev=3'); // { path: 'docs/a b.md', rev: '3' }
 */
export function parseTemplate(template: string): UriTemplate {
  const parts = parseParts(template);
  const steps = compileSteps(parts);
  const variables = [
    ...new Set(
      parts.flatMap((p) => (p.type === 'expression' ? p.variables.map((v) => v.name) : [])),
    ),
  ];
  return Object.freeze({
    template,
    variables: Object.freeze(variables),
    parts: Object.freeze(parts),
    expand: (values: TemplateValues) => expandParts(parts, values),
    match(uri: string, options?: MatchOptions): MatchedValues | undefined {
      if (typeof uri !== 'string') return undefined;
      try {
        return matchSteps(steps, uri, options?.decode ?? true);
      } catch {
        // The matcher has no throwing paths; this guards the "never throws" promise anyway.
        return undefined;
      }
    },
  });
}

/** True when `s` is a well-formed template with at least one `{expression}`. */
export function isTemplate(s: string): boolean {
  try {
    return parseParts(s).some((p) => p.type === 'expression');
  } catch (error) {
    if (error instanceof TemplateSyntaxError) return false;
    throw error;
  }
}

export { TemplateSyntaxError };
export type {
  TemplatePart,
  TemplateExpression,
  TemplateLiteral,
  VarSpec,
  Operator,
} from './template-syntax.js';
export type { TemplateValue, TemplateValues } from './template-expand.js';
export type { MatchedValues } from './template-match.js';
