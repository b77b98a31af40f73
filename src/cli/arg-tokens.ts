/**
 * The lexing of a command line, by node:util's parseArgs: long options with their value next or
 * after `=`, short flags (grouped too), positionals, and `--`. What each option means and every
 * check is the caller's, so that each mistake gets a message naming the flag.
 */
import { parseArgs } from 'node:util';

export type ArgToken =
  | {
      kind: 'option';
      /** As typed, e.g. `--http` or `-q`: the name error messages give. */
      flag: string;
      /** The value: after `=` (`inline`), or the next argument for a value option. */
      value: string | undefined;
      inline: boolean;
      index: number;
    }
  | { kind: 'positional'; value: string; index: number }
  | { kind: 'terminator'; index: number };

/**
 * The tokens of `argv`. `values` are the long options (without dashes) that take a value: the
 * next argument is theirs whatever it looks like, and the caller judges it. `shorts` maps a
 * one-letter flag to its long name. Unknown options come through as tokens too.
 */
export function argTokens(
  argv: readonly string[],
  values: Iterable<string>,
  shorts: Readonly<Record<string, string>> = {},
): ArgToken[] {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const name of values) options[name] = { type: 'string' };
  for (const [short, name] of Object.entries(shorts))
    options[name] = { ...(options[name] ?? { type: 'boolean' }), short };
  const { tokens } = parseArgs({
    args: [...argv],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  return tokens.map((token): ArgToken => {
    if (token.kind === 'positional')
      return { kind: 'positional', value: token.value, index: token.index };
    if (token.kind === 'option-terminator') return { kind: 'terminator', index: token.index };
    // A short flag is named as typed; a long one by its name (`--x=1` gives rawName `--x`).
    return {
      kind: 'option',
      flag: token.rawName,
      value: token.value,
      inline: token.inlineValue === true,
      index: token.index,
    };
  });
}
