/**
 * The prompts of the walk: each one got with its required arguments guessed, from
 * `completion/complete` when the server offers completions, else from placeholders. A guess the
 * server refuses is tried again with the next values offered; a prompt that still fails with
 * guessed arguments is a warning (the guess may be what was wrong), without arguments an error.
 */
import { checkBlocks, type LinkMet } from './audit-content.js';
import { quote, type Place } from './audit-findings.js';
import { describeError, isInvalidResult, isTimeout, judged, type Judged } from './audit-read.js';
import type { WalkStep } from './audit-walk-types.js';

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The values a required prompt argument gets when completions offer none: a word, then (when
 * the server refuses it) a number, since many such arguments are ids or counts.
 */
export const PLACEHOLDERS = ['example', '1'] as const;

/** Gets of one prompt at most: the first guess, then the next values offered. */
export const MAX_PROMPT_TRIES = 3;

/**
 * Required arguments of one prompt completed at most; the rest get placeholders. Each completion
 * carries the values of the earlier ones, so a prompt with thousands of arguments would cost
 * quadratic bytes.
 */
export const MAX_COMPLETIONS_PER_PROMPT = 32;

/** A required argument and the values to try for it, in order. */
export interface ArgumentGuess {
  name: string;
  values: string[];
  from: 'completion' | 'placeholder';
}

/** Values to try for each required argument: what completions offer, else the placeholders. */
async function guessArguments(
  prompt: Obj,
  deps: WalkStep,
  completions: boolean,
): Promise<ArgumentGuess[]> {
  const { progress, requests } = deps;
  const guesses: ArgumentGuess[] = [];
  const name = prompt['name'] as string;
  const declared = Array.isArray(prompt['arguments']) ? (prompt['arguments'] as unknown[]) : [];
  const required = declared.filter(
    (arg): arg is Obj & { name: string } =>
      isObj(arg) && arg['required'] === true && typeof arg['name'] === 'string',
  );
  for (let i = 0; i < required.length; i++) {
    const argName = (required[i] as { name: string }).name;
    let offered: string[] = [];
    const what = 'prompt argument(s) not completed (a placeholder was used)';
    const item = `${name} ${argName}`;
    const capped = i >= MAX_COMPLETIONS_PER_PROMPT;
    if (completions && capped) {
      const cap = `the budget of ${MAX_COMPLETIONS_PER_PROMPT} completions per prompt`;
      requests.skip('completion/complete', what, cap, item);
    }
    if (completions && !capped && requests.allow('completion/complete', what, item)) {
      progress('completing prompt arguments', i, required.length);
      // Later arguments are completed in the context of the first values of the earlier ones.
      const known = Object.fromEntries(guesses.map((g) => [g.name, g.values[0] as string]));
      const context = guesses.length > 0 ? { arguments: known } : undefined;
      const got = await judged({ method: 'completion/complete', name }, deps.ctx, (onRawResult) =>
        deps.client.complete({ type: 'ref/prompt', name }, { name: argName, value: '' }, context, {
          onRawResult,
        }),
      );
      const raw = got.raw;
      const values =
        isObj(raw) && isObj(raw['completion']) ? raw['completion']['values'] : undefined;
      if (Array.isArray(values)) {
        offered = values.filter((v): v is string => typeof v === 'string' && v !== '');
      }
    }
    guesses.push(
      offered.length > 0
        ? { name: argName, values: offered.slice(0, MAX_PROMPT_TRIES), from: 'completion' }
        : { name: argName, values: [...PLACEHOLDERS], from: 'placeholder' },
    );
  }
  return guesses;
}

/** The arguments of try `n`: each argument's n-th value, or its last one. */
function argumentsOf(guesses: readonly ArgumentGuess[], n: number): Record<string, string> {
  return Object.fromEntries(
    guesses.map((g) => [g.name, g.values[Math.min(n, g.values.length - 1)] as string]),
  );
}

/** What a warning about a prompt got with guesses says was tried. */
function triedText(guesses: readonly ArgumentGuess[], tries: number): string {
  // A message names the first few arguments: a prompt may declare thousands.
  const shown = 8;
  const each = guesses.slice(0, shown).map((g) => {
    const values = g.values.slice(0, tries).map((v) => quote(v, 40));
    return `${quote(g.name, 40)} ${values.join(', ')} (${g.from === 'completion' ? 'from completion/complete' : 'placeholders: no completion offered a value'})`;
  });
  if (guesses.length > shown) each.push(`and ${guesses.length - shown} more`);
  return ` with guessed arguments (${tries} ${tries === 1 ? 'try' : 'tries'}: ${each.join('; ')})`;
}

export async function getPrompts(
  prompts: ReadonlyArray<{ entry: Obj }>,
  deps: WalkStep,
  completions: boolean,
  links: LinkMet[],
): Promise<void> {
  const { client, ctx, progress, requests } = deps;
  for (let i = 0; i < prompts.length; i++) {
    const prompt = (prompts[i] as { entry: Obj }).entry;
    const name = prompt['name'];
    if (typeof name !== 'string') continue;
    // Checked first: completions for a prompt that will not be got would be wasted.
    if (!requests.allow('prompts/get', 'prompt(s) not got', name)) continue;
    const guesses = await guessArguments(prompt, deps, completions);
    progress('getting prompts', i, prompts.length);
    const place: Place = { method: 'prompts/get', name };
    const inspect = (raw: unknown): Promise<void> => {
      const messages =
        isObj(raw) && Array.isArray(raw['messages']) ? (raw['messages'] as unknown[]) : [];
      const blocks = messages.map((m, j) => ({
        block: isObj(m) ? m['content'] : undefined,
        path: `/messages/${j}/content`,
      }));
      return checkBlocks(blocks, place, ctx, links);
    };
    // A loop, not Math.max(...): a prompt may declare more arguments than a call has stack for.
    const most = guesses.reduce((n, g) => Math.max(n, g.values.length), 1);
    let got: Judged<unknown> = {};
    let tries = 0;
    while (tries < most) {
      const retry = 'prompt retries with the next values offered not made';
      if (tries > 0 && !requests.allow('prompts/get', retry, name)) break;
      const args = guesses.length > 0 ? argumentsOf(guesses, tries) : undefined;
      tries++;
      const attempt = await judged(
        place,
        ctx,
        (onRawResult) => client.getPrompt(name, args, { onRawResult, cache: false }),
        inspect,
      );
      // The first refusal is the one reported when no later try gets an answer.
      if (tries === 1 || attempt.error === undefined || attempt.raw !== undefined) got = attempt;
      // Other values only help when the server answered this one with an error.
      if (attempt.error === undefined || attempt.raw !== undefined || isTimeout(attempt.error))
        break;
    }
    if (got.error !== undefined && !isInvalidResult(got.error)) {
      const guessed = guesses.length > 0;
      const why = guessed ? triedText(guesses, tries) : '';
      ctx.log.add({
        code: 'request-failed',
        message: `prompts/get failed${why}: ${describeError(got.error)}`,
        ...place,
        ...(guessed ? { severity: 'warning' as const } : {}),
      });
    }
  }
}
