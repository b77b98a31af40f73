/** A rough token count for budgets, when no tokenizer is at hand: about 4 UTF-8 bytes a token. */
import { utf8Length } from '../content/wire-size.js';
import { contextBytes, type ContextEntry } from './context-assembly.js';

/** The bytes one token stands for in `estimateTokens`: a common rule of thumb for English text. */
export const BYTES_PER_TOKEN = 4;

/**
 * Estimated tokens of a string, or of what a block contributes to the context (`contextBytes`),
 * rounded up: `ceil(bytes / 4)`. An estimate only: code, non-Latin scripts and base64 run denser,
 * and images and audio are billed by models in their own way (their base64 size overstates them);
 * pass a real tokenizer as `measure` where it matters.
 *
 * @example
 * assembleContext(turn, { budget: 8_000, measure: estimateTokens });
 * estimateTokens('hello world'); // 3
 */
export function estimateTokens(input: string | ContextEntry): number {
  const bytes = typeof input === 'string' ? utf8Length(input) : contextBytes(input);
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}
