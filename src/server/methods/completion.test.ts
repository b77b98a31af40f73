import { describe, expect, it } from 'vitest';
import { rejection, testEnv, testServer } from '../../testing/server-core.js';
import type { CompleteHandler } from '../definitions.js';
import { completionMethods } from './completion.js';

const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

function setup(handler: CompleteHandler = (value) => [`${value}-1`, `${value}-2`]) {
  const made = testServer();
  made.server.prompt('greet', { complete: { name: handler } }, () => 'hi');
  made.server.resource('docs://{id}', { name: 'docs', complete: { id: handler } }, () => 'x');
  made.server.resource(
    'docs://{id}/{+rest}',
    { name: 'deep', complete: { rest: handler } },
    () => 'y',
  );
  made.server.resource('static://readme', { name: 'readme' }, () => 'r');
  return made;
}

function complete(core: ReturnType<typeof setup>['core'], params: Record<string, unknown>) {
  return completionMethods['completion/complete']!.run(params, testEnv(core));
}

const prompt = (name: string, argument: string, value = 'a', extra: object = {}) => ({
  ref: { type: 'ref/prompt', name },
  argument: { name: argument, value },
  ...extra,
});
const resource = (uri: string, argument: string, value = 'a') => ({
  ref: { type: 'ref/resource', uri },
  argument: { name: argument, value },
});

describe('completion/complete: prompts', () => {
  it("calls the argument's handler with the value and the context arguments", async () => {
    const calls: unknown[] = [];
    const { core } = setup((value, context) => (calls.push([value, context]), ['x']));
    const result = await complete(
      core,
      prompt('greet', 'name', 'jo', { context: { arguments: { lang: 'en' } } }),
    );
    expect(result).toEqual({ completion: { values: ['x'] } });
    expect(calls).toEqual([['jo', { arguments: { lang: 'en' } }]]);
  });

  it('answers no values for an argument without a handler', async () => {
    const { core } = setup();
    expect(await complete(core, prompt('greet', 'other'))).toEqual({ completion: { values: [] } });
  });

  it.each(PROTOTYPE_NAMES)('answers no values for the argument name %s', async (name) => {
    const { core } = setup();
    expect(await complete(core, prompt('greet', name))).toEqual({ completion: { values: [] } });
    expect(await complete(core, resource('docs://{id}', name))).toEqual({
      completion: { values: [] },
    });
  });

  it('fails an unknown prompt with -32602, echoing only the identifying ref fields', async () => {
    const { core } = setup();
    const params = {
      ...prompt('nope', 'name'),
      ref: { type: 'ref/prompt', name: 'nope', big: 'x' },
    };
    const error = await rejection(complete(core, params));
    expect(error).toMatchObject({
      code: -32602,
      message: 'Unknown prompt: "nope"',
      data: { ref: { type: 'ref/prompt', name: 'nope' } },
    });
    expect((error as { data: { ref: object } }).data.ref).not.toHaveProperty('big');
  });

  it.each(PROTOTYPE_NAMES)('fails the prompt name %s as unknown', async (name) => {
    const { core } = setup();
    expect(await rejection(complete(core, prompt(name, 'name')))).toMatchObject({ code: -32602 });
  });
});

describe('completion/complete: resources', () => {
  it('finds a template by its template string', async () => {
    const { core } = setup();
    expect(await complete(core, resource('docs://{id}', 'id', 'q'))).toEqual({
      completion: { values: ['q-1', 'q-2'] },
    });
  });

  it('finds the template a concrete URI matches through the guards', async () => {
    const { core } = setup();
    expect(await complete(core, resource('docs://a', 'id', 'z'))).toEqual({
      completion: { values: ['z-1', 'z-2'] },
    });
    expect(await complete(core, resource('docs://a/b/c', 'rest', 'r'))).toEqual({
      completion: { values: ['r-1', 'r-2'] },
    });
  });

  it('uses the first of several matching templates, in registration order', async () => {
    const { server, core } = testServer();
    server.resource('kv://{key}', { name: 'first', complete: { key: () => ['first'] } }, () => 'x');
    server.resource(
      'kv://{name}',
      { name: 'later', complete: { key: () => ['later'] } },
      () => 'y',
    );
    expect(await complete(core, resource('kv://k', 'key'))).toEqual({
      completion: { values: ['first'] },
    });
  });

  it('refuses a URI the guards refuse, as a read of it would', async () => {
    const { core } = setup();
    const error = await rejection(complete(core, resource('docs://a/%2e%2e/x', 'rest')));
    expect(error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(
        /^Refused resource URI "docs:\/\/a\/%2e%2e\/x" \(variable "rest"\): /,
      ),
      data: { uri: 'docs://a/%2e%2e/x' },
    });
  });

  it('answers no values for a static resource, and fails an unknown URI', async () => {
    const { core } = setup();
    expect(await complete(core, resource('static://readme', 'x'))).toEqual({
      completion: { values: [] },
    });
    expect(await rejection(complete(core, resource('mail://x', 'x')))).toMatchObject({
      code: -32602,
    });
  });

  it('fails a ref type it does not know', async () => {
    const { core } = setup();
    const params = { ref: { type: 'ref/tool', name: 't' }, argument: { name: 'a', value: '' } };
    expect(await rejection(complete(core, params))).toMatchObject({
      code: -32602,
      data: { ref: { type: 'ref/tool', name: 't' } },
    });
  });
});

describe('completion/complete: the 100-value limit', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);

  it('cuts at 100 values and reports the total and that there is more', async () => {
    const { core } = setup(() => many(150));
    const { completion } = (await complete(core, prompt('greet', 'name'))) as {
      completion: { values: string[] };
    };
    expect(completion.values).toEqual(many(100));
    expect(completion).toMatchObject({ total: 150, hasMore: true });
  });

  it('adds neither total nor hasMore for exactly 100 values', async () => {
    const { core } = setup(() => many(100));
    const result = await complete(core, prompt('greet', 'name'));
    expect(result).toEqual({ completion: { values: many(100) } });
  });

  it("keeps the handler's own total and hasMore", async () => {
    const { core } = setup(() => ({ values: ['a'], total: 40, hasMore: true }));
    expect(await complete(core, prompt('greet', 'name'))).toEqual({
      completion: { values: ['a'], total: 40, hasMore: true },
    });
  });

  // BUG: a handler that returns more than 100 values with hasMore: false gets its values cut to
  // 100 and the answer still says hasMore: false, so the client is told nothing is left out.
  it('says hasMore when it cuts values, even if the handler said hasMore: false', async () => {
    const { core } = setup(() => ({ values: many(150), hasMore: false }));
    const result = (await complete(core, prompt('greet', 'name'))) as {
      completion: { values: string[]; hasMore?: boolean };
    };
    expect(result.completion.values).toHaveLength(100);
    expect(result.completion.hasMore).toBe(true);
  });
});
