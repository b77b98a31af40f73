import type { GetPromptResult } from '../../protocol/types.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { authorMistake } from './author-mistakes.js';
import { checkEmittedLinks } from './links.js';
import { lister } from './lists.js';
import { boundTarget } from './target.js';
import { requireScopes, visibleTo } from './scopes.js';
import type { MethodEnv, MethodSpec, Params, Result } from './types.js';

async function getPrompt(params: Params, { core, ctx }: MethodEnv): Promise<Result> {
  const name = params['name'] as string;
  const entry = core.prompts.get(name);
  if (!entry)
    throw ProtocolError.invalidParams(`Unknown prompt: ${JSON.stringify(name)}`, { name });
  requireScopes(`prompt "${name}"`, entry.scopes, ctx.auth);
  let args = (params['arguments'] ?? {}) as Record<string, unknown>;
  if (entry.input) {
    let checked = entry.input.check(args);
    if (checked instanceof Promise) checked = await checked;
    if (!checked.ok)
      throw ProtocolError.invalidParams(`prompts/get "${name}": argument ${checked.message}`, {
        name,
      });
    args = checked.value as Record<string, unknown>;
  } else
    for (const arg of entry.prompt.arguments ?? []) {
      if (arg.required && typeof args[arg.name] !== 'string')
        throw ProtocolError.invalidParams(
          `prompts/get "${name}": argument "${arg.name}" is required`,
          { name, argument: arg.name },
        );
    }
  let value;
  try {
    value = await entry.handler(args as Record<string, string>, ctx);
  } catch (error) {
    throw authorMistake(core, error, `prompts/get ${name}`, `prompt "${name}"`) ?? error;
  }
  const result: GetPromptResult =
    typeof value === 'string'
      ? { messages: [{ role: 'user', content: { type: 'text', text: value } }] }
      : { ...value };
  const blocks = result.messages.map((m) => m.content);
  await checkEmittedLinks(core, blocks, `prompt "${name}"`);
  return result as unknown as Result;
}

export const promptMethods: Record<string, MethodSpec> = {
  'prompts/list': {
    run: lister(
      'prompts',
      'prompts/list',
      (core, _era, ctx) => visibleTo(core, ctx.auth, core.prompts.wire(), core.prompts.list()),
      (p) => p.name,
    ),
  },
  'prompts/get': {
    target: (p, auth) => boundTarget('prompts/get', p['name'], p['arguments'], auth),
    run: getPrompt,
  },
};
