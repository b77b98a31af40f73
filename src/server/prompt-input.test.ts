import { type } from 'arktype';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modern } from '../testing/messages.js';
import { connectInMemory } from '../transports/memory.js';
import { createServer } from './server.js';

type Answer = {
  result?: {
    prompts?: Array<{ name: string; arguments?: unknown[] }>;
    messages?: Array<{ content: { text?: string } }>;
    completion?: { values: string[] };
  };
  error?: { code: number; message: string };
};

function setup() {
  const server = createServer({ name: 'prompt-input', version: '1.0.0' });
  const seen: unknown[] = [];
  server.prompt(
    'summarise',
    {
      input: z.object({
        path: z.string().describe('the file to summarise'),
        words: z.coerce.number().int().min(10),
        bullets: z.stringbool().optional(),
      }),
      complete: { path: (prefix) => ['notes.md', 'news.md'].filter((p) => p.startsWith(prefix)) },
    },
    (args) => {
      seen.push(args);
      return `Summarise ${args.path} in ${args.words} words${args.bullets ? ', as bullets' : ''}.`;
    },
  );
  const conn = connectInMemory(server);
  const get = async (args: Record<string, string>) =>
    (await conn.send(
      modern('prompts/get', { name: 'summarise', arguments: args }),
    )) as unknown as Answer;
  return { server, conn, get, seen };
}

describe('prompt arguments as a schema (input)', () => {
  it('advertises them as the arguments list: names, descriptions, required', async () => {
    const { conn } = setup();
    const list = (await conn.send(modern('prompts/list'))) as unknown as Answer;
    expect(list.result?.prompts?.[0]?.arguments).toEqual([
      { name: 'path', description: 'the file to summarise', required: true },
      { name: 'words', required: true },
      { name: 'bullets' },
    ]);
  });

  it('parses the strings of the wire: the handler gets a number and a boolean', async () => {
    const { get, seen } = setup();
    const r = await get({ path: 'notes.md', words: '50', bullets: 'true' });
    expect(r.result?.messages?.[0]?.content.text).toBe(
      'Summarise notes.md in 50 words, as bullets.',
    );
    expect(seen).toEqual([{ path: 'notes.md', words: 50, bullets: true }]);
  });

  it('answers -32602 naming the argument when the schema refuses it, and runs nothing', async () => {
    const { get, seen } = setup();
    const bad = await get({ path: 'notes.md', words: 'many' });
    expect(bad.error?.code).toBe(-32602);
    expect(bad.error?.message).toMatch(/^prompts\/get "summarise": argument words: /);
    const missing = await get({ words: '20' });
    expect(missing.error?.message).toMatch(/argument path: /);
    const small = await get({ path: 'a', words: '3' });
    expect(small.error?.message).toMatch(/argument words: .*10/);
    expect(seen).toEqual([]);
  });

  it('keeps completion per argument', async () => {
    const { conn } = setup();
    const r = (await conn.send(
      modern('completion/complete', {
        ref: { type: 'ref/prompt', name: 'summarise' },
        argument: { name: 'path', value: 'no' },
      }),
    )) as unknown as Answer;
    expect(r.result?.completion?.values).toEqual(['notes.md']);
  });

  it('refuses at registration a schema that cannot take a string, naming the argument and the fix', () => {
    const s = createServer({ name: 'x', version: '1' });
    expect(() => s.prompt('p', { input: z.object({ n: z.number() }) }, () => 'x')).toThrow(
      'prompt "p": input.n is typed number, but prompt arguments travel as strings; declare it a string ' +
        'and parse it in the handler, or give a schema that parses strings (z.coerce.number(), z.stringbool())',
    );
    expect(() =>
      s.prompt(
        'q',
        { input: { type: 'object', properties: { n: { type: 'integer' } } } },
        () => 'x',
      ),
    ).toThrow(/input\.n is typed integer/);
    expect(() => s.prompt('r', { input: z.object({ b: z.boolean() }) }, () => 'x')).toThrow(
      /input\.b is typed boolean/,
    );
    expect(() =>
      s.prompt('t', { arguments: [{ name: 'a' }], input: z.object({ a: z.string() }) }, () => 'x'),
    ).toThrow(
      'prompt "t": give the arguments as a list (arguments) or as a schema (input), not both',
    );
  });

  it('takes a coercing schema whose bounds no fixed probe meets (a port, a year)', () => {
    const s = createServer({ name: 'x', version: '1' });
    expect(() =>
      s.prompt(
        'p',
        {
          input: z.object({
            port: z.coerce.number().int().min(1024).max(65535),
            year: z.coerce.number().int().min(1900).max(2100),
            ratio: z.coerce.number().gt(0.25).lt(0.75),
          }),
        },
        () => 'x',
      ),
    ).not.toThrow();
  });

  it('takes a JSON Schema of strings and an arktype schema that parses strings', async () => {
    const s = createServer({ name: 'x', version: '1' });
    s.prompt(
      'j',
      { input: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] } },
      ({ who }) => `Hello ${who}`,
    );
    s.prompt('a', { input: type({ n: 'string.numeric.parse' }) }, ({ n }) => `n+1=${n + 1}`);
    const conn = connectInMemory(s);
    const j = (await conn.send(
      modern('prompts/get', { name: 'j', arguments: { who: 'Ada' } }),
    )) as unknown as Answer;
    expect(j.result?.messages?.[0]?.content.text).toBe('Hello Ada');
    const a = (await conn.send(
      modern('prompts/get', { name: 'a', arguments: { n: '41' } }),
    )) as unknown as Answer;
    expect(a.result?.messages?.[0]?.content.text).toBe('n+1=42');
  });
});
