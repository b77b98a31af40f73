/**
 * `mcpkit serve --auth-*` as a real process against bad tokens and a hostile authorization
 * server (a stub on 127.0.0.1 serving metadata and keys, a JWKS that hangs, one of 10 MB).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWK } from 'jose';
import { modern, modernHeaders } from '../../src/testing/messages.js';
import { serveWithIssuer, type HttpServe } from './serve-harness.js';

type Key = Awaited<ReturnType<typeof generateKeyPair>>;

let as: Server;
let issuer = '';
let key: Key;
let otherKey: Key;
let publicJwk: JWK;
const pending: Array<() => void> = [];

function startAs(): Promise<void> {
  as = createServer((req, res) => {
    const json = (value: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.url === '/.well-known/oauth-authorization-server')
      return json({ issuer, jwks_uri: `${issuer}/jwks`, token_endpoint: `${issuer}/token` });
    if (req.url === '/jwks') return json({ keys: [publicJwk] });
    // Never answers: the server must give up on it.
    if (req.url === '/hang') return void pending.push(() => res.destroy());
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      res.write('{"keys":[');
      for (let i = 0; i < 10; i++) res.write(chunk);
      return void res.end(']}');
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    as.listen(0, '127.0.0.1', () => {
      issuer = `http://127.0.0.1:${(as.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

async function token(
  claims: Record<string, unknown>,
  options: { aud?: string; iss?: string; exp?: number | string; kid?: string; with?: Key } = {},
): Promise<string> {
  const jwt = new SignJWT({ scope: 'mcp', client_id: 'c1', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'k1', typ: 'at+jwt' })
    .setSubject('alice')
    .setIssuer(options.iss ?? issuer)
    .setAudience(options.aud ?? served.url)
    .setIssuedAt()
    .setExpirationTime(options.exp ?? '5m');
  return jwt.sign((options.with ?? key).privateKey);
}

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

let served: HttpServe;

function post(url: string, headers: Record<string, string> = {}, signal?: AbortSignal) {
  const body = modern('tools/list');
  return fetch(url, {
    method: 'POST',
    headers: { ...modernHeaders('tools/list'), ...headers },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

function expectChallenge(res: Response, error?: string): void {
  expect(res.status).toBe(401);
  const challenge = res.headers.get('www-authenticate') ?? '';
  const origin = new URL(served.url).origin;
  expect(challenge).toMatch(/^Bearer /);
  expect(challenge).toContain(
    `resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
  );
  expect(challenge).toContain('scope="mcp"');
  if (error) expect(challenge).toContain(`error="${error}"`);
}

beforeAll(async () => {
  key = await generateKeyPair('RS256');
  otherKey = await generateKeyPair('RS256');
  publicJwk = { ...(await exportJWK(key.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  await startAs();
  served = await serveWithIssuer(issuer, '--auth-scopes', 'mcp');
}, 30_000);

afterAll(async () => {
  await served?.stop();
  for (const end of pending) end();
  as.closeAllConnections();
  await new Promise((resolve) => as.close(resolve));
});

describe('serve --auth-issuer: Protected Resource Metadata', () => {
  it.each(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])(
    'is served at %s, naming the endpoint, the issuer and the scopes',
    async (path) => {
      const res = await fetch(new URL(path, served.url));
      expect(res.status).toBe(200);
      const prm = (await res.json()) as Record<string, unknown>;
      expect(prm['resource']).toBe(served.url);
      expect(prm['authorization_servers']).toEqual([issuer]);
      expect(prm['scopes_supported']).toEqual(['mcp']);
    },
  );
});

describe('serve --auth-issuer: tokens', () => {
  it('answers 401 with the challenge without a token', async () => {
    const res = await post(served.url);
    expectChallenge(res);
    expect(res.headers.get('www-authenticate')).not.toContain('error=');
  });

  it('accepts a valid token (keys found from the issuer metadata, fetched lazily)', async () => {
    const res = await post(served.url, { authorization: `Bearer ${await token({})}` });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { result?: { tools?: unknown[] } };
    expect(json.result?.tools?.length).toBeGreaterThan(0);
  });

  it('answers 403 insufficient_scope to a token without the required scope', async () => {
    const res = await post(served.url, {
      authorization: `Bearer ${await token({ scope: 'other' })}`,
    });
    expect(res.status).toBe(403);
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="mcp"');
  });

  const bad: Array<[string, () => Promise<string>]> = [
    ['expired', () => token({}, { exp: Math.floor(Date.now() / 1000) - 600 })],
    ['for another audience', () => token({}, { aud: 'https://other.example/mcp' })],
    [
      'for another resource on this host',
      () => token({}, { aud: `${new URL(served.url).origin}/other` }),
    ],
    ['from another issuer', () => token({}, { iss: 'https://evil.example' })],
    ['signed by an unknown kid', () => token({}, { kid: 'k2', with: otherKey })],
    [
      'with a forged signature',
      async () => {
        const [h, p] = (await token({})).split('.');
        const forged = await token({ sub: 'mallory' }, { with: otherKey });
        return `${h}.${p}.${forged.split('.')[2]}`;
      },
    ],
    [
      'alg none',
      async () =>
        `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({
          iss: issuer,
          aud: served.url,
          sub: 'alice',
          scope: 'mcp',
          exp: Math.floor(Date.now() / 1000) + 300,
        })}.`,
    ],
    [
      'HS256 keyed with the public key',
      async () => {
        const pem = await exportSPKI(key.publicKey);
        return new SignJWT({ scope: 'mcp' })
          .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
          .setIssuer(issuer)
          .setAudience(served.url)
          .setSubject('alice')
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode(pem));
      },
    ],
    ['that is not a JWT', async () => 'abc.def'],
  ];

  it.each(bad)('answers a token %s 401 invalid_token with the challenge', async (_, make) => {
    const res = await post(served.url, { authorization: `Bearer ${await make()}` });
    expectChallenge(res, 'invalid_token');
    const body = await res.text();
    expect(body).not.toMatch(/ERR_|jose|signature|kid/i);
  });

  it('refuses a token in the query string, even a valid one', async () => {
    const res = await post(`${served.url}?access_token=${await token({})}`);
    expectChallenge(res, 'invalid_request');
  });

  it('answers a 100 KB header 431 and keeps serving', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(served.url, {
        method: 'POST',
        headers: { ...modernHeaders('tools/list'), authorization: `Bearer ${'a'.repeat(100_000)}` },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect([400, 413, 431]).toContain(status);
    const res = await post(served.url, { authorization: `Bearer ${await token({})}` });
    expect(res.status).toBe(200);
  });
});

describe('serve --auth-jwks: a hostile key endpoint', () => {
  it.each(['/hang', '/big'])(
    'answers 401 or 503 when the JWKS at %s cannot be had',
    async (path) => {
      const hostile = await serveWithIssuer(issuer, '--auth-jwks', `${issuer}${path}`);
      try {
        const t = await new SignJWT({})
          .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
          .setIssuer(issuer)
          .setAudience(hostile.url)
          .setExpirationTime('5m')
          .sign(key.privateKey);
        // Generous: the server answers within its 3 s wait for keys; this only bounds a hang.
        const res = await post(
          hostile.url,
          { authorization: `Bearer ${t}` },
          AbortSignal.timeout(10_000),
        );
        expect([401, 503]).toContain(res.status);
        // The valid token of another server still works there: one hostile AS harms nobody else.
        const ok = await post(served.url, { authorization: `Bearer ${await token({})}` });
        expect(ok.status).toBe(200);
      } finally {
        await hostile.stop();
      }
    },
    20_000,
  );
});
