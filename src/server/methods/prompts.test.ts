import { describe, expect, it } from 'vitest';
import { rejection, testEnv, testServer } from '../../testing/server-core.js';
import type { PromptReturn } from '../definitions.js';
import { promptMethods } from './prompts.js';
import { boundTarget } from './target.js';

const ARGS = [
  { name: 'topic', required: true },
  { name: 'tone', required: false },
];

function get(core: ReturnType<typeof testServer>['core'], name: string, args?: unknown) {
  const params = args === undefined ? { name } : { name, arguments: args };
  return promptMethods['prompts/get']!.run(params, testEnv(core));
}

describe('prompts/get', () => {
  it.each(['nope', 'constructor', '__proto__'])(
    'fails the unknown prompt %s with -32602',
    async (name) => {
      const { core } = testServer();
      expect(await rejection(get(core, name))).toMatchObject({
        code: -32602,
        message: `Unknown prompt: ${JSON.stringify(name)}`,
        data: { name },
      });
    },
  );

  it.each([
    ['missing', { tone: 'dry' }],
    ['not a string', { topic: 3 }],
    ['no arguments at all', undefined],
  ])('fails a required argument that is %s, naming it', async (_what, args) => {
    const { server, core } = testServer();
    let ran = false;
    server.prompt('write', { arguments: ARGS }, () => ((ran = true), 'x'));
    expect(await rejection(get(core, 'write', args))).toMatchObject({
      code: -32602,
      message: 'prompts/get "write": argument "topic" is required',
      data: { name: 'write', argument: 'topic' },
    });
    expect(ran).toBe(false);
  });

  it('runs with optional arguments left out, passing the arguments and context', async () => {
    const { server, core } = testServer();
    const seen: unknown[] = [];
    server.prompt('write', { arguments: ARGS }, (args, ctx) => {
      seen.push(args, ctx.method);
      return `about ${args['topic']}`;
    });
    const env = testEnv(core, { method: 'prompts/get' });
    const result = await promptMethods['prompts/get']!.run(
      { name: 'write', arguments: { topic: 'owls' } },
      env,
    );
    expect(result).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'about owls' } }],
    });
    expect(seen).toEqual([{ topic: 'owls' }, 'prompts/get']);
  });

  it('returns a full result as given, without mutating it', async () => {
    const { server, core } = testServer();
    const value: PromptReturn = {
      description: 'd',
      messages: [{ role: 'assistant', content: { type: 'text', text: 'a' } }],
    };
    server.prompt('full', {}, () => value);
    const result = await get(core, 'full');
    expect(result).toEqual(value);
    expect(result).not.toBe(value);
  });

  it('lets a handler error through (dispatch reports it as -32603)', async () => {
    const { server, core } = testServer();
    const thrown = new Error('broken');
    server.prompt('bad', {}, () => {
      throw thrown;
    });
    expect(await rejection(get(core, 'bad'))).toBe(thrown);
  });

  it('checks the links its messages emit', async () => {
    const { server, core } = testServer();
    server.resource('docs://a', { name: 'a' }, () => 'a');
    server.prompt('links', {}, () => ({
      messages: [
        { role: 'user', content: { type: 'resource_link', uri: 'docs://a', name: 'a' } },
        { role: 'user', content: { type: 'resource_link', uri: 'docs://gone', name: 'g' } },
      ],
    }));
    const error = await rejection(get(core, 'links'));
    expect(error).toMatchObject({ code: -32603 });
    expect((error as Error).message).toMatch(
      /^prompt "links" returned resource_link\(s\) that nothing serves: docs:\/\/gone\./,
    );
  });
});

describe('prompts/list and the prompts/get target', () => {
  it('lists prompts in registration order without their completion handlers', async () => {
    const { server, core } = testServer();
    server.prompt('b', { description: 'B', complete: { x: () => [] } }, () => 'b');
    server.prompt('a', { arguments: ARGS }, () => 'a');
    const spec = promptMethods['prompts/list']!;
    expect(await spec.run({}, testEnv(core))).toEqual({
      prompts: [
        { name: 'b', description: 'B' },
        { name: 'a', arguments: ARGS },
      ],
    });
  });

  it('binds requestState to the prompt, its arguments and the caller', () => {
    const target = promptMethods['prompts/get']!.target!;
    expect(target({ name: 'p', arguments: { topic: 'x' } }, undefined)).toBe(
      boundTarget('prompts/get', 'p', { topic: 'x' }, undefined),
    );
    expect(target({ name: 'p' }, 'alice')).not.toBe(target({ name: 'p' }, 'bob'));
  });
});
