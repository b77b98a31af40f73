import AjvModule from 'ajv/dist/2020.js';
import { McpKitError } from '../errors/mcpkit-error.js';

type AjvClass = typeof AjvModule.default;
const Ajv2020 = ((AjvModule as unknown as { default?: AjvClass }).default ?? AjvModule) as AjvClass;

/** The parts of Standard Schema v1 (and Standard JSON Schema) that we use. */
export interface StandardSchemaLike {
  '~standard': {
    version: 1;
    vendor: string;
    validate: (value: unknown) => StandardResult | Promise<StandardResult>;
    jsonSchema?: { input: (options: { target: string }) => Record<string, unknown> };
  };
}

export type StandardResult =
  | { value: unknown; issues?: undefined }
  | {
      issues: ReadonlyArray<{
        message: string;
        path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined;
      }>;
    };

export type SchemaInput = StandardSchemaLike | Record<string, unknown>;

export type SchemaCheck = { ok: true; value: unknown } | { ok: false; message: string };

/** A compiled schema: what to advertise and how to check a value. */
export interface CompiledSchema {
  json: Record<string, unknown>;
  /**
   * The (possibly transformed) value, or an error message naming the field. Synchronous where the
   * validator is (JSON Schema), so that checking adds no turn of the event loop before a handler.
   */
  check: (value: unknown) => SchemaCheck | Promise<SchemaCheck>;
}

/** How to get a JSON Schema out of a library whose schemas do not give one themselves. */
const ADAPTERS: Record<string, string> = {
  valibot:
    'wrap it with toStandardJsonSchema(schema) from the @valibot/to-json-schema package, or pass a JSON Schema object',
  zod: 'use zod 4.2 or later (its schemas implement it), or pass a JSON Schema object',
  arktype: 'use arktype 2.1.22 or later (its types implement it), or pass a JSON Schema object',
};
const ANY_ADAPTER =
  "use the library's adapter that implements Standard JSON Schema, or pass a JSON Schema object";

const AJV_OPTIONS = { strict: false, allErrors: false, validateFormats: false } as const;

let ajv: InstanceType<AjvClass> | undefined;

/** Ajv's refusal of a schema whose `$id` (or a nested one) another schema holds already. */
const ID_TAKEN = /^schema with key or id ".*" already exists$/;

/**
 * Compiles a user schema. One compiler serves the process, so that the same schema object is
 * compiled once however many servers register it; a schema whose `$id` another one holds there
 * (another server's, or a tool registered before with other contents) is compiled by a
 * compiler of its own instead of being refused.
 */
function compileUser(
  schema: Record<string, unknown>,
): ReturnType<InstanceType<AjvClass>['compile']> {
  // No loadSchema: network $refs are never dereferenced.
  ajv ??= new Ajv2020(AJV_OPTIONS);
  try {
    return ajv.compile(schema);
  } catch (error) {
    if (!(error instanceof Error) || !ID_TAKEN.test(error.message)) throw error;
    return new Ajv2020(AJV_OPTIONS).compile(schema);
  }
}

export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  // arktype's types are functions that carry ~standard.
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    '~standard' in value
  );
}

function pathText(path: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined): string {
  if (!path || path.length === 0) return '';
  return path.map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
}

/** Compiles a tool's input or output schema once, at registration. */
export function compileSchema(schema: SchemaInput, what: string): CompiledSchema {
  if (isStandardSchema(schema)) {
    const std = schema['~standard'];
    if (typeof std.jsonSchema?.input !== 'function')
      throw new McpKitError(
        'SCHEMA_NOT_CONVERTIBLE',
        `${what}: this ${std.vendor} schema cannot produce JSON Schema (it does not implement ` +
          `Standard JSON Schema, ~standard.jsonSchema); ${ADAPTERS[std.vendor] ?? ANY_ADAPTER}`,
      );
    let json: Record<string, unknown>;
    try {
      json = std.jsonSchema.input({ target: 'draft-2020-12' });
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new McpKitError(
        'SCHEMA_NOT_CONVERTIBLE',
        `${what}: this ${std.vendor} schema cannot be written as JSON Schema: ${reason}`,
        { cause },
      );
    }
    return {
      json,
      check: async (value) => {
        const result = await std.validate(value);
        if (result.issues === undefined) return { ok: true, value: result.value };
        const first = result.issues[0];
        const at = pathText(first?.path);
        return { ok: false, message: `${at ? `${at}: ` : ''}${first?.message ?? 'invalid'}` };
      },
    };
  }
  let validate;
  try {
    validate = compileUser(schema);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new McpKitError(
      'SCHEMA_INVALID',
      `${what}: the JSON Schema does not compile: ${reason}`,
      { cause },
    );
  }
  return {
    json: schema,
    check: (value) => {
      if (validate(value)) return { ok: true, value };
      const e = validate.errors?.[0];
      const at = e?.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '';
      const missing =
        e?.keyword === 'required'
          ? (e.params as { missingProperty?: string }).missingProperty
          : undefined;
      const msg = missing
        ? `${at ? `${at}.` : ''}${missing} is required`
        : `${at ? `${at} ` : ''}${e?.message ?? 'is invalid'}`;
      return { ok: false, message: msg };
    },
  };
}
