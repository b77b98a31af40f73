import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../errors/protocol-error.js';
import { rejection, testEnv, testServer } from '../../testing/server-core.js';
import type { ToolReturn } from '../definitions.js';
import { isInputRequired } from '../input-required.js';
import type { StandardSchemaLike } from '../tool-schema.js';
import { boundTarget } from './target.js';
import { toolMethods } from './tools.js';

const NAMED = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
  additionalProperties: false,
};

function setup() {
  const errors: Array<[unknown, string]> = [];
  const made = testServer({ onError: (error, method) => errors.push([error, method]) });
  return { ...made, errors };
}

function call(
  core: ReturnType<typeof setup>['core'],
  name: string,
  args?: unknown,
  era: 'modern' | 'legacy' = 'modern',
) {
  const params = args === undefined ? { name } : { name, arguments: args };
  return toolMethods['tools/call']!.run(params, testEnv(core, { era }));
}

describe('tools/call: arguments', () => {
  it('fails an unknown tool with -32602 naming it', async () => {
    const { core } = setup();
    expect(await rejection(call(core, 'nope'))).toMatchObject({
      code: -32602,
      message: 'Unknown tool: "nope"',
      data: { name: 'nope' },
    });
  });

  it('turns invalid arguments into an isError result without running the handler', async () => {
    const { server, core } = setup();
    let ran = false;
    server.tool('greet', { input: NAMED }, () => ((ran = true), 'hi'));
    expect(await call(core, 'greet')).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool "greet": name is required' }],
      isError: true,
    });
    expect(await call(core, 'greet', { name: 3 })).toMatchObject({ isError: true });
    expect(ran).toBe(false);
  });

  it('runs a tool without an input schema with empty arguments', async () => {
    const { server, core } = setup();
    const seen: unknown[] = [];
    server.tool('bare', {}, (args) => (seen.push(args), 'ok'));
    expect(await call(core, 'bare')).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(seen).toEqual([{}]);
  });

  // A tool registered without `input` advertises { type: 'object', additionalProperties: false }:
  // what it advertises is what it enforces.
  it('refuses arguments the default "no arguments" schema forbids', async () => {
    const { server, core } = setup();
    server.tool('bare', {}, () => 'ok');
    expect(server.registered().tools[0]?.inputSchema).toEqual({
      type: 'object',
      additionalProperties: false,
    });
    expect(await call(core, 'bare', { extra: 1 })).toMatchObject({ isError: true });
  });

  it("hands the handler the schema's checked (transformed) value", async () => {
    const { server, core } = setup();
    const trimmed: StandardSchemaLike = {
      '~standard': {
        version: 1,
        vendor: 'unit',
        validate: (v) => ({ value: { name: String((v as { name: string }).name).trim() } }),
        jsonSchema: { input: () => NAMED },
      },
    };
    server.tool('greet', { input: trimmed }, ({ name }: { name: string }) => `hi ${name}`);
    expect(await call(core, 'greet', { name: '  jo ' })).toEqual({
      content: [{ type: 'text', text: 'hi jo' }],
    });
  });
});

describe('tools/call: handler failures', () => {
  it.each([
    ['an Error', new Error('boom'), 'boom'],
    ['a string', 'plain', 'plain'],
  ])('turns %s into an isError result and reports it to onError', async (_w, thrown, text) => {
    const { server, core, errors } = setup();
    server.tool('bad', {}, () => {
      throw thrown;
    });
    expect(await call(core, 'bad')).toEqual({
      content: [{ type: 'text', text: `Tool "bad" failed: ${text}` }],
      isError: true,
    });
    expect(errors).toEqual([[thrown, 'tools/call bad']]);
  });

  it('lets a ProtocolError through as it is, without onError', async () => {
    const { server, core, errors } = setup();
    const thrown = new ProtocolError(-32042, 'custom', { why: 1 });
    server.tool('strict', {}, async () => {
      throw thrown;
    });
    expect(await rejection(call(core, 'strict'))).toBe(thrown);
    expect(errors).toEqual([]);
  });

  it('lets the input-required signal through (MRTR)', async () => {
    const { server, core, errors } = setup();
    server.tool('ask', {}, async (_args, ctx) => {
      await ctx.ask({ q: { method: 'roots/list' } });
      return 'never';
    });
    const env = testEnv(core, { clientCapabilities: { roots: {} } });
    const thrown = await rejection(toolMethods['tools/call']!.run({ name: 'ask' }, env));
    expect(isInputRequired(thrown)).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('tools/call: results', () => {
  it.each<[string, ToolReturn, unknown]>([
    ['a string', 'text', { content: [{ type: 'text', text: 'text' }] }],
    ['an array', [{ type: 'text', text: 'a' }], { content: [{ type: 'text', text: 'a' }] }],
    [
      'a result',
      { content: [], isError: true, _meta: { k: 1 } },
      { content: [], isError: true, _meta: { k: 1 } },
    ],
  ])('accepts %s', async (_what, value, expected) => {
    const { server, core } = setup();
    server.tool('t', {}, () => value);
    expect(await call(core, 't')).toEqual(expected);
  });

  it('fails with -32603 when a result links to a URI nothing serves', async () => {
    const { server, core } = setup();
    server.tool('t', {}, () => [{ type: 'resource_link', uri: 'docs://gone', name: 'g' }]);
    const error = await rejection(call(core, 't'));
    expect(error).toMatchObject({ code: -32603 });
    expect((error as Error).message).toContain('tool "t" returned resource_link(s)');
  });
});

describe('tools/call: output schema', () => {
  const output = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

  it('passes structuredContent that fits the schema', async () => {
    const { server, core } = setup();
    server.tool('t', { output }, () => ({ content: [], structuredContent: { n: 1 } }));
    expect(await call(core, 't')).toEqual({ content: [], structuredContent: { n: 1 } });
  });

  it.each([
    ['breaks the schema', { n: 'x' }, 'tool "t" broke its outputSchema: n must be number'],
    ['is missing', undefined, 'tool "t" broke its outputSchema: structuredContent is missing'],
  ])('fails with -32603 when structuredContent %s', async (_what, structured, message) => {
    const { server, core, errors } = setup();
    const value =
      structured === undefined ? { content: [] } : { content: [], structuredContent: structured };
    server.tool('t', { output }, () => value);
    expect(await rejection(call(core, 't'))).toMatchObject({ code: -32603, message });
    expect(errors).toEqual([]);
  });

  it('does not check an isError result', async () => {
    const { server, core } = setup();
    server.tool('t', { output }, () => ({ content: [], isError: true }));
    expect(await call(core, 't')).toEqual({ content: [], isError: true });
  });
});

describe('tools/call: structuredContent per era', () => {
  it.each([
    ['an array', [1, 2]],
    ['a number', 42],
    ['null', null],
  ])('drops %s in the legacy era, keeps it in the modern one', async (_w, structured) => {
    const { server, core } = setup();
    const value = {
      content: [{ type: 'text' as const, text: '…' }],
      structuredContent: structured,
    };
    server.tool('t', {}, () => value as ToolReturn);
    expect(await call(core, 't', undefined, 'legacy')).not.toHaveProperty('structuredContent');
    expect(await call(core, 't')).toHaveProperty('structuredContent', structured);
    // The handler's own object is left as it was.
    expect(value.structuredContent).toEqual(structured);
  });

  it('keeps an object in the legacy era', async () => {
    const { server, core } = setup();
    server.tool('t', {}, () => ({ content: [], structuredContent: { a: 1 } }));
    expect(await call(core, 't', undefined, 'legacy')).toEqual({
      content: [],
      structuredContent: { a: 1 },
    });
  });
});

describe('tools/list and the tools/call target', () => {
  it('leaves non-object output schemas out of the legacy listing only', async () => {
    const { server, core } = setup();
    server.tool('list', { output: { type: 'array' } }, () => 'x');
    server.tool('obj', { output: { type: 'object' } }, () => 'x');
    const run = (era: 'modern' | 'legacy') =>
      toolMethods['tools/list']!.run({}, testEnv(core, { era })) as Promise<{
        tools: Array<Record<string, unknown>>;
      }>;
    const modern = await run('modern');
    const legacy = await run('legacy');
    expect(modern.tools.map((t) => t['outputSchema'])).toEqual([
      { type: 'array' },
      { type: 'object' },
    ]);
    expect(legacy.tools.map((t) => t['outputSchema'])).toEqual([undefined, { type: 'object' }]);
    expect(legacy.tools[0]).toMatchObject({ name: 'list', inputSchema: { type: 'object' } });
  });

  it('binds requestState to the tool, its arguments and the caller', () => {
    const target = toolMethods['tools/call']!.target!;
    expect(target({ name: 't', arguments: { b: 1, a: 2 } }, 'me')).toBe(
      boundTarget('tools/call', 't', { a: 2, b: 1 }, 'me'),
    );
    expect(target({ name: 't', arguments: { a: 1 } }, 'me')).not.toBe(
      target({ name: 't', arguments: { a: 2 } }, 'me'),
    );
  });
});
