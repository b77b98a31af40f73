import { describe, expect, it } from 'vitest';
import { pinnedLookup } from './request.js';

function ask(options: object | undefined) {
  const lookup = pinnedLookup([
    { address: '127.0.0.2', family: 4 },
    { address: '::1', family: 6 },
  ]) as unknown as (host: string, options: unknown, cb?: unknown) => void;
  return new Promise<unknown[]>((resolve) => {
    const cb = (...args: unknown[]) => resolve(args);
    if (options === undefined) lookup('anything.test', cb);
    else lookup('anything.test', options, cb);
  });
}

describe('pinnedLookup', () => {
  it('answers the first checked address, whatever name it is asked for', async () => {
    expect(await ask(undefined)).toEqual([null, '127.0.0.2', 4]);
    expect(await ask({})).toEqual([null, '127.0.0.2', 4]);
  });

  it('answers every checked address when Node asks for all of them', async () => {
    expect(await ask({ all: true })).toEqual([
      null,
      [
        { address: '127.0.0.2', family: 4 },
        { address: '::1', family: 6 },
      ],
    ]);
  });

  it('keeps to the family asked for, and fails when no checked address has it', async () => {
    expect(await ask({ family: 6 })).toEqual([null, '::1', 6]);
    expect(await ask({ family: 'IPv4', all: true })).toEqual([
      null,
      [{ address: '127.0.0.2', family: 4 }],
    ]);
    const lookup = pinnedLookup([{ address: '127.0.0.2', family: 4 }]) as unknown as (
      host: string,
      options: unknown,
      cb: (...args: unknown[]) => void,
    ) => void;
    const [error] = await new Promise<unknown[]>((resolve) =>
      lookup('x.test', { family: 6 }, (...args) => resolve(args)),
    );
    expect((error as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });
});
