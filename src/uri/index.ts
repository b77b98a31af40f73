/** @module mcpkit/uri */
export { parseTemplate, isTemplate, TemplateSyntaxError } from './template.js';
export type {
  UriTemplate,
  MatchOptions,
  MatchedValues,
  TemplateValue,
  TemplateValues,
  TemplatePart,
  TemplateExpression,
  TemplateLiteral,
  VarSpec,
  Operator,
} from './template.js';
export { checkVariable, matchSafely, decodeComponent } from './guards.js';
export type { VariableKind, CheckVariableOptions, SafeMatch } from './guards.js';
export { coversUri } from './covers.js';
