import AjvModule from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import modernSchema from './schema/schema-2026-07-28.json' with { type: 'json' };
import legacySchema from './schema/schema-2025-11-25.json' with { type: 'json' };
import { isBase64 } from './base64.js';
import { defsOf } from './methods.js';
import { isUri } from './uri-syntax.js';
import type { Era } from './versions.js';

type AjvClass = typeof AjvModule.default;
const Ajv2020 = ((AjvModule as unknown as { default?: AjvClass }).default ?? AjvModule) as AjvClass;

/** Method -> `$defs` name of its params, per era (from the method table). */
const MODERN_PARAMS: Record<string, string> = defsOf('modern', 'params');

const LEGACY_PARAMS: Record<string, string> = {
  ...defsOf('legacy', 'params'),
  // Results of requests we send to legacy clients.
  'result:sampling/createMessage': 'CreateMessageResult',
  'result:elicitation/create': 'ElicitResult',
  'result:roots/list': 'ListRootsResult',
};

/** Method -> `$defs` name of the result a server owes for it, per era. */
const RESULT_DEFS: Record<Era, Record<string, string>> = {
  modern: { ...defsOf('modern', 'result'), input_required: 'InputRequiredResult' },
  legacy: defsOf('legacy', 'result'),
};

/** A validation failure: where and what, ready for an error message. */
export interface ValidationIssue {
  /** A JSON path such as `params._meta["io.modelcontextprotocol/protocolVersion"]`. */
  field: string;
  message: string;
}

export type ParamsValidator = (params: unknown) => ValidationIssue | undefined;

function createAjv(schema: object, id: string): InstanceType<AjvClass> {
  // The official schemas are trusted: skip compiling the meta-schema to check them (startup time).
  const ajv = new Ajv2020({
    strict: false,
    allErrors: false,
    validateFormats: true,
    validateSchema: false,
  });
  ajv.addFormat('uri', { type: 'string', validate: isUri });
  ajv.addFormat('byte', { type: 'string', validate: isBase64 });
  ajv.addFormat('uri-template', true);
  ajv.addSchema(schema, id);
  return ajv;
}

function pathOf(root: string, instancePath: string): string {
  let out = root;
  if (instancePath === '') return out;
  for (const raw of instancePath.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^[A-Za-z_$][\w$]*$/.test(seg)
      ? `.${seg}`
      : /^\d+$/.test(seg)
        ? `[${seg}]`
        : `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** How issues name member `key` of `root` (`root.key`, or `root["a key"]`). */
export function memberPath(root: string, key: string): string {
  return pathOf(root, `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
}

function describe(root: string, error: ErrorObject): ValidationIssue {
  const base = pathOf(root, error.instancePath);
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty?: string }).missingProperty);
    const field = pathOf(base, `/${missing.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    return { field, message: `${field} is required` };
  }
  if (error.keyword === 'format') {
    const format = String((error.params as { format?: string }).format);
    const what =
      format === 'byte'
        ? 'canonical base64'
        : format === 'uri'
          ? 'an absolute URI (RFC 3986)'
          : format;
    return { field: base, message: `${base} must be ${what}` };
  }
  return { field: base, message: `${base} ${error.message ?? 'is invalid'}` };
}

class EraValidators {
  private readonly ajv: InstanceType<AjvClass>;
  private readonly cache = new Map<string, ValidateFunction | null>();
  /**
   * Checkers by root, then definition (no key string built per call); the set of both is fixed
   * by the schema and the callers.
   */
  private readonly checkers = new Map<string, Map<string, ParamsValidator | null>>();

  constructor(
    schema: object,
    private readonly id: string,
    private readonly table: Record<string, string>,
  ) {
    this.ajv = createAjv(schema, id);
  }

  get(key: string): ParamsValidator | undefined {
    // The key comes from the client: never look it up on Object.prototype ("constructor").
    const def = Object.hasOwn(this.table, key) ? this.table[key] : undefined;
    return def ? this.forDef(def, key.startsWith('result:') ? 'result' : 'params') : undefined;
  }

  forDef(def: string, root: string): ParamsValidator | undefined {
    // One checker per definition and root, made at its first use: never one per request.
    let byDef = this.checkers.get(root);
    if (!byDef) this.checkers.set(root, (byDef = new Map()));
    const known = byDef.get(def);
    if (known !== undefined) return known ?? undefined;
    let fn = this.cache.get(def);
    if (fn === undefined) {
      fn = this.ajv.getSchema(`${this.id}#/$defs/${def}`) ?? null;
      this.cache.set(def, fn);
    }
    const validate = fn;
    const checker: ParamsValidator | null =
      validate === null
        ? null
        : (params) => {
            if (validate(params)) return undefined;
            const first = validate.errors?.[0];
            return first ? describe(root, first) : { field: root, message: `${root} is invalid` };
          };
    byDef.set(def, checker);
    return checker ?? undefined;
  }

  /** Compiles every known validator now, so that no request pays for it. */
  warm(): void {
    for (const key of Object.keys(this.table)) this.get(key);
  }
}

let eras: { modern: EraValidators; legacy: EraValidators } | undefined;

function validators(): { modern: EraValidators; legacy: EraValidators } {
  eras ??= {
    modern: new EraValidators(modernSchema, 'mcp-2026-07-28', MODERN_PARAMS),
    legacy: new EraValidators(legacySchema, 'mcp-2025-11-25', LEGACY_PARAMS),
  };
  return eras;
}

/** Compiles all validators up front (done once per process). */
export function warmValidators(): void {
  const v = validators();
  v.modern.warm();
  v.legacy.warm();
}

/**
 * Validates a method's params against the official schema of the era.
 * Returns undefined when valid or when the method has no schema in that era.
 */
export function validateParams(
  era: Era,
  method: string,
  params: unknown,
): ValidationIssue | undefined {
  const check = validators()[era].get(method);
  return check ? check(params ?? {}) : undefined;
}

/** Validates a legacy client's result to a request we sent (sampling, elicitation, roots). */
export function validateClientResult(method: string, result: unknown): ValidationIssue | undefined {
  const check = validators().legacy.get(`result:${method}`);
  return check ? check(result) : undefined;
}

/**
 * Validates a server's result to one of our requests against the official schema of the era
 * (`method` "input_required" for an InputRequiredResult). Undefined when valid or unknown.
 */
export function validateServerResult(
  era: Era,
  method: string,
  result: unknown,
): ValidationIssue | undefined {
  const table = RESULT_DEFS[era];
  const def = Object.hasOwn(table, method) ? table[method] : undefined;
  const check = def ? validators()[era].forDef(def, 'result') : undefined;
  return check ? check(result) : undefined;
}

/**
 * Validates any value against a named `$defs` entry; `root` is how messages name the value
 * (`params.notifications`, say).
 */
export function validateDef(
  era: Era,
  def: string,
  value: unknown,
  root = 'value',
): ValidationIssue | undefined {
  const check = validators()[era].forDef(def, root);
  if (!check) throw new Error(`no $defs entry named ${def}`);
  return check(value);
}
