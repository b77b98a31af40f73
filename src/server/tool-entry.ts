/** A tool definition compiled once, at registration: its schemas and the wire `Tool`. */
import type { ToolDefinition, ToolHandler } from './definitions.js';
import { checkInputRoot } from './definition-checks.js';
import type { ToolEntry } from './entries.js';
import { compileSchema, type CompiledSchema } from './tool-schema.js';

const DEFAULT_INPUT_SCHEMA = { type: 'object', additionalProperties: false } as const;
let defaultInput: CompiledSchema | undefined;

/** A copy of `value` without `keys`. */
export function without<T extends object, K extends string>(value: T, ...keys: K[]): Omit<T, K> {
  const out = { ...value } as Record<string, unknown>;
  for (const key of keys) delete out[key];
  return out as Omit<T, K>;
}

export function toolEntry(
  name: string,
  definition: ToolDefinition,
  handler: ToolHandler<never>,
): ToolEntry {
  // Without an input schema the tool takes no arguments, and says so: the advertised default
  // is also the one enforced (compiled once for all such tools).
  const input = definition.input
    ? compileSchema(definition.input, `tool "${name}" input`)
    : (defaultInput ??= compileSchema(DEFAULT_INPUT_SCHEMA, 'the default tool input'));
  if (definition.input) checkInputRoot(input.json, `tool "${name}"`);
  const output = definition.output
    ? compileSchema(definition.output, `tool "${name}" output`)
    : undefined;
  const tool = {
    name,
    ...without(definition, 'input', 'output', 'scopes'),
    inputSchema: definition.input ? input.json : { ...DEFAULT_INPUT_SCHEMA },
    ...(output ? { outputSchema: output.json } : {}),
  };
  const scopes = definition.scopes?.length ? [...definition.scopes] : undefined;
  return { tool, input, output, handler, scopes };
}
