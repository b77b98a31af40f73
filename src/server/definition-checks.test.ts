import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isMcpKitError } from '../errors/mcpkit-error.js';
import { modern } from '../testing/messages.js';
import { connectInMemory } from '../transports/memory.js';
import { createServer } from './server.js';

/** What registering throws: its code and message (fails when nothing is thrown). */
function refusal(register: () => unknown): { code: string; message: string } {
  try {
    register();
  } catch (error) {
    if (!isMcpKitError(error)) throw error;
    return { code: error.code, message: error.message };
  }
  throw new Error('registered without an error');
}

const ok = () => 'ok';
const server = () => createServer({ name: 'defs', version: '1.0.0' });

describe('tool definitions, checked when registered', () => {
  it.each([
    ['an empty name', ''],
    ['a name with a space', 'my tool'],
    ['a name of 129 characters', 'a'.repeat(129)],
    ['a name with a slash', 'files/read'],
  ])('refuses %s, naming the rule', (_why, name) => {
    expect(refusal(() => server().tool(name, {}, ok))).toEqual({
      code: 'INVALID_DEFINITION',
      message: expect.stringMatching(/1 to 128 characters of A-Z, a-z, 0-9, "_", "-" and "\."/),
    });
  });

  it('accepts every character the rule allows, at 128 characters', () => {
    expect(() => server().tool(`A-z_0.9${'x'.repeat(121)}`, {}, ok)).not.toThrow();
  });

  it('refuses an input that is not an object schema, with the fix', () => {
    const r = refusal(() => server().tool('shout', { input: { type: 'string' } }, ok));
    expect(r.code).toBe('INVALID_DEFINITION');
    expect(r.message).toMatch(
      /^tool "shout": input describes type "string", but tool arguments are always an object/,
    );
    expect(r.message).toContain(`{ type: 'object', properties: { value: {"type":"string"} }`);
    expect(
      refusal(() => server().tool('shout', { input: { properties: {} } }, ok)).message,
    ).toMatch(/input has no type/);
  });

  it('refuses z.string() as an input, and a raw zod shape, saying to wrap it', () => {
    expect(refusal(() => server().tool('shout', { input: z.string() }, ok)).message).toMatch(
      /input describes type "string"/,
    );
    const shape = { a: z.number(), b: z.string() } as unknown as Record<string, unknown>;
    expect(refusal(() => server().tool('add', { input: shape }, ok))).toEqual({
      code: 'INVALID_DEFINITION',
      message:
        'tool "add": input is a raw shape of schemas ({ a, b }), not a schema; wrap it in an object schema: z.object({ a, b })',
    });
    const mixed = { type: 'object', properties: { a: z.number() } } as unknown as Record<
      string,
      unknown
    >;
    expect(refusal(() => server().tool('add', { input: mixed }, ok)).message).toMatch(
      /input\.properties\.a is a Standard Schema inside a JSON Schema/,
    );
  });

  it('refuses a handler that is not a function and a definition that is not an object', () => {
    const s = server();
    expect(refusal(() => s.tool('t', {}, 'nope' as never)).message).toBe(
      'tool "t": the handler must be a function, got string',
    );
    expect(refusal(() => s.tool('t', null as never, ok)).message).toBe(
      'tool "t": the definition must be an object, got null',
    );
    expect(refusal(() => s.tool('t', { description: 7 } as never, ok)).message).toBe(
      'tool "t": description must be a string, got number',
    );
  });

  it('a JSON Schema that does not compile says why in the message, not only in cause', () => {
    const r = refusal(() => server().tool('t', { input: { type: 'object', required: 'x' } }, ok));
    expect(r.code).toBe('SCHEMA_INVALID');
    expect(r.message).toMatch(/^tool "t" input: the JSON Schema does not compile: .*required/);
  });

  it('leaves nothing registered after a refusal: tools/list stays valid', async () => {
    const s = server();
    s.tool('good', { input: { type: 'object' } }, ok);
    expect(() => s.tool('bad', { input: { type: 'string' } }, ok)).toThrow();
    const conn = connectInMemory(s);
    const res = (await conn.send(modern('tools/list'))) as unknown as {
      result: { tools: Array<{ name: string }> };
    };
    expect(res.result.tools.map((t) => t.name)).toEqual(['good']);
  });
});

describe('resource and prompt definitions', () => {
  it('refuses a resource or a template without a name', () => {
    expect(refusal(() => server().resource('file:///a', {} as never, ok))).toEqual({
      code: 'INVALID_DEFINITION',
      message: expect.stringMatching(
        /^resource "file:\/\/\/a": name is missing: every resource and template needs one/,
      ),
    });
    expect(refusal(() => server().resource('note://{n}', { name: '' }, ok)).message).toMatch(
      /name is empty/,
    );
    expect(refusal(() => server().resource('note://{n}', { name: 'n' }, 3 as never)).message).toBe(
      'resource "note://{n}": the read handler must be a function, got number',
    );
  });

  it('an unclosed brace is reported as such, not as "not an absolute URI"', () => {
    expect(refusal(() => server().resource('note://{name', { name: 'note' }, ok))).toEqual({
      code: 'TEMPLATE_SYNTAX',
      message: expect.stringMatching(/unclosed "\{" at offset 7 in URI template "note:\/\/\{name"/),
    });
  });

  it('refuses a prompt argument without a name, twice the same, or a non-boolean required', () => {
    const s = server();
    expect(refusal(() => s.prompt('p', { arguments: [{} as never] }, ok)).message).toBe(
      'prompt "p": arguments[0].name is missing: every argument needs one, such as { name: \'path\' }',
    );
    expect(
      refusal(() => s.prompt('p', { arguments: [{ name: 'a' }, { name: 'a' }] }, ok)).message,
    ).toBe('prompt "p": arguments[1].name "a" is given twice');
    expect(
      refusal(() => s.prompt('p', { arguments: [{ name: 'a', required: 'yes' as never }] }, ok))
        .message,
    ).toBe('prompt "p": arguments[0].required must be a boolean, got string');
    expect(refusal(() => s.prompt(' ', {}, ok)).message).toBe(
      'prompt " ": the name must be a non-empty string',
    );
  });
});
