import { ProtocolError } from '../../errors/protocol-error.js';
import { resourceRefused } from '../../errors/wire-errors.js';
import type { CompleteHandler } from '../definitions.js';
import { requireScopes } from './scopes.js';
import { matchTemplates } from './templates.js';
import { own, type MethodEnv, type MethodSpec, type Params, type Result } from './types.js';

/** At most this many values per answer (the spec's limit); `total`/`hasMore` tell the rest. */
const MAX_VALUES = 100;

async function complete(params: Params, { core, ctx }: MethodEnv): Promise<Result> {
  const ref = params['ref'] as { type: string; name?: string; uri?: string };
  // Echo only what identifies the ref: never the client's whole object.
  const refData = {
    ref: {
      type: String(ref.type),
      ...(ref.name !== undefined ? { name: String(ref.name) } : {}),
      ...(ref.uri !== undefined ? { uri: String(ref.uri) } : {}),
    },
  };
  const argument = params['argument'] as { name: string; value: string };
  const given = (params['context'] as Params | undefined)?.['arguments'];
  const context = { arguments: (given ?? {}) as Record<string, string> };
  let handler: CompleteHandler | undefined;
  if (ref.type === 'ref/prompt') {
    const entry = core.prompts.get(String(ref.name));
    if (!entry)
      throw ProtocolError.invalidParams(`Unknown prompt: ${JSON.stringify(ref.name)}`, refData);
    // Completing reveals what the prompt accepts: held to the prompt's scopes, as prompts/get is.
    requireScopes(`prompt "${String(ref.name)}"`, entry.scopes, ctx.auth);
    handler = own(entry.complete, argument.name);
  } else if (ref.type === 'ref/resource') {
    const uri = String(ref.uri);
    // The template itself, or the first template a concrete URI matches through the guards.
    let entry = core.templates.get(uri);
    if (!entry) {
      for (const hit of matchTemplates(core, uri)) {
        // Refused as a read of it would be: the same message, the same code.
        if ('refused' in hit) throw resourceRefused(uri, hit.refused, hit.variable);
        entry = hit.entry;
        break;
      }
    }
    const resource = entry ? undefined : core.resources.get(uri);
    if (!entry && !resource)
      throw ProtocolError.invalidParams(
        `No resource or template matches ${JSON.stringify(uri)}`,
        refData,
      );
    // Held to the scopes a read of it needs: completion must not reveal values or existence.
    requireScopes(`resource ${uri}`, (entry?.definition ?? resource)?.scopes, ctx.auth);
    handler = entry?.definition.complete
      ? own(entry.definition.complete, argument.name)
      : undefined;
  } else {
    throw ProtocolError.invalidParams(
      `params.ref.type must be "ref/prompt" or "ref/resource"`,
      refData,
    );
  }
  const raw = handler ? await handler(argument.value, context) : [];
  const all = Array.isArray(raw) ? { values: raw } : raw;
  const values = all.values.slice(0, MAX_VALUES);
  const completion: Result = { values };
  const total = all.total ?? (all.values.length > MAX_VALUES ? all.values.length : undefined);
  if (total !== undefined) completion['total'] = total;
  // Values cut here are more values, whatever the handler said.
  if (all.values.length > MAX_VALUES) completion['hasMore'] = true;
  else if (all.hasMore !== undefined) completion['hasMore'] = all.hasMore;
  return { completion };
}

export const completionMethods: Record<string, MethodSpec> = {
  'completion/complete': { run: complete },
};
