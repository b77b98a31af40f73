/**
 * Handlers typed from what is registered, checked by the compiler (test/types/typecheck.test.ts
 * runs tsc over the project): each `expectTypeOf` and `@ts-expect-error` below fails the build
 * when the inference changes. At run time the registrations simply succeed.
 */
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { toolError } from '../../src/content/index.js';
import { createServer, versionedRead, type ToolDefinition } from '../../src/server/index.js';
import type { TemplateVariables } from '../../src/server/inferred-types.js';

const server = () => createServer({ name: 'types', version: '1.0.0' });

describe('tool arguments, from the input schema', () => {
  it('zod: ({ text }) => text.toUpperCase() compiles, text is a string', () => {
    server().tool(
      'shout',
      { input: z.object({ text: z.string(), n: z.number().optional() }) },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string; n?: number | undefined }>();
        return args.text.toUpperCase();
      },
    );
  });

  it('valibot (through toStandardJsonSchema) and arktype', () => {
    server().tool(
      'v',
      { input: toStandardJsonSchema(v.object({ text: v.string() })) },
      ({ text }) => {
        expectTypeOf(text).toEqualTypeOf<string>();
        return text;
      },
    );
    server().tool('a', { input: type({ text: 'string', 'n?': 'number' }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ text: string; n?: number }>();
      return args.text;
    });
  });

  it('a JSON Schema literal, no `as const` needed: required and optional properties', () => {
    server().tool(
      'shout',
      {
        input: {
          type: 'object',
          properties: {
            text: { type: 'string' },
            times: { type: 'integer' },
            mode: { enum: ['loud', 'quiet'] },
            tags: { type: 'array', items: { type: 'string' } },
          },
          required: ['text'],
          additionalProperties: false,
        },
      },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{
          text: string;
          times?: number;
          mode?: 'loud' | 'quiet';
          tags?: string[];
        }>();
        // @ts-expect-error a typo does not compile
        return args.txet;
      },
    );
  });

  it('no input schema: no arguments; an annotation still wins', () => {
    server().tool('ping', {}, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, never>>();
      return 'pong';
    });
    server().tool(
      'echo',
      { input: { type: 'object' } },
      ({ text }: { text?: string }) => text ?? '',
    );
  });

  it('a definition typed ToolDefinition (built elsewhere) gives a loose record, not "no arguments"', () => {
    const def: ToolDefinition = {
      input: { type: 'object', properties: { q: { type: 'string' } } },
    };
    server().tool('find', def, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return String(args['q']);
    });
  });

  it('anyOf beside type and properties keeps the properties', () => {
    server().tool(
      'either',
      {
        input: {
          type: 'object',
          properties: { a: { type: 'string' }, b: { type: 'number' } },
          anyOf: [{ required: ['a'] }, { required: ['b'] }],
          additionalProperties: false,
        },
      },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{ a?: string; b?: number }>();
        return 'ok';
      },
    );
  });

  it('an error result (toolError) is not held to the output schema', () => {
    server().tool('weather3', { output: z.object({ celsius: z.number() }) }, () =>
      toolError('the sensor is down'),
    );
  });

  it('structuredContent is typed from the output schema', () => {
    server().tool('weather', { output: z.object({ celsius: z.number() }) }, () => ({
      content: [],
      structuredContent: { celsius: 21 },
    }));
    server().tool(
      'weather2',
      { output: z.object({ celsius: z.number() }) },
      // @ts-expect-error structuredContent must match the output schema
      () => ({ content: [], structuredContent: { celsius: 'warm' } }),
    );
  });
});

describe('template variables, from the template string', () => {
  it("'note://{name}{?rev}' gives { name: string; rev?: string }", () => {
    expectTypeOf<TemplateVariables<'note://{name}{?rev}'>>().toEqualTypeOf<{
      name: string;
      rev?: string;
    }>();
    server().resource('note://{name}{?rev}', { name: 'note' }, (_uri, vars) => {
      expectTypeOf(vars.name).toEqualTypeOf<string>();
      // @ts-expect-error vars.nmae is a typo
      return vars.nmae;
    });
  });

  it('a versioned answer is held to what a read handler may return', () => {
    const version = {};
    server().resource('mem://ok', { name: 'ok' }, (uri) =>
      versionedRead({ contents: [{ uri, text: 'ok' }] }, version),
    );
    server().resource('mem://text', { name: 'text' }, () => versionedRead('plain text', version));
    // @ts-expect-error a number is no answer, versioned or not
    server().resource('mem://bad', { name: 'bad' }, () => versionedRead(42, version));
  });

  it('explode and list forms give string[]; prefixes and reserved forms give string', () => {
    expectTypeOf<TemplateVariables<'file:///{+path}{?offset,length}'>>().toEqualTypeOf<{
      path: string;
      offset?: string;
      length?: string;
    }>();
    expectTypeOf<TemplateVariables<'doc://x{/segments*}{;v:3}'>>().toEqualTypeOf<{
      segments?: string[];
      v?: string;
    }>();
    expectTypeOf<TemplateVariables<'db://{a,b}'>>().toEqualTypeOf<{ a: string; b?: string }>();
    expectTypeOf<TemplateVariables<'plain://no-variables'>>().toEqualTypeOf<
      Record<string, never>
    >();
  });

  it('a template known only at run time gives a loose record', () => {
    const _t: string = ['note://', '{name}'].join('');
    expectTypeOf<TemplateVariables<typeof _t>>().toEqualTypeOf<Record<string, string | string[]>>();
  });
});

describe('prompt arguments, from their list', () => {
  it('required ones are strings, the rest may be absent', () => {
    server().prompt(
      'greet',
      { arguments: [{ name: 'who', required: true }, { name: 'tone' }] },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{ who: string; tone?: string }>();
        // @ts-expect-error not an argument of this prompt
        return `Hello ${args.whom}`;
      },
    );
    server().prompt(
      'summarise',
      {
        input: z.object({
          path: z.string(),
          words: z.coerce.number(),
          bullets: z.stringbool().optional(),
        }),
      },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{
          path: string;
          words: number;
          bullets?: boolean | undefined;
        }>();
        return args.path;
      },
    );
    server().prompt('bare', {}, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, never>>();
      return 'hi';
    });
  });
});
