// Tool schemas from the libraries authors use: zod 4, valibot (through @valibot/to-json-schema)
// and arktype, each advertised as JSON Schema, validated on every call, and refused clearly
// when the library cannot give a JSON Schema by itself.
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isMcpKitError } from '../errors/mcpkit-error.js';
import { modern } from '../testing/messages.js';
import { connectInMemory } from '../transports/memory.js';
import { createServer } from './server.js';
import type { SchemaInput } from './tool-schema.js';

type Answer = {
  result?: {
    tools?: Array<{ name: string; inputSchema: Record<string, unknown> }>;
    content?: Array<{ text?: string }>;
    isError?: boolean;
  };
};

const LIBRARIES: Array<[string, SchemaInput]> = [
  ['zod', z.object({ text: z.string(), times: z.number().optional() })],
  [
    'valibot',
    toStandardJsonSchema(
      v.object({ text: v.string(), times: v.optional(v.number()) }),
    ) as SchemaInput,
  ],
  ['arktype', type({ text: 'string', 'times?': 'number' }) as unknown as SchemaInput],
];

describe.each(LIBRARIES)('a %s input schema', (_library, input) => {
  const server = createServer({ name: 'libs', version: '1.0.0' });
  server.tool('repeat', { input }, ({ text, times }: { text: string; times?: number }) =>
    text.repeat(times ?? 1),
  );
  const conn = connectInMemory(server);
  const call = async (args: unknown) =>
    (await conn.send(
      modern('tools/call', { name: 'repeat', arguments: args }),
    )) as unknown as Answer;

  it('is advertised as a JSON Schema object with its properties and required list', async () => {
    const list = (await conn.send(modern('tools/list'))) as unknown as Answer;
    const schema = list.result?.tools?.[0]?.inputSchema;
    expect(schema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' }, times: { type: 'number' } },
      required: ['text'],
    });
  });

  it('validates each call: good arguments reach the handler, bad ones are an isError naming the field', async () => {
    expect((await call({ text: 'ab', times: 2 })).result?.content?.[0]?.text).toBe('abab');
    expect((await call({ text: 'ab' })).result?.content?.[0]?.text).toBe('ab');
    const bad = await call({ text: 5 });
    expect(bad.result?.isError).toBe(true);
    expect(bad.result?.content?.[0]?.text).toMatch(/^Invalid arguments for tool "repeat": text/);
  });
});

describe('a library schema that cannot give JSON Schema by itself', () => {
  it('a plain valibot schema is refused, naming the adapter package', () => {
    let error: unknown;
    try {
      createServer({ name: 'x', version: '1' }).tool(
        'repeat',
        { input: v.object({ text: v.string() }) as unknown as SchemaInput },
        () => 'x',
      );
    } catch (e) {
      error = e;
    }
    expect(isMcpKitError(error) && error.code).toBe('SCHEMA_NOT_CONVERTIBLE');
    expect((error as Error).message).toBe(
      'tool "repeat" input: this valibot schema cannot produce JSON Schema (it does not implement ' +
        'Standard JSON Schema, ~standard.jsonSchema); wrap it with toStandardJsonSchema(schema) from ' +
        'the @valibot/to-json-schema package, or pass a JSON Schema object',
    );
  });

  it('a schema whose conversion throws says why', () => {
    const broken = {
      '~standard': {
        version: 1,
        vendor: 'acme',
        validate: (value: unknown) => ({ value }),
        jsonSchema: {
          input: () => {
            throw new Error('transforms cannot be represented');
          },
        },
      },
    } as unknown as SchemaInput;
    expect(() =>
      createServer({ name: 'x', version: '1' }).tool('t', { input: broken }, () => 'x'),
    ).toThrow(
      'tool "t" input: this acme schema cannot be written as JSON Schema: transforms cannot be represented',
    );
  });
});

describe('JSON Schemas with an $id', () => {
  // Two different schemas under one $id, nested $id included: each server checks against its own.
  const schemaOf = (inner: 'string' | 'number') => ({
    $id: 'https://example.com/args.json',
    type: 'object',
    properties: { v: { $ref: 'https://example.com/value.json' } },
    required: ['v'],
    $defs: { value: { $id: 'https://example.com/value.json', type: inner } },
  });
  const serverWith = (inner: 'string' | 'number') => {
    const server = createServer({ name: `ids-${inner}`, version: '1.0.0' });
    server.tool('take', { input: schemaOf(inner) }, () => 'taken');
    return connectInMemory(server);
  };
  const isError = async (conn: ReturnType<typeof connectInMemory>, v: unknown) =>
    ((await conn.send(modern('tools/call', { name: 'take', arguments: { v } }))) as Answer).result
      ?.isError === true;

  it('two servers in one process each compile and enforce their own schema of the same $id', async () => {
    const strings = serverWith('string');
    const numbers = serverWith('number');
    expect(await isError(strings, 'a')).toBe(false);
    expect(await isError(strings, 1)).toBe(true);
    expect(await isError(numbers, 1)).toBe(false);
    expect(await isError(numbers, 'a')).toBe(true);
  });

  it('a tool removed and registered again with a changed schema of the same $id compiles', async () => {
    const server = createServer({ name: 'again', version: '1.0.0' });
    const remove = server.tool('take', { input: schemaOf('string') }, () => 'taken');
    remove();
    server.tool('take', { input: schemaOf('number') }, () => 'taken');
    const conn = connectInMemory(server);
    expect(await isError(conn, 1)).toBe(false);
    expect(await isError(conn, 'a')).toBe(true);
  });
});

describe('a JSON Schema whose $id is a meta-schema', () => {
  it.each([
    'https://json-schema.org/draft/2020-12/schema',
    'https://json-schema.org/draft/2020-12/schema#',
    'https://json-schema.org/draft/2020-12/schema#/',
  ])('%s is refused, and schemas registered after it still compile and validate', async (id) => {
    const server = createServer({ name: 'meta-id', version: '1.0.0' });
    let thrown: unknown;
    try {
      server.tool('bad', { input: { $id: id, type: 'object' } }, () => 'no');
    } catch (error) {
      thrown = error;
    }
    expect(isMcpKitError(thrown) && thrown.code).toBe('SCHEMA_INVALID');
    // A new schema object each time: compiled now, against the meta-schema.
    server.tool(
      'good',
      { input: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
      () => 'ok',
    );
    expect(() =>
      server.tool(
        'invalid',
        { input: { type: 'object', properties: { n: { type: 7 } } } },
        () => 'no',
      ),
    ).toThrow(/does not compile/);
    const conn = connectInMemory(server);
    const call = async (args: unknown) =>
      ((await conn.send(modern('tools/call', { name: 'good', arguments: args }))) as Answer).result
        ?.isError === true;
    expect(await call({ n: 1 })).toBe(false);
    expect(await call({ n: 'one' })).toBe(true);
  });
});

describe('a $ref to the $id of a schema registered before', () => {
  it('resolves: a tool may refer to a schema another tool of the server declared', async () => {
    const server = createServer({ name: 'shared-ref', version: '1.0.0' });
    server.tool(
      'first',
      {
        input: {
          $id: 'https://example.com/shared-point.json',
          type: 'object',
          properties: { x: { type: 'number' } },
          required: ['x'],
        },
      },
      () => 'one',
    );
    server.tool(
      'second',
      {
        input: {
          type: 'object',
          properties: { at: { $ref: 'https://example.com/shared-point.json' } },
          required: ['at'],
        },
      },
      () => 'two',
    );
    const conn = connectInMemory(server);
    const call = async (args: unknown) =>
      ((await conn.send(modern('tools/call', { name: 'second', arguments: args }))) as Answer)
        .result?.isError === true;
    expect(await call({ at: { x: 1 } })).toBe(false);
    expect(await call({ at: { x: 'one' } })).toBe(true);
  });
});
