import { describe, expect, it } from 'vitest';
import { allowAddressProblem, parseHostArgs, type HostArgs } from './host-args.js';

const URL_ = 'http://127.0.0.1:3333/mcp';

function ok(command: 'inspect' | 'audit', argv: string[]): HostArgs {
  const parsed = parseHostArgs(command, argv);
  if (parsed.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(parsed)}`);
  return parsed.args;
}

function error(command: 'inspect' | 'audit', argv: string[]): string {
  const parsed = parseHostArgs(command, argv);
  if (parsed.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(parsed)}`);
  return parsed.message;
}

describe('parseHostArgs', () => {
  it('takes a URL first, with the defaults', () => {
    expect(ok('audit', [URL_])).toEqual({
      target: { kind: 'http', url: URL_ },
      verb: [],
      json: false,
      era: 'auto',
      timeoutMs: 30_000,
      budgetBytes: 4 * 1024 * 1024,
      blockBudgetBytes: 1024 * 1024,
      resolve: 'none',
      fetchUrls: false,
      verbose: false,
      allowAddresses: [],
      calls: [],
      maxListItems: 50_000,
      maxListBytes: 64 * 1024 * 1024,
      maxCursorBytes: 64 * 1024,
      maxRequests: 20_000,
      maxRequestsPerKind: 5_000,
      auth: false,
      open: false,
    });
  });

  it('takes the URL first or after the verb, over HTTP as over stdio', () => {
    const verb = ['call', 'pic', '{"a":1}'];
    expect(ok('inspect', [URL_, ...verb, '--resolve', 'all'])).toMatchObject({
      target: { kind: 'http', url: URL_ },
      verb,
      resolve: 'all',
    });
    expect(ok('inspect', ['call', 'pic', '--resolve', 'all', URL_])).toMatchObject({
      target: { kind: 'http', url: URL_ },
      verb: ['call', 'pic'],
      resolve: 'all',
    });
    expect(ok('inspect', ['read', 'https://example.com/r', URL_])).toMatchObject({
      target: { kind: 'http', url: URL_ },
      verb: ['read', 'https://example.com/r'],
    });
    expect(ok('inspect', ['read', 'file:///x', '--', 'node', 's.js'])).toMatchObject({
      target: { kind: 'stdio', command: 'node', args: ['s.js'] },
      verb: ['read', 'file:///x'],
    });
    expect(error('inspect', ['call', 'pic'])).toMatch(/URL, first or after the verb, got "call"/);
  });

  it('takes one way to sign in: --auth [--open], --token-env VAR or --token-file FILE', () => {
    expect(ok('inspect', [URL_, '--auth', '--open'])).toMatchObject({ auth: true, open: true });
    expect(ok('audit', [URL_, '--token-env', 'MCP_TOKEN']).tokenEnv).toBe('MCP_TOKEN');
    expect(ok('audit', [URL_, '--token-file=./t']).tokenFile).toBe('./t');
    expect(error('inspect', [URL_, '--auth', '--token-env', 'T'])).toBe(
      '--auth and --token-env do not go together: give one way to sign in',
    );
    expect(error('inspect', [URL_, '--open'])).toBe('--open applies with --auth only');
    expect(error('inspect', [URL_, '--token-env', 'not a name'])).toMatch(/^--token-env expects/);
    expect(error('audit', ['--auth', '--', 'node', 's.js'])).toBe(
      '--auth applies to an http(s) URL, not to a stdio server',
    );
  });

  it('takes the list and request limits; the request ones are audit only', () => {
    const args = ok('audit', [
      URL_,
      '--max-list-items',
      '10',
      '--max-list-bytes=1MiB',
      '--max-cursor-bytes',
      '512',
      '--max-requests',
      '300',
      '--max-requests-per-kind=40',
    ]);
    expect(args).toMatchObject({
      maxListItems: 10,
      maxListBytes: 1024 * 1024,
      maxCursorBytes: 512,
      maxRequests: 300,
      maxRequestsPerKind: 40,
    });
    expect(ok('inspect', [URL_, '--max-list-items', '7']).maxListItems).toBe(7);
    expect(error('inspect', [URL_, '--max-requests', '7'])).toBe(
      '--max-requests applies to mcpkit audit only',
    );
    expect(error('audit', [URL_, '--max-list-items', '0'])).toMatch(
      /--max-list-items expects a whole number, at least 1, got "0"/,
    );
    expect(error('audit', [URL_, '--max-requests', '1.5'])).toMatch(/--max-requests expects/);
    expect(error('inspect', [URL_, '--max-cursor-bytes', 'lots'])).toMatch(
      /--max-cursor-bytes expects a size in bytes/,
    );
  });

  it('takes the verb after the URL, options anywhere', () => {
    const args = ok('inspect', [URL_, 'read', '--json', 'file:///a b.md', '--resolve=all']);
    expect(args.verb).toEqual(['read', 'file:///a b.md']);
    expect(args.json).toBe(true);
    expect(args.resolve).toBe('all');
  });

  it('takes everything after -- as the stdio command, verbatim', () => {
    const args = ok('inspect', [
      'call',
      'search',
      '{"q":1}',
      '--',
      'node',
      'server.js',
      '--json',
      '--',
    ]);
    expect(args.target).toEqual({
      kind: 'stdio',
      command: 'node',
      args: ['server.js', '--json', '--'],
    });
    expect(args.verb).toEqual(['call', 'search', '{"q":1}']);
    expect(args.json).toBe(false);
  });

  it.each([
    [['--era', '2026-07-28'], { era: '2026-07-28' }],
    [['--era=2025-11-25'], { era: '2025-11-25' }],
    [['--timeout', '5'], { timeoutMs: 5000 }],
    [['--timeout', '500ms'], { timeoutMs: 500 }],
    [['--timeout', '1.5'], { timeoutMs: 1500 }],
    [['--budget', '4MiB'], { budgetBytes: 4 * 1024 * 1024 }],
    [['--budget', '512KiB'], { budgetBytes: 512 * 1024 }],
    [['--budget', '1000'], { budgetBytes: 1000 }],
    [['--budget', '0'], { budgetBytes: 0 }],
    [['--block-budget', '64k'], { blockBudgetBytes: 65536 }],
    [['--fetch-urls'], { fetchUrls: true }],
    [
      [
        '--allow-address',
        '10.0.0.0/8',
        '--allow-address',
        '[::1]',
        '--allow-address',
        'docs.internal.',
      ],
      { allowAddresses: ['10.0.0.0/8', '::1', 'docs.internal.'] },
    ],
    [['--allow-address', 'fd00::/8'], { allowAddresses: ['fd00::/8'] }],
    [
      ['--call', 'search={"query":"x"}', '--call', 'ping', '--call=a.b={}'],
      {
        calls: [
          { name: 'search', arguments: { query: 'x' } },
          { name: 'ping', arguments: {} },
          { name: 'a.b', arguments: {} },
        ],
      },
    ],
  ])('audit %j', (extra, expected) => {
    expect(ok('audit', [URL_, ...extra])).toMatchObject(expected);
  });

  it.each([
    [[], /needs a server: a URL/],
    [['ftp://x/mcp'], /expected an http:\/\/ or https:\/\/ URL, first or after the verb/],
    [['serve.js'], /a stdio server goes after "--"/],
    [[URL_, 'extra'], /unexpected argument "extra": audit takes no verb/],
    [[URL_, '--', 'node'], /either a URL or a command/],
    [['--'], /nothing after "--"/],
    [[URL_, '--bogus'], /unknown option "--bogus" for audit/],
    [[URL_, '--resolve', 'all'], /--resolve applies to mcpkit inspect only/],
    [[URL_, '--era', 'modern'], /--era expects one of auto, 2026-07-28, 2025-11-25/],
    [[URL_, '--timeout', '0'], /--timeout expects a number of seconds/],
    [[URL_, '--timeout', 'soon'], /--timeout expects/],
    [[URL_, '--budget', 'lots'], /--budget expects a size in bytes/],
    [[URL_, '--budget'], /--budget expects a value/],
    [[URL_, '--budget', '--json'], /--budget expects a value/],
    [[URL_, '--json=1'], /--json takes no value/],
    [[URL_, '--allow-address', '10.0.0.0/33'], /longer than 32 bits/],
    [[URL_, '--allow-address', 'http://x'], /--allow-address expects a host name/],
    [[URL_, '--allow-address', '127.1'], /--allow-address expects/],
    [[URL_, '--call', '={}'], /--call expects NAME=JSON/],
    [[URL_, '--call', 'x={bad'], /--call x: the arguments are not JSON/],
    [[URL_, '--call', 'x=[1]'], /must be a JSON object/],
  ])('audit %j is refused', (argv, message) => {
    expect(error('audit', argv)).toMatch(message);
  });

  it('refuses the audit-only options for inspect', () => {
    expect(error('inspect', [URL_, '--call', 'x'])).toMatch(/--call applies to mcpkit audit only/);
    expect(error('inspect', [URL_, '--block-budget', '1k'])).toMatch(/applies to mcpkit audit/);
  });

  it('answers help', () => {
    expect(parseHostArgs('audit', ['--help'])).toEqual({ kind: 'help' });
    expect(parseHostArgs('inspect', [URL_, '-h'])).toEqual({ kind: 'help' });
  });
});

describe('allowAddressProblem', () => {
  it.each([
    '127.0.0.1',
    '::1',
    '10.0.0.0/8',
    '::ffff:0:0/96',
    'localhost',
    'a-b.example.com',
    'x.',
  ])('accepts %s', (value) => expect(allowAddressProblem(value)).toBeUndefined());
  it.each(['', '-a.com', 'a..b', 'a b', '0x7f000001', '2130706433', '1.2.3.4/x', 'a/8', '::1/129'])(
    'refuses %j',
    (value) => expect(allowAddressProblem(value)).toBeDefined(),
  );
});
