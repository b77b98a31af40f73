import { describe, expect, it } from 'vitest';
import { parseBridgeArgs, type BridgeArgs } from './bridge-args.js';
import { bridgeArgv, entryName, hostConfig } from './bridge-config.js';

function ok(argv: string[]): BridgeArgs {
  const parsed = parseBridgeArgs(argv);
  if (parsed.kind !== 'ok') throw new Error(JSON.stringify(parsed));
  return parsed.args;
}
function error(argv: string[]): string {
  const parsed = parseBridgeArgs(argv);
  if (parsed.kind !== 'error') throw new Error(`expected an error, got ${parsed.kind}`);
  return parsed.message;
}

describe('parseBridgeArgs', () => {
  it('takes the upstream command after -- verbatim, its own options included', () => {
    const args = ok(['--profile', 'cursor', '--', 'node', 'server.js', '--profile', 'x', '--']);
    expect(args.target).toEqual({
      kind: 'stdio',
      command: 'node',
      args: ['server.js', '--profile', 'x', '--'],
    });
    expect(args.profile).toBe('cursor');
    expect(args.downstream).toEqual({ kind: 'stdio' });
    expect(args.maxLinkBytes).toBe(262_144);
  });

  it('refuses --input-ttl and --max-parked-inputs without --forward-input', () => {
    expect(error(['--input-ttl', '5', '--', 'node'])).toBe(
      '--input-ttl applies with --forward-input only',
    );
    expect(error(['--max-parked-inputs=3', '--', 'node'])).toBe(
      '--max-parked-inputs applies with --forward-input only',
    );
    expect(ok(['--forward-input', '--input-ttl', '5', '--', 'node']).forwardInput).toBe(true);
  });

  it('takes --forward-input (a flag, kept for --print-config)', () => {
    const args = ok(['--forward-input', '--', 'node', 's.js']);
    expect(args.forwardInput).toBe(true);
    expect(args.optionWords).toEqual(['--forward-input']);
    expect(ok(['--', 'node', 's.js']).forwardInput).toBe(false);
    expect(error(['--forward-input=yes', '--', 'node'])).toContain(
      '--forward-input takes no value',
    );
  });

  it('takes --extract-pdf and its limits (defaults 50 pages, 8 MiB, 10 s), kept for --print-config', () => {
    const plain = ok(['--', 'node', 's.js']);
    expect(plain).toMatchObject({
      extractPdf: false,
      pdfMaxPages: 50,
      pdfMaxBytes: 8 * 1024 * 1024,
      pdfTimeoutMs: 10_000,
    });
    const args = ok([
      '--extract-pdf',
      '--pdf-max-pages',
      '3',
      '--pdf-max-bytes=2m',
      '--pdf-timeout',
      '5',
      '--',
      'node',
      's.js',
    ]);
    expect(args).toMatchObject({
      extractPdf: true,
      pdfMaxPages: 3,
      pdfMaxBytes: 2 * 1024 * 1024,
      pdfTimeoutMs: 5000,
    });
    expect(args.optionWords).toEqual([
      '--extract-pdf',
      '--pdf-max-pages',
      '3',
      '--pdf-max-bytes=2m',
      '--pdf-timeout',
      '5',
    ]);
    expect(error(['--pdf-max-pages', '3', '--', 'node'])).toBe(
      '--pdf-max-pages applies with --extract-pdf only',
    );
    expect(error(['--extract-pdf', '--pdf-max-pages', '0', '--', 'node'])).toContain(
      '--pdf-max-pages expects a whole number, at least 1',
    );
    expect(error(['--extract-pdf', '--pdf-max-bytes', 'lots', '--', 'node'])).toContain(
      '--pdf-max-bytes expects a size in bytes',
    );
    expect(error(['--extract-pdf', '--pdf-timeout', '-1', '--', 'node'])).toContain(
      '--pdf-timeout expects a number of seconds',
    );
    // Past 2^31-1 ms a timer fires at once: the cap is an hour.
    expect(error(['--extract-pdf', '--pdf-timeout', '2147484', '--', 'node'])).toContain(
      '--pdf-timeout is at most 3600 seconds',
    );
    expect(error(['--extract-pdf', '--pdf-timeout', '3601', '--', 'node'])).toContain(
      '--pdf-timeout is at most 3600 seconds',
    );
    expect(ok(['--extract-pdf', '--pdf-timeout', '3600', '--', 'node']).pdfTimeoutMs).toBe(
      3_600_000,
    );
  });

  it('takes --input-ttl and --max-parked-inputs (kept for --print-config), refusing 0', () => {
    const args = ok([
      '--forward-input',
      '--input-ttl',
      '90',
      '--max-parked-inputs',
      '4',
      '--',
      'n',
    ]);
    expect(args.inputTtlMs).toBe(90_000);
    expect(args.maxParkedInputs).toBe(4);
    expect(args.optionWords).toEqual([
      '--forward-input',
      '--input-ttl',
      '90',
      '--max-parked-inputs',
      '4',
    ]);
    expect(ok(['--', 'n']).inputTtlMs).toBeUndefined();
    expect(error(['--input-ttl', '0', '--', 'n'])).toContain('--input-ttl expects a number of');
    expect(error(['--max-parked-inputs', '0', '--', 'n'])).toContain(
      '--max-parked-inputs expects a whole number, at least 1',
    );
  });

  it('takes an http upstream with --url and its sign-in options', () => {
    const args = ok(['--url', 'https://example.com/mcp', '--token-env', 'TOKEN']);
    expect(args.target).toEqual({ kind: 'http', url: 'https://example.com/mcp' });
    expect(args.upstream.tokenEnv).toBe('TOKEN');
    expect(error(['--token-env', 'T', '--', 'node', 's.js'])).toContain(
      '--token-env applies to an upstream --url',
    );
    expect(error(['--url', 'ftp://x'])).toContain('--url expects an http');
    expect(error(['--url', 'https://x', '--', 'node'])).toContain('not both');
  });

  it('reads the limits and names the option on a bad value', () => {
    const args = ok([
      '--max-link-bytes',
      '64KiB',
      '--max-result-chars',
      '25000',
      '--timeout',
      '5',
      '--',
      'x',
    ]);
    expect(args.maxLinkBytes).toBe(65_536);
    expect(args.maxResultChars).toBe(25_000);
    expect(args.upstream.timeoutMs).toBe(5000);
    expect(error(['--max-link-bytes', '0', '--', 'x'])).toContain('--max-link-bytes');
    expect(error(['--max-result-chars', '1.5', '--', 'x'])).toContain('--max-result-chars');
    expect(error(['--log', '--', 'x'])).toContain('--log expects a value');
  });

  it('serves --http on loopback by default, and checks the downstream auth rule options', () => {
    expect(ok(['--http', '--', 'x']).downstream).toEqual({
      kind: 'http',
      host: '127.0.0.1',
      port: 3334,
    });
    expect(ok(['--http', '0.0.0.0:9000', '--insecure-no-auth', '--', 'x']).downstream).toEqual({
      kind: 'http',
      host: '0.0.0.0',
      port: 9000,
    });
    expect(error(['--insecure-no-auth', '--', 'x'])).toContain('--http only');
  });

  it('needs an upstream, and refuses positionals and unknown options', () => {
    expect(error([])).toContain('needs an upstream');
    expect(error(['node', 'server.js'])).toContain('after "--"');
    expect(error(['--nope', '--', 'x'])).toContain('unknown option "--nope"');
    expect(parseBridgeArgs(['--explain-profile', 'goose'])).toEqual({
      kind: 'explain',
      profile: 'goose',
    });
    expect(parseBridgeArgs(['--help'])).toEqual({ kind: 'help' });
  });
});

describe('--print-config', () => {
  it('repeats the options, adds the host profile and keeps the upstream argv verbatim', () => {
    const args = ok([
      '--print-config',
      'vscode',
      '--max-link-bytes=1000',
      '--log',
      'd.jsonl',
      '--',
      'npx',
      '-y',
      'pkg',
      'a b',
    ]);
    const argv = bridgeArgv(args, '/abs/bin.cjs', '/work', () => false);
    expect(argv).toEqual([
      '/abs/bin.cjs',
      'bridge',
      '--profile',
      'vscode',
      '--max-link-bytes=1000',
      '--log',
      '/work/d.jsonl',
      '--',
      'npx',
      '-y',
      'pkg',
      'a b',
    ]);
    expect(entryName(args)).toBe('a-b');
  });

  it('keeps a given profile, made absolute when it is a file', () => {
    const args = ok(['--print-config', 'cursor', '--profile', 'my.json', '--', 'node', 'srv.mjs']);
    expect(bridgeArgv(args, '/b', '/home/me', () => true)).toEqual([
      '/b',
      'bridge',
      '--profile',
      '/home/me/my.json',
      '--',
      'node',
      'srv.mjs',
    ]);
    const named = ok([
      '--print-config',
      'cursor',
      '--profile',
      'passthrough',
      '--',
      'node',
      'srv.mjs',
    ]);
    expect(bridgeArgv(named, '/b', '/home/me', () => false)).toContain('passthrough');
    expect(entryName(named)).toBe('srv');
  });

  it('prints each host its own shape', () => {
    expect(hostConfig('claude-desktop', 'n', '/node', ['a'])).toEqual({
      mcpServers: { n: { command: '/node', args: ['a'] } },
    });
    expect(hostConfig('vscode', 'n', '/node', ['a'])).toEqual({
      servers: { n: { type: 'stdio', command: '/node', args: ['a'] } },
    });
    expect(hostConfig('claude-code', 'n', '/node', ['a'])).toMatchObject({
      mcpServers: { n: { type: 'stdio', command: '/node' } },
    });
    expect(hostConfig('goose', 'n', '/node', ['a'])).toMatchObject({
      extensions: { n: { type: 'stdio', cmd: '/node', args: ['a'], enabled: true } },
    });
  });
});
