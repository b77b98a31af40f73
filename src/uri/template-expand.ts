/** RFC 6570 §3.2 expansion over parsed template parts. */

import { codePointPrefix, encodeValue } from './percent.js';
import {
  OPERATORS,
  type OperatorSpec,
  type TemplateExpression,
  type TemplatePart,
  type VarSpec,
} from './template-syntax.js';

/**
 * A variable's value: a string (numbers and booleans are stringified), a list, or an ordered
 * map. `undefined`, an empty list and an empty map are all "undefined" in RFC 6570 terms.
 */
export type TemplateValue =
  string | number | boolean | readonly string[] | Readonly<Record<string, string>> | undefined;

export type TemplateValues = Readonly<Record<string, TemplateValue>>;

function isList(value: TemplateValue): value is readonly string[] {
  return Array.isArray(value);
}

function named(spec: VarSpec, op: OperatorSpec, encoded: string): string {
  return spec.name + (encoded === '' ? op.ifemp : '=' + encoded);
}

function expandVariable(op: OperatorSpec, spec: VarSpec, value: TemplateValue): string | undefined {
  // `null` is not in the type but arrives from JSON; treat it as undefined like the RFC's null.
  if (value === undefined || value === null) return undefined;
  const enc = (s: string): string => encodeValue(s, op.reserved);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    let s = String(value);
    if (spec.prefix !== undefined) s = codePointPrefix(s, spec.prefix);
    return op.named ? named(spec, op, enc(s)) : enc(s);
  }
  // Prefix modifiers do not apply to composite values (§2.4.1); they are ignored here.
  if (isList(value)) {
    const items = value.filter((v) => v !== undefined && v !== null).map(String);
    if (items.length === 0) return undefined;
    if (!spec.explode) {
      const joined = items.map(enc).join(',');
      return op.named ? named(spec, op, joined) : joined;
    }
    return items.map((v) => (op.named ? named(spec, op, enc(v)) : enc(v))).join(op.sep);
  }
  const pairs = Object.entries(value).filter(([, v]) => v !== undefined && v !== null);
  if (pairs.length === 0) return undefined;
  if (!spec.explode) {
    const joined = pairs.map(([k, v]) => enc(k) + ',' + enc(String(v))).join(',');
    return op.named ? named(spec, op, joined) : joined;
  }
  return pairs
    .map(([k, v]) => {
      const encoded = enc(String(v));
      return enc(k) + (op.named && encoded === '' ? op.ifemp : '=' + encoded);
    })
    .join(op.sep);
}

function expandExpression(expression: TemplateExpression, values: TemplateValues): string {
  const op = OPERATORS[expression.operator];
  const items: string[] = [];
  for (const spec of expression.variables) {
    // Own properties only: a variable named `constructor` must not pick up Object.prototype's.
    const value = Object.hasOwn(values, spec.name) ? values[spec.name] : undefined;
    const item = expandVariable(op, spec, value);
    if (item !== undefined) items.push(item);
  }
  return items.length === 0 ? '' : op.first + items.join(op.sep);
}

/** Expands parsed parts with `values`; literals are already encoded by the parser. */
export function expandParts(parts: readonly TemplatePart[], values: TemplateValues): string {
  let out = '';
  for (const part of parts) {
    out += part.type === 'literal' ? part.text : expandExpression(part, values);
  }
  return out;
}
