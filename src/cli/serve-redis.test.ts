import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServeArgs, type ServeArgs } from './args.js';
import { banner, sharedLines } from './banner.js';
import { runServe } from './serve-command.js';
import { openShared, redisStdioArgs } from './serve-redis.js';
import { USAGE } from './usage.js';

function parsed(argv: string[]): ServeArgs {
  const result = parseServeArgs(argv);
  if (result.kind !== 'ok') throw new Error(`not ok: ${JSON.stringify(result)}`);
  return result.args;
}

function problem(argv: string[]): string {
  const result = parseServeArgs(argv);
  return result.kind === 'error' ? result.message : `no error: ${JSON.stringify(result)}`;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('serve --redis arguments', () => {
  it('takes the URL, the prefix and the CA file, over either transport', () => {
    expect(parsed(['d', '--redis', 'redis://127.0.0.1:6379'])).toMatchObject({
      redis: 'redis://127.0.0.1:6379',
    });
    expect(
      parsed(['--stdio', '--redis=rediss://h:6380', '--redis-prefix', 'app:', '--redis-ca', 'ca']),
    ).toMatchObject({ redis: 'rediss://h:6380', redisPrefix: 'app:', redisCa: 'ca' });
    expect(parsed([])).not.toHaveProperty('redis');
  });

  it.each<[string[], RegExp]>([
    [['--redis'], /^--redis expects a value$/],
    [['--redis', 'localhost:6379'], /^--redis expects redis:\/\/.*rediss:\/\/… for TLS$/],
    [['--redis', 'http://u:pw1234@h'], /for TLS, got a http:\/\/ URL$/],
    [['--redis-prefix', 'x:'], /^--redis-prefix applies with --redis only$/],
    [['--redis', 'redis://h', '--redis-prefix', 'a b'], /^--redis-prefix expects a prefix/],
    [['--redis', 'redis://h', '--redis-ca', 'ca.pem'], /^--redis-ca applies to a rediss:\/\//],
  ])('%j -> error', (argv, message) => {
    expect(problem(argv)).toMatch(message);
  });

  it('never echoes a bad URL (it may hold a password)', () => {
    expect(problem(['--redis', 'user:hunter22@host'])).not.toContain('hunter22');
    expect(problem(['--redis', 'http://user:hunter22@host'])).not.toContain('hunter22');
  });

  it('is in --help', () => {
    for (const flag of ['--redis URL', '--redis-prefix PREFIX', '--redis-ca FILE'])
      expect(USAGE).toContain(`  ${flag} `);
    expect(USAGE).toContain('(default mcpkit:)');
  });

  it('carries over to the pasted stdio configuration only without credentials', () => {
    expect(redisStdioArgs(parsed(['--redis', 'redis://h:1', '--redis-prefix', 'p:']))).toEqual([
      '--redis',
      'redis://h:1',
      '--redis-prefix',
      'p:',
    ]);
    expect(redisStdioArgs(parsed(['--redis', 'redis://u:pw@h:1']))).toEqual([]);
    expect(redisStdioArgs(parsed([]))).toEqual([]);
  });

  it('names a relative --redis-ca by its absolute path (a host starts it from its own cwd)', () => {
    const args = parsed(['--redis', 'rediss://h:1', '--redis-ca', 'certs/ca.pem']);
    expect(redisStdioArgs(args)).toEqual([
      '--redis',
      'rediss://h:1',
      '--redis-ca',
      resolve('certs/ca.pem'),
    ]);
  });
});

describe('the banner with --redis', () => {
  const base = {
    dir: '/srv/docs',
    files: 1,
    bytes: 10,
    blockBudgetBytes: 1024,
    resultBudgetBytes: 4096,
    stdioCommand: { command: 'node', args: ['main.js'] },
    serverName: 'docs',
    transport: { kind: 'stdio' as const, inboundBytes: 1, outboundBytes: 1, capBytes: 1 },
  };

  it('names where (as given, masked by the caller) and where the secret came from', () => {
    const text = banner({
      ...base,
      shared: { where: 'redis://***@127.0.0.1:6379', prefix: 'mcpkit:', secretSource: 'created' },
    });
    expect(text).toContain(
      'shared     through Redis at redis://***@127.0.0.1:6379 (prefix mcpkit:): change events, links, the signing secret',
    );
    expect(text).toContain('secret     created in Redis (MCPKIT_SECRET is safer');
    expect(sharedLines({ where: 'x', prefix: 'p', secretSource: 'env' })[1]).toBe(
      '  secret     from MCPKIT_SECRET',
    );
    expect(sharedLines({ where: 'x', prefix: 'p', secretSource: 'redis' })[1]).toMatch(
      /read from Redis/,
    );
    expect(banner(base)).not.toContain('shared ');
  });
});

describe('opening Redis', () => {
  it('is nothing without --redis', async () => {
    expect(await openShared({}, () => undefined)).toBeUndefined();
  });

  it('an unreadable --redis-ca is the user’s to fix', async () => {
    await expect(
      openShared({ redis: 'rediss://127.0.0.1:1', redisCa: '/nonexistent/ca.pem' }, () => {}),
    ).rejects.toMatchObject({
      code: 'BAD_ARGUMENTS',
      message: 'cannot read --redis-ca "/nonexistent/ca.pem": no such file',
    });
  });

  it('unreachable at start-up: serve fails with one line, the password masked', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-serve-redis-'));
    try {
      const port = await closedPort();
      const out: string[] = [];
      const io = {
        stdout: { write: (t: string) => out.push(t) },
        stderr: { write: (t: string) => out.push(t) },
      };
      const args = parsed([dir, '--http', '127.0.0.1:0', '--quiet']);
      args.redis = `redis://user:hunter22@127.0.0.1:${port}`;
      const error = await runServe(args, io).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toMatch(new RegExp(`127\\.0\\.0\\.1:${port}`));
      expect(error?.message).not.toMatch(/hunter22|\n/);
      expect(out.join('')).not.toContain('hunter22');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
