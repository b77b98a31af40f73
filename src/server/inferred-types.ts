/**
 * Types read off what an author registers, so that handlers are typed without annotations:
 * tool arguments (and `structuredContent`) from a Standard Schema or a JSON Schema literal,
 * template variables from the URI template string, prompt arguments from their list.
 * Type-level only; nothing here exists at run time.
 */

/** Flattens an intersection for readable hovers. */
type Flat<T> = { [K in keyof T]: T[K] } & {};

/** The validated value of a Standard Schema v1 (its declared output type). */
export type StandardOutput<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly output: infer O }
    ? O
    : unknown
  : never;

type Required<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

type ObjectOf<S, Depth extends unknown[]> = S extends { readonly properties: infer P }
  ? Flat<
      { -readonly [K in keyof P as K extends Required<S> ? K : never]: JsonValue<P[K], Depth> } & {
        -readonly [K in keyof P as K extends Required<S> ? never : K]?: JsonValue<P[K], Depth>;
      } & (S extends { readonly additionalProperties: false } ? unknown : Record<string, unknown>)
    >
  : Record<string, unknown>;

type NamedType<T, S, Depth extends unknown[]> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer I }
            ? JsonValue<I, Depth>[]
            : unknown[]
          : T extends 'object'
            ? ObjectOf<S, Depth>
            : unknown;

/**
 * The value a JSON Schema literal accepts (`type`, `properties`, `required`, `items`, `enum`,
 * `const`, `anyOf`/`oneOf`); unknown past 8 levels or for what it cannot read.
 */
export type JsonValue<S, Depth extends unknown[] = []> = Depth['length'] extends 8
  ? unknown
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly enum: readonly (infer E)[] }
      ? E
      : S extends { readonly type: infer T }
        ? string extends T
          ? unknown // a schema whose type is not a literal: nothing to read
          : T extends readonly (infer U)[]
            ? NamedType<U, S, [...Depth, 0]>
            : NamedType<T, S, [...Depth, 0]>
        : S extends { readonly anyOf: readonly (infer U)[] }
          ? JsonValue<U, [...Depth, 0]>
          : S extends { readonly oneOf: readonly (infer U)[] }
            ? JsonValue<U, [...Depth, 0]>
            : unknown;

/**
 * What a schema (Standard Schema or JSON Schema literal) gives a handler; an object schema that
 * cannot be read at the type level (a JSON Schema built at run time) gives a loose record.
 */
export type SchemaValue<S> = [StandardOutput<S>] extends [never]
  ? unknown extends JsonValue<S>
    ? Record<string, unknown>
    : JsonValue<S>
  : StandardOutput<S>;

/** A tool's arguments: from its `input`, or none at all without one. */
export type ToolArgs<D> = D extends { readonly input: infer S }
  ? SchemaValue<S>
  : 'input' extends keyof D
    ? Record<string, unknown> // a definition typed ToolDefinition: its input may be there
    : Record<string, never>;

/** A tool's `structuredContent`: from its `output`; unknown without one. */
export type ToolStructured<D> = D extends { readonly output: infer S } ? SchemaValue<S> : unknown;

// --- URI templates (RFC 6570) -----------------------------------------------------------------

type Operator = '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** One variable spec: `name`, `name*` (explode: a list), `name:3` (a prefix). */
type OneVar<V extends string, Present extends boolean> = V extends `${infer N}*`
  ? { [K in N]?: string[] }
  : V extends `${infer N}:${string}`
    ? Field<N, Present>
    : Field<V, Present>;

type Field<N extends string, Present extends boolean> = Present extends true
  ? { [K in N]: string }
  : { [K in N]?: string };

/** A list of specs; only the first of a simple (`{x}`) or reserved (`{+x}`) one is always set. */
type VarList<B extends string, Present extends boolean> = B extends `${infer One},${infer More}`
  ? OneVar<One, Present> & VarList<More, false>
  : OneVar<B, Present>;

type ExpressionVars<E extends string> = E extends `${infer Op}${infer Body}`
  ? Op extends Operator
    ? VarList<Body, Op extends '+' ? true : false>
    : VarList<E, true>
  : unknown;

type VarsOf<T extends string> = T extends `${string}{${infer E}}${infer Rest}`
  ? ExpressionVars<E> & VarsOf<Rest>
  : unknown;

/**
 * The variables a read handler gets for `uriOrTemplate`: `'note://{name}{?rev}'` gives
 * `{ name: string; rev?: string }`, an exploded `{/path*}` gives `path?: string[]`. A template
 * known only at run time gives a loose record.
 */
export type TemplateVariables<T extends string> = string extends T
  ? Record<string, string | string[]>
  : [keyof VarsOf<T>] extends [never]
    ? Record<string, never> // a plain URI: no variables
    : Flat<VarsOf<T>>;

// --- Prompts ----------------------------------------------------------------------------------

type ArgumentList<L> = L extends readonly (infer A)[] ? A : never;
type RequiredName<A> = A extends { readonly name: infer N extends string; readonly required: true }
  ? N
  : never;
type AnyName<A> = A extends { readonly name: infer N extends string } ? N : never;

/** A prompt's arguments from its `arguments` list: required ones always there, the rest maybe. */
export type PromptArgs<D> = D extends { readonly input: infer S }
  ? SchemaValue<S>
  : 'input' extends keyof D
    ? Record<string, string> // a definition typed PromptDefinition
    : D extends { readonly arguments: infer L }
      ? string extends AnyName<ArgumentList<L>>
        ? Record<string, string>
        : Flat<
            { [K in RequiredName<ArgumentList<L>>]: string } & {
              [K in Exclude<AnyName<ArgumentList<L>>, RequiredName<ArgumentList<L>>>]?: string;
            }
          >
      : Record<string, never>;
