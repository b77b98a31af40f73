import { describe, expect, it } from 'vitest';
import { parseHostPort, parseServeArgs, parseSize, type ServeArgs } from './args.js';

const DEFAULTS: ServeArgs = {
  transport: { kind: 'http', host: '127.0.0.1', port: 3333 },
  allowHosts: [],
  legacy: true,
  quiet: false,
  watch: true,
  refuseHardLinks: false,
  idleGc: true,
  auth: {},
  insecureNoAuth: false,
};

describe('parseSize', () => {
  it.each([
    ['0', 0],
    ['65536', 65536],
    ['512k', 512 * 1024],
    ['512K', 512 * 1024],
    ['512kib', 512 * 1024],
    ['512kb', 512_000],
    ['1m', 1024 ** 2],
    ['1.5m', 1.5 * 1024 ** 2],
    ['4mib', 4 * 1024 ** 2],
    ['4MiB', 4 * 1024 ** 2],
    ['2mb', 2_000_000],
    ['1g', 1024 ** 3],
    ['1gb', 1e9],
    ['10b', 10],
    [' 8 k ', 8192],
  ])('%j -> %d', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });

  it.each(['', 'k', '-1', '1.2.3', '12q', '1 m b', '0x10', '1e3', '99999999999999999999g'])(
    '%j is not a size',
    (text) => {
      expect(parseSize(text)).toBeUndefined();
    },
  );
});

describe('parseHostPort', () => {
  it.each([
    ['3333', { host: '127.0.0.1', port: 3333 }],
    ['0', { host: '127.0.0.1', port: 0 }],
    ['localhost:8080', { host: 'localhost', port: 8080 }],
    ['0.0.0.0:80', { host: '0.0.0.0', port: 80 }],
    ['[::1]:3333', { host: '::1', port: 3333 }],
    ['my_service.internal:80', { host: 'my_service.internal', port: 80 }],
  ])('%j -> %j', (text, expected) => {
    expect(parseHostPort(text)).toEqual(expected);
  });

  it.each([
    '',
    'host',
    'host:',
    ':80',
    '65536',
    'a:b:80',
    '::1:3333',
    'http://x:80',
    '[::1]',
    'a#b:3000',
    'a@b:80',
    'x%y:80',
  ])('%j is refused', (text) => {
    expect(parseHostPort(text)).toBeUndefined();
  });
});

describe('parseServeArgs', () => {
  it.each<[string[], Partial<ServeArgs>]>([
    [[], {}],
    [['./docs'], { dir: './docs' }],
    [['--stdio'], { transport: { kind: 'stdio' } }],
    [['docs', '--stdio'], { dir: 'docs', transport: { kind: 'stdio' } }],
    [['--stdio', 'docs'], { dir: 'docs', transport: { kind: 'stdio' } }],
    [['--http'], {}],
    [['--http', 'docs'], { dir: 'docs', dirAfterHttp: true }],
    [['--http', '8080'], { transport: { kind: 'http', host: '127.0.0.1', port: 8080 } }],
    [
      ['--http', '0.0.0.0:9000', 'docs'],
      { dir: 'docs', transport: { kind: 'http', host: '0.0.0.0', port: 9000 } },
    ],
    [['--http=[::1]:1234'], { transport: { kind: 'http', host: '::1', port: 1234 } }],
    [['--block-budget', '512k'], { blockBudgetBytes: 512 * 1024 }],
    [
      ['--block-budget=2m', '--result-budget', '8mib'],
      { blockBudgetBytes: 2 * 1024 ** 2, resultBudgetBytes: 8 * 1024 ** 2 },
    ],
    [['--page-size', '25'], { pageSize: 25 }],
    [
      ['--stdio', '--max-line-bytes', '64m'],
      { transport: { kind: 'stdio' }, maxLineBytes: 64 * 1024 ** 2 },
    ],
    [['--max-body-bytes', '16m'], { maxBodyBytes: 16 * 1024 ** 2 }],
    [['--max-response-bytes', '64m'], { maxResponseBytes: 64 * 1024 ** 2 }],
    [
      ['--stdio', '--max-response-bytes', '65536'],
      { transport: { kind: 'stdio' }, maxResponseBytes: 65536 },
    ],
    [['--cache-bytes', '0'], { cacheBytes: 0 }],
    [['--part-bytes', '256k'], { partBytes: 256 * 1024 }],
    [
      ['--allow-host', 'a.example', '--allow-host=b.example'],
      { allowHosts: ['a.example', 'b.example'] },
    ],
    [['--no-legacy', '--quiet', '--no-watch'], { legacy: false, quiet: true, watch: false }],
    [['--no-hard-links'], { refuseHardLinks: true }],
    // Split by node:util parseArgs: grouped short flags, `--` before a DIR that looks like a port.
    [['-q', 'docs'], { dir: 'docs', quiet: true }],
    [['--http', '--', '3333'], { dir: '3333' }],
    [['--', '--stdio'], { dir: '--stdio' }],
    [['--no-idle-gc'], { idleGc: false }],
    [
      ['--stdio', '--max-line-bytes', '64k'],
      { transport: { kind: 'stdio' }, maxLineBytes: 64 * 1024 },
    ],
    [['--max-body-bytes', '65536'], { maxBodyBytes: 65536 }],
    [['--allow-host', '[fe80::1]'], { allowHosts: ['[fe80::1]'] }],
    [['-q'], { quiet: true }],
    [['--', '--odd-dir-name'], { dir: '--odd-dir-name' }],
    [['--block-budget', '1k', '--block-budget', '2k'], { blockBudgetBytes: 2048 }],
    [
      ['docs', '--stdio', '--index-dir', '/tmp/idx'],
      { dir: 'docs', transport: { kind: 'stdio' }, indexDir: '/tmp/idx' },
    ],
    [['--index-dir=idx', 'docs'], { dir: 'docs', indexDir: 'idx' }],
  ])('%j', (argv, expected) => {
    expect(parseServeArgs(argv)).toEqual({
      kind: 'ok',
      args: { ...DEFAULTS, allowHosts: [], ...expected },
    });
  });

  it.each([['--help'], ['-h'], ['docs', '--stdio', '--help'], ['-qh']])(
    '%j asks for help',
    (...argv) => {
      expect(parseServeArgs(argv)).toEqual({ kind: 'help' });
    },
  );

  it.each<[string[], RegExp]>([
    [['--bogus'], /^unknown option "--bogus"$/],
    [['-x'], /^unknown option "-x"$/],
    [['a', 'b'], /^unexpected argument "b": serve takes one DIR$/],
    [['--stdio', '--http'], /^choose one of --stdio and --http$/],
    [['--http', '70000'], /^--http expects HOST:PORT or PORT .*got "70000"$/],
    [['docs', '--http', 'notaport'], /^--http expects HOST:PORT or PORT .*got "notaport"$/],
    [['--http', 'notaport', 'docs'], /^--http expects HOST:PORT or PORT .*got "notaport"$/],
    [['--http=nope'], /^--http expects HOST:PORT or PORT/],
    [['--http', 'localhost:'], /^--http expects HOST:PORT or PORT/],
    [['--block-budget'], /^--block-budget expects a value$/],
    [['--block-budget', '--stdio'], /^--block-budget expects a value$/],
    [
      ['--block-budget', 'lots'],
      /^--block-budget expects a size such as 65536, 512k, 1m or 4mib, got "lots"$/,
    ],
    [['--block-budget', '0'], /^--block-budget must be at least 1 bytes/],
    [
      ['--max-body-bytes', '10'],
      /^--max-body-bytes must be at least 64k \(65536 bytes\): 1k of it is kept for the message envelope and results need the rest, got "10"$/,
    ],
    // 1024 used to be accepted, and left a cap of 0 bytes for results.
    [['--max-body-bytes', '1024'], /^--max-body-bytes must be at least 64k \(65536 bytes\)/],
    [['--max-response-bytes', '65535'], /^--max-response-bytes must be at least 64k/],
    [['--part-bytes', '1000'], /^--part-bytes must be at least 1k \(1024 bytes\)/],
    [['--stdio', '--max-response-bytes', 'lots'], /^--max-response-bytes expects a size/],
    [['--stdio', '--max-line-bytes', '1k'], /^--max-line-bytes must be at least 64k/],
    [['--stdio', '--max-line-bytes', '65535'], /^--max-line-bytes must be at least 64k/],
    // The Host guard compares names without their port: name:port could never match.
    [
      ['--allow-host', 'docs.internal:8080'],
      /^--allow-host expects a host name without a port \(Host headers are compared without their port\), got "docs\.internal:8080"; use --allow-host docs\.internal$/,
    ],
    [['--allow-host=docs.internal:'], /^--allow-host expects a host name without a port/],
    [
      ['--allow-host', '[::1]:3333'],
      /^--allow-host expects a host name without a port .*; use --allow-host \[::1\]$/,
    ],
    [['--allow-host', 'fe80::1'], /^--allow-host expects .*IPv6 address in brackets/],
    [['--stdio', '--no-hard-links=1'], /^--no-hard-links takes no value$/],
    [['--page-size', '0'], /^--page-size expects a whole number from 1 to 10000, got "0"$/],
    [['--page-size', '2.5'], /^--page-size expects a whole number/],
    [['--page-size', '20000'], /^--page-size expects a whole number/],
    [['--stdio', '--max-body-bytes', '1m'], /^--max-body-bytes applies to --http only$/],
    [['--stdio', '--allow-host', 'x'], /^--allow-host applies to --http only$/],
    [['--stdio', '--no-legacy'], /^--no-legacy applies to --http only$/],
    [['--max-line-bytes', '1m'], /^--max-line-bytes applies to --stdio only$/],
    [['--allow-host'], /^--allow-host expects a host name/],
    [['--allow-host', 'http://x/'], /^--allow-host expects a host name without scheme or path/],
    [['--stdio=yes'], /^--stdio takes no value$/],
    [['--quiet=1'], /^--quiet takes no value$/],
    [[''], /^DIR is empty$/],
  ])('%j -> error', (argv, message) => {
    const parsed = parseServeArgs(argv);
    expect(parsed.kind).toBe('error');
    if (parsed.kind === 'error') {
      expect(parsed.message).toMatch(message);
      expect(parsed.message).not.toContain('\n');
    }
  });
});
