/**
 * Prompt arguments given as a schema (`input`), advertised as the `arguments` list. The wire
 * carries strings only, so a property typed otherwise must parse a string (`z.coerce.number()`):
 * one that cannot is refused when the prompt is registered.
 */
import { McpKitError } from '../errors/mcpkit-error.js';
import type { PromptArgument } from '../protocol/types.js';
import { checkInputRoot, checkSchemaInput } from './definition-checks.js';
import {
  compileSchema,
  isStandardSchema,
  type CompiledSchema,
  type SchemaInput,
  type StandardResult,
} from './tool-schema.js';

/**
 * Strings a schema that parses them takes for each JSON type, whatever its bounds: one of them
 * passing is enough (a coercing `.min(10)` refuses '0' but takes '10').
 */
const PROBES: Record<string, string[]> = {
  number: ['0', '1', '10', '100', '1000000', '-1', '0.5'],
  integer: ['0', '1', '10', '100', '1000000', '-1'],
  boolean: ['true', 'false'],
};

/** The probes of one property: its type's, and its own bounds (a port: 1024 to 65535). */
function probesFor(schema: Record<string, unknown>): string[] {
  const out = [...(PROBES[typesOf(schema)[0] as string] ?? [''])];
  const num = (k: string) => (typeof schema[k] === 'number' ? (schema[k] as number) : undefined);
  const low = num('minimum') ?? (num('exclusiveMinimum') ?? NaN) + 1;
  const high = num('maximum') ?? (num('exclusiveMaximum') ?? NaN) - 1;
  for (const v of [low, high, Math.floor((low + high) / 2)])
    if (Number.isFinite(v)) out.push(String(v));
  return out;
}

const typesOf = (schema: unknown): string[] => {
  const t = (schema as { type?: unknown } | undefined)?.type;
  if (typeof t === 'string') return [t];
  return Array.isArray(t) ? t.filter((x) => typeof x === 'string') : [];
};

export interface PromptInput {
  schema: CompiledSchema;
  /** The `arguments` list advertised for it. */
  arguments: PromptArgument[];
}

export function compilePromptInput(input: SchemaInput, name: string): PromptInput {
  const what = `prompt "${name}"`;
  checkSchemaInput(input, what, 'input');
  const schema = compileSchema(input, `${what} input`);
  checkInputRoot(schema.json, what);
  const properties = (schema.json['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema.json['required'] as string[] | undefined) ?? []);
  const typed = Object.entries(properties).filter(([, p]) => {
    const types = typesOf(p);
    return types.length > 0 && !types.includes('string');
  });
  if (typed.length > 0) refuseUnparsable(input, what, typed);
  return {
    schema,
    arguments: Object.entries(properties).map(([arg, p]) => ({
      name: arg,
      ...(typeof p['description'] === 'string' ? { description: p['description'] } : {}),
      ...(required.has(arg) ? { required: true } : {}),
    })),
  };
}

/**
 * A JSON Schema property typed other than string can never match what the wire carries; a
 * Standard Schema one must parse the probe string of its type (a coercing schema does).
 */
function refuseUnparsable(
  input: SchemaInput,
  what: string,
  typed: Array<[string, Record<string, unknown>]>,
): void {
  const refuse = (arg: string, type: string): never => {
    throw new McpKitError(
      'INVALID_DEFINITION',
      `${what}: input.${arg} is typed ${type}, but prompt arguments travel as strings; ` +
        'declare it a string and parse it in the handler, or give a schema that parses strings ' +
        '(z.coerce.number(), z.stringbool())',
    );
  };
  if (!isStandardSchema(input)) {
    const [arg, p] = typed[0] as [string, Record<string, unknown>];
    return refuse(arg, typesOf(p).join(' | '));
  }
  const passed = new Set<string>();
  const lists = typed.map(([arg, p]) => [arg, probesFor(p)] as const);
  const rounds = Math.max(...lists.map(([, l]) => l.length));
  for (let round = 0; round < rounds; round++) {
    const probe: Record<string, string> = {};
    for (const [arg, probes] of lists) probe[arg] = probes[round % probes.length] as string;
    const result: StandardResult | Promise<StandardResult> = input['~standard'].validate(probe);
    if (result instanceof Promise) return; // an async validator: judged on the first call instead
    const failed = new Set(
      (result.issues ?? []).map((issue) => {
        const first = issue.path?.[0];
        return String(typeof first === 'object' && first !== null ? first.key : first);
      }),
    );
    for (const [arg] of typed) if (!failed.has(arg)) passed.add(arg);
  }
  const failing = typed.find(([arg]) => !passed.has(arg));
  if (failing) refuse(failing[0], typesOf(failing[1]).join(' | '));
}
