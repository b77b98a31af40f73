import { describe, expect, it } from 'vitest';
import type { HostArgs } from './host-args.js';
import { readToken } from './host-auth.js';

const args = (tokenEnv: string) => ({ tokenEnv }) as unknown as HostArgs;

describe('readToken', () => {
  it('takes a token from --token-env', async () => {
    expect(await readToken(args('T'), { T: ' abc.def ' })).toEqual({
      token: 'abc.def',
      from: '--token-env T',
    });
  });

  it('refuses a --token-env token a header cannot carry, as --token-file does', async () => {
    for (const value of ['abc\r\nX-Injected: 1', 'ab c', 'tok\u00e9n'])
      await expect(readToken(args('T'), { T: value })).rejects.toThrow(
        /--token-env T: the token has characters a header cannot carry/,
      );
  });
});
