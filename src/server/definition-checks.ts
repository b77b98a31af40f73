/**
 * Definitions checked at registration: one bad input schema makes strict clients (the official
 * one) reject all of `tools/list`, so each mistake throws at once, naming the field and the fix.
 */
import { McpKitError } from '../errors/mcpkit-error.js';
import { isStandardSchema } from './tool-schema.js';

/** The spec's rule for tool names: 1 to 128 characters of A-Z, a-z, 0-9, `_`, `-` and `.`. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function fail(what: string, message: string): never {
  throw new McpKitError('INVALID_DEFINITION', `${what}: ${message}`);
}

const shown = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

function plainObject(value: unknown, what: string, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(what, `${field} must be an object, got ${shown(value)}`);
  return value as Record<string, unknown>;
}

function handlerFunction(value: unknown, what: string, name: string): void {
  if (typeof value !== 'function')
    fail(what, `the ${name} must be a function, got ${shown(value)}`);
}

function optionalString(definition: Record<string, unknown>, field: string, what: string): void {
  const value = definition[field];
  if (value !== undefined && typeof value !== 'string')
    fail(what, `${field} must be a string, got ${shown(value)}`);
}

/**
 * An input or output schema as given: a JSON Schema object or a Standard Schema, never a raw
 * shape of schemas (`{ a: z.number() }`, which would be serialised as the schemas' internals).
 */
export function checkSchemaInput(schema: unknown, what: string, field: string): void {
  if (isStandardSchema(schema)) return;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    fail(
      what,
      `${field} must be a JSON Schema object or a Standard Schema (zod, valibot, arktype), got ${shown(schema)}`,
    );
  const entries = Object.entries(schema);
  if (entries.length > 0 && entries.every(([, v]) => isStandardSchema(v))) {
    const keys = entries.map(([k]) => k).join(', ');
    fail(
      what,
      `${field} is a raw shape of schemas ({ ${keys} }), not a schema; wrap it in an object schema: z.object({ ${keys} })`,
    );
  }
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties === 'object' && properties !== null) {
    const mixed = Object.entries(properties).find(([, v]) => isStandardSchema(v));
    if (mixed)
      fail(
        what,
        `${field}.properties.${mixed[0]} is a Standard Schema inside a JSON Schema; use one or the other (JSON Schema throughout, or z.object({...}))`,
      );
  }
}

/** The JSON Schema a tool advertises as its input: tool arguments are always an object. */
export function checkInputRoot(json: Record<string, unknown>, what: string): void {
  if (json['type'] === 'object') return;
  const got =
    json['type'] === undefined ? 'has no type' : `describes type ${JSON.stringify(json['type'])}`;
  fail(
    what,
    `input ${got}, but tool arguments are always an object (the spec requires inputSchema type "object"); ` +
      `name the argument: { type: 'object', properties: { value: ${JSON.stringify(json)} }, required: ['value'] }` +
      ', or with zod z.object({ value: ... })',
  );
}

export function checkToolDefinition(name: unknown, definition: unknown, handler: unknown): void {
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    fail(
      `tool ${JSON.stringify(name)}`,
      'the name must be 1 to 128 characters of A-Z, a-z, 0-9, "_", "-" and "." (the spec\'s rule), such as "get_weather"',
    );
  }
  const what = `tool "${name}"`;
  const def = plainObject(definition, what, 'the definition');
  handlerFunction(handler, what, 'handler');
  optionalString(def, 'title', what);
  optionalString(def, 'description', what);
  if (def['input'] !== undefined) checkSchemaInput(def['input'], what, 'input');
  if (def['output'] !== undefined) checkSchemaInput(def['output'], what, 'output');
}

export function checkResourceDefinition(uri: unknown, definition: unknown, read: unknown): void {
  if (typeof uri !== 'string' || uri === '')
    fail(`resource ${JSON.stringify(uri)}`, 'the URI or URI template must be a non-empty string');
  const what = `resource "${uri}"`;
  const def = plainObject(definition, what, 'the definition');
  if (typeof def['name'] !== 'string' || def['name'] === '')
    fail(
      what,
      `name is ${def['name'] === '' ? 'empty' : 'missing'}: every resource and template needs one (Resource.name), such as { name: 'readme' }`,
    );
  handlerFunction(read, what, 'read handler');
  optionalString(def, 'title', what);
  optionalString(def, 'description', what);
  optionalString(def, 'mimeType', what);
}

export function checkPromptDefinition(name: unknown, definition: unknown, handler: unknown): void {
  if (typeof name !== 'string' || name.trim() === '')
    fail(`prompt ${JSON.stringify(name)}`, 'the name must be a non-empty string');
  const what = `prompt "${name}"`;
  const def = plainObject(definition, what, 'the definition');
  handlerFunction(handler, what, 'handler');
  optionalString(def, 'title', what);
  optionalString(def, 'description', what);
  const args = def['arguments'];
  if (args !== undefined && def['input'] !== undefined)
    fail(what, 'give the arguments as a list (arguments) or as a schema (input), not both');
  if (args === undefined) return;
  if (!Array.isArray(args)) fail(what, `arguments must be an array, got ${shown(args)}`);
  const seen = new Set<string>();
  args.forEach((arg: unknown, i) => {
    const a = plainObject(arg, what, `arguments[${i}]`);
    if (typeof a['name'] !== 'string' || a['name'] === '')
      fail(
        what,
        `arguments[${i}].name is missing: every argument needs one, such as { name: 'path' }`,
      );
    if (seen.has(a['name'])) fail(what, `arguments[${i}].name "${a['name']}" is given twice`);
    seen.add(a['name']);
    if (a['required'] !== undefined && typeof a['required'] !== 'boolean')
      fail(what, `arguments[${i}].required must be a boolean, got ${shown(a['required'])}`);
  });
}
