import type { CallToolResult, Tool } from '../../protocol/types.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { toolError } from '../../content/messages.js';
import { isInputRequired } from '../input-required.js';
import { isObject } from '../modern-envelope.js';
import { authorMistake, reportHandlerError } from './author-mistakes.js';
import { checkEmittedLinks } from './links.js';
import { lister } from './lists.js';
import { boundTarget } from './target.js';
import { requireScopes, visibleTo } from './scopes.js';
import type { MethodEnv, MethodSpec, Params, Result } from './types.js';

async function callTool(params: Params, { core, ctx }: MethodEnv): Promise<Result> {
  const name = params['name'] as string;
  const entry = core.tools.get(name);
  if (!entry) throw ProtocolError.invalidParams(`Unknown tool: ${JSON.stringify(name)}`, { name });
  requireScopes(`tool "${name}"`, entry.scopes, ctx.auth);
  let args: unknown = params['arguments'] ?? {};
  let checked = entry.input.check(args);
  if (checked instanceof Promise) checked = await checked;
  if (!checked.ok)
    return toolError(
      `Invalid arguments for tool "${name}": ${checked.message}`,
    ) as unknown as Result;
  args = checked.value;
  let value;
  try {
    value = await entry.handler(args as never, ctx);
  } catch (error) {
    if (error instanceof ProtocolError || isInputRequired(error)) throw error;
    const method = `tools/call ${name}`;
    const mistake = authorMistake(core, error, method, `tool "${name}"`);
    if (mistake) throw mistake;
    const text = `Tool "${name}" failed: ${error instanceof Error ? error.message : String(error)}`;
    reportHandlerError(core, error, method, text);
    return toolError(text) as unknown as Result;
  }
  const result: CallToolResult =
    typeof value === 'string'
      ? { content: [{ type: 'text', text: value }] }
      : Array.isArray(value)
        ? { content: value }
        : { ...value };
  if (entry.output && !result.isError) {
    const checked =
      result.structuredContent === undefined
        ? undefined
        : await entry.output.check(result.structuredContent);
    if (!checked?.ok) {
      const why = checked ? checked.message : 'structuredContent is missing';
      throw ProtocolError.internal(`tool "${name}" broke its outputSchema: ${why}`);
    }
  }
  const sc = result.structuredContent;
  // 2025-11-25 requires an object; the text content still carries the value.
  if (ctx.era === 'legacy' && sc !== undefined && !isObject(sc)) delete result.structuredContent;
  await checkEmittedLinks(core, result.content, `tool "${name}"`);
  return result as unknown as Result;
}

/** 2025-11-25 knows only object output schemas: other ones are left out of the listing. */
function legacyTools(tools: readonly Tool[]): readonly Tool[] {
  return tools.map((t) => {
    if (t.outputSchema === undefined || t.outputSchema['type'] === 'object') return t;
    const { outputSchema: _dropped, ...rest } = t;
    return rest;
  });
}

export const toolMethods: Record<string, MethodSpec> = {
  'tools/list': {
    run: lister(
      'tools',
      'tools/list',
      (core, era, ctx) =>
        visibleTo(
          core,
          ctx.auth,
          era === 'legacy' ? legacyTools(core.tools.wire()) : core.tools.wire(),
          core.tools.list(),
        ),
      (t) => t.name,
    ),
  },
  'tools/call': {
    target: (p, auth) => boundTarget('tools/call', p['name'], p['arguments'], auth),
    run: callTool,
  },
};
