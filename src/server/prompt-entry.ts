/** A prompt definition compiled once, at registration: its input schema and the wire `Prompt`. */
import type { PromptDefinition, PromptHandler } from './definitions.js';
import type { PromptEntry } from './entries.js';
import { compilePromptInput } from './prompt-input.js';
import { without } from './tool-entry.js';

export function promptEntry(
  name: string,
  definition: PromptDefinition,
  handler: PromptHandler,
): PromptEntry {
  const input = definition.input ? compilePromptInput(definition.input, name) : undefined;
  const prompt = {
    name,
    ...without(definition, 'complete', 'input', 'scopes'),
    ...(input ? { arguments: input.arguments } : {}),
  };
  const scopes = definition.scopes?.length ? [...definition.scopes] : undefined;
  return { prompt, complete: definition.complete ?? {}, handler, input: input?.schema, scopes };
}
