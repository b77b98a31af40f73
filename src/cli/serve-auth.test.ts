import { describe, expect, it } from 'vitest';
import { parseServeArgs } from './args.js';
import { authBannerLine, isLoopbackHost, resourceServerOf } from './serve-auth.js';

const AS = 'https://auth.example.com';

function parsed(argv: string[]) {
  const out = parseServeArgs(argv);
  if (out.kind !== 'ok') throw new Error(out.kind === 'error' ? out.message : out.kind);
  return out.args;
}

function problem(argv: string[]): string {
  const out = parseServeArgs(argv);
  return out.kind === 'error' ? out.message : '';
}

describe('serve --auth-* arguments', () => {
  it('reads every option', () => {
    const args = parsed([
      '--auth-issuer',
      AS,
      '--auth-audience=https://mcp.example.com/mcp',
      '--auth-introspect',
      `${AS}/introspect`,
      '--auth-client-id',
      'rs',
      '--auth-client-secret-env',
      'RS_SECRET',
      '--auth-scopes',
      'files:read, files:write',
    ]);
    expect(args.auth).toEqual({
      issuer: AS,
      audience: 'https://mcp.example.com/mcp',
      introspect: `${AS}/introspect`,
      clientId: 'rs',
      clientSecretEnv: 'RS_SECRET',
      scopes: ['files:read', 'files:write'],
    });
    expect(parsed(['--http', '0.0.0.0:80', '--insecure-no-auth']).insecureNoAuth).toBe(true);
  });

  it.each([
    [['--auth-issuer', 'not a url'], /^--auth-issuer expects an http\(s\) URL/],
    [['--auth-issuer', 'ftp://h/'], /^--auth-issuer expects an http\(s\) URL/],
    [['--auth-jwks', `${AS}/jwks`], /apply with --auth-issuer only$/],
    [
      ['--auth-issuer', AS, '--insecure-no-auth'],
      /^choose one of --auth-issuer and --insecure-no-auth$/,
    ],
    [
      ['--auth-issuer', AS, '--auth-jwks', `${AS}/j`, '--auth-introspect', `${AS}/i`],
      /^choose one of --auth-jwks/,
    ],
    [
      ['--auth-issuer', AS, '--auth-introspect', `${AS}/i`],
      /needs --auth-client-id ID and --auth-client-secret-env VAR/,
    ],
    [['--auth-issuer', AS, '--auth-client-id', 'x'], /apply with --auth-introspect only$/],
    [
      ['--auth-issuer', AS, '--auth-client-secret-env', 'a secret'],
      /expects the NAME of an environment variable/,
    ],
    [['--auth-issuer', AS, '--auth-scopes', 'a,,b'], /expects scopes separated by commas/],
    [['--stdio', '--auth-issuer', AS], /^--auth-issuer applies to --http only$/],
    [['--stdio', '--insecure-no-auth'], /^--insecure-no-auth applies to --http only$/],
  ])('refuses %j', (argv, message) => {
    expect(problem(argv)).toMatch(message);
  });
});

describe('resourceServerOf', () => {
  it('refuses a non-loopback address without auth, naming both options', () => {
    for (const host of ['0.0.0.0', '::', '10.1.2.3', 'example.com'])
      expect(() => resourceServerOf({}, false, host, () => '')).toThrow(
        /--auth-issuer.*--insecure-no-auth/,
      );
    expect(resourceServerOf({}, true, '0.0.0.0', () => '')).toBeUndefined();
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) {
      expect(isLoopbackHost(host)).toBe(true);
      expect(resourceServerOf({}, false, host, () => '')).toBeUndefined();
    }
  });

  it('builds the resource server, the resource URL known once listening', () => {
    let url = '';
    const rs = resourceServerOf({ issuer: AS, scopes: ['mcp'] }, false, '127.0.0.1', () => url);
    url = 'http://127.0.0.1:4000/mcp';
    expect(rs?.metadata()).toMatchObject({
      resource: url,
      authorization_servers: [AS],
      scopes_supported: ['mcp'],
    });
    expect(authBannerLine({ issuer: AS, scopes: ['mcp'] }, rs)).toContain(
      `bearer tokens for ${url}: JWT access tokens signed by ${AS}, scopes mcp`,
    );
  });

  it('reads the introspection secret from the environment, and never prints it', () => {
    const auth = {
      issuer: AS,
      introspect: `${AS}/introspect`,
      clientId: 'rs',
      clientSecretEnv: 'RS_SECRET',
    };
    expect(() => resourceServerOf(auth, false, '127.0.0.1', () => '', {})).toThrow(
      /RS_SECRET is not set/,
    );
    const rs = resourceServerOf(auth, false, '127.0.0.1', () => 'http://h/mcp', {
      RS_SECRET: 'hunter2',
    });
    expect(authBannerLine(auth, rs)).not.toContain('hunter2');
  });

  it('requires --auth-audience on a wildcard host (its bound URL is no URL a client uses)', () => {
    for (const host of ['0.0.0.0', '::', '[::]'])
      expect(() => resourceServerOf({ issuer: AS }, false, host, () => '')).toThrow(
        /^--auth-audience URL is required with --http/,
      );
    const audience = 'https://mcp.example.com/mcp';
    const rs = resourceServerOf({ issuer: AS, audience }, false, '0.0.0.0', () => '');
    expect(rs?.resource).toBe(audience);
  });

  it('hands refusals to onRejected', async () => {
    const reasons: string[] = [];
    const rs = resourceServerOf(
      { issuer: AS, introspect: 'http://127.0.0.1:9/i', clientId: 'rs', clientSecretEnv: 'S' },
      false,
      '127.0.0.1',
      () => 'http://127.0.0.1:1/mcp',
      { S: 'x' },
      (reason) => reasons.push(reason),
    );
    await rs?.authenticate({ authorization: 'Bearer abc' });
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).not.toContain('abc');
  });
});
