import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostArgs } from './host-args.js';
import { readToken, targetAuth } from './host-auth.js';

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

describe('targetAuth --auth', () => {
  it('fetches through the guard with --allow-address exempt, as the usage says', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-host-auth-'));
    const config = process.env['XDG_CONFIG_HOME'];
    process.env['XDG_CONFIG_HOME'] = dir;
    // Reached at 0.0.0.0 (an address the guard refuses, which connects to this machine): a
    // connection shows the protected resource metadata was asked for, not refused.
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const args = { auth: true, open: false, allowAddresses: ['0.0.0.0'] } as unknown as HostArgs;
      const error = await targetAuth(args, `https://0.0.0.0:${port}/mcp`, () => undefined).then(
        () => undefined,
        (e: unknown) => e as { code?: string },
      );
      expect(error?.code).not.toBe('GUARD_BLOCKED');
      expect(connections).toBe(1);
    } finally {
      if (config === undefined) delete process.env['XDG_CONFIG_HOME'];
      else process.env['XDG_CONFIG_HOME'] = config;
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
