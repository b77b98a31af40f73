import { createServer as createHttp, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../server/index.js';
import type { AuthInfo } from '../../server/transport.js';
import { serveHttp, type RunningHttpServer } from '../../transports/node.js';
import { initializeRequest, modern, modernHeaders } from '../../testing/messages.js';
import { Introspector } from './introspection.js';
import { ResourceServer } from './resource-server.js';
import { TokenRejected, TokenUnverifiable } from './token-errors.js';

const AS = 'https://auth.example.com';
const callers: Record<string, AuthInfo> = {
  alice: { subject: 'alice', clientId: 'c', issuer: AS, scopes: ['mcp', 'files:read'], claims: {} },
  bob: { subject: 'bob', clientId: 'c', issuer: AS, scopes: ['mcp'], claims: {} },
};

let running: RunningHttpServer;
let url = '';

function post(body: unknown, token?: string, extra: Record<string, string> = {}) {
  const b = body as { method: string; params?: { name?: string } };
  return fetch(url, {
    method: 'POST',
    headers: {
      ...modernHeaders(b.method, b.params?.name),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...extra,
    },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  const server = createServer({ name: 'protected', version: '1.0.0' });
  server.tool('whoami', {}, (_args, ctx) => ctx.auth?.subject ?? 'nobody');
  server.tool('read-files', { scopes: ['files:read'] }, () => 'secret files');
  server.resource('mem://private', { name: 'private', scopes: ['files:read'] }, () => 'private');
  server.prompt(
    'file-prompt',
    { scopes: ['files:read'], arguments: [{ name: 'path' }], complete: { path: () => ['/etc/a'] } },
    () => 'p',
  );
  const auth = new ResourceServer({
    resource: () => url,
    issuer: AS,
    requiredScopes: ['mcp'],
    verify: (token) => callers[token],
  });
  running = await serveHttp(server, { port: 0, auth });
  url = running.url;
});

afterAll(() => running.close());

describe('a protected endpoint (verify hook)', () => {
  it('keys a token naming neither subject nor client on a hash of the token', async () => {
    const anonymous = new ResourceServer({
      resource: 'http://h/mcp',
      verify: () => ({ scopes: [], claims: {} }),
    });
    const one = await anonymous.authenticate({ authorization: 'Bearer t1' });
    const two = await anonymous.authenticate({ authorization: 'Bearer t2' });
    const keyOf = (o: unknown) => (o as { auth?: AuthInfo }).auth?.tokenKey;
    expect(keyOf(one)).toMatch(/^[\w-]{43}$/);
    expect(keyOf(two)).toMatch(/^[\w-]{43}$/);
    expect(keyOf(one)).not.toBe(keyOf(two));
    // Named callers keep their identity (a refreshed token is the same caller).
    const named = await new ResourceServer({
      resource: 'http://h/mcp',
      verify: () => ({ subject: 's', scopes: [], claims: {} }),
    }).authenticate({ authorization: 'Bearer t3' });
    expect(keyOf(named)).toBeUndefined();
  });

  it('refuses with 401 a token the hook rejects with anything (not an Error too)', async () => {
    for (const thrown of [undefined, null, 'expired', new Error('expired')]) {
      const reasons: string[] = [];
      const check = new ResourceServer({
        resource: 'http://h/mcp',
        verify: () => Promise.reject(thrown as Error),
        onRejected: (reason) => reasons.push(reason),
      });
      const outcome = await check.authenticate({ authorization: 'Bearer t' });
      expect(outcome).toMatchObject({ refused: { status: 401 } });
      expect(typeof reasons[0]).toBe('string');
    }
  });

  it('lists every scope in use in its metadata', async () => {
    const prm = await (
      await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url))
    ).json();
    expect(prm).toEqual({
      resource: url,
      authorization_servers: [AS],
      scopes_supported: ['mcp', 'files:read'],
      bearer_methods_supported: ['header'],
    });
  });

  it('hands the caller to handlers as ctx.auth', async () => {
    const res = await post(modern('tools/call', { name: 'whoami', arguments: {} }), 'alice');
    expect(res.status).toBe(200);
    const json = (await res.json()) as { result: { content: Array<{ text: string }> } };
    expect(json.result.content[0]?.text).toBe('alice');
  });

  it('refuses an unknown token 401 invalid_token, and a missing one without error code', async () => {
    const bad = await post(modern('tools/list'), 'mallory');
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp", scope="mcp", error="invalid_token"`,
    );
    const none = await post(modern('tools/list'));
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).not.toContain('error=');
  });

  it('answers 403 insufficient_scope to a completion of a scoped prompt', async () => {
    const complete = modern('completion/complete', {
      ref: { type: 'ref/prompt', name: 'file-prompt' },
      argument: { name: 'path', value: '' },
    });
    const res = await post(complete, 'bob');
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(await res.text()).not.toContain('/etc/a');
    const ok = await post(complete, 'alice');
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('/etc/a');
  });

  it('answers 403 insufficient_scope naming the tool scope before the handler runs', async () => {
    const res = await post(modern('tools/call', { name: 'read-files', arguments: {} }), 'bob');
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('scope="mcp files:read"');
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(await res.text()).not.toContain('secret files');
    const ok = await post(modern('tools/call', { name: 'read-files', arguments: {} }), 'alice');
    expect(ok.status).toBe(200);
    const read = modern('resources/read', { uri: 'mem://private' });
    const refused = await fetch(url, {
      method: 'POST',
      headers: { ...modernHeaders('resources/read', 'mem://private'), authorization: 'Bearer bob' },
      body: JSON.stringify(read),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('scope="mcp files:read"');
  });

  it('leaves tools out of the list for callers without their scopes', async () => {
    const names = async (token: string) => {
      const json = (await (await post(modern('tools/list'), token)).json()) as {
        result: { tools: Array<{ name: string }> };
      };
      return json.result.tools.map((t) => t.name);
    };
    expect(await names('alice')).toEqual(['whoami', 'read-files']);
    expect(await names('bob')).toEqual(['whoami']);
  });

  it('keeps a 2025-11-25 session to the caller that opened it', async () => {
    const init = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer alice',
      },
      body: JSON.stringify(initializeRequest()),
    });
    const session = init.headers.get('mcp-session-id') ?? '';
    expect(session).not.toBe('');
    const list = { jsonrpc: '2.0', id: 9, method: 'tools/list' };
    const headers = (token: string) => ({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${token}`,
    });
    const theirs = await fetch(url, {
      method: 'POST',
      headers: headers('bob'),
      body: JSON.stringify(list),
    });
    expect(theirs.status).toBe(404);
    const mine = await fetch(url, {
      method: 'POST',
      headers: headers('alice'),
      body: JSON.stringify(list),
    });
    expect(mine.status).toBe(200);
  });
});

describe('introspection (RFC 7662)', () => {
  let as: Server;
  let calls = 0;
  let asUrl = '';
  beforeAll(async () => {
    as = createHttp((req, res) => {
      calls++;
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const token = new URLSearchParams(body).get('token');
        const authorized =
          req.headers.authorization === `Basic ${Buffer.from('rs:s3cret').toString('base64')}`;
        res.writeHead(authorized ? 200 : 401, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            token === 'good'
              ? {
                  active: true,
                  sub: 'carol',
                  client_id: 'c',
                  scope: 'mcp',
                  aud: 'http://h/mcp',
                  exp: Math.floor(Date.now() / 1000) + 60,
                }
              : token === 'refresh'
                ? { active: true, sub: 'carol', client_id: 'c', token_type: 'refresh_token' }
                : token === 'elsewhere'
                  ? { active: true, sub: 'carol', scope: 'mcp', aud: 'http://other/mcp' }
                  : { active: false },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => as.listen(0, '127.0.0.1', resolve));
    asUrl = `http://127.0.0.1:${(as.address() as AddressInfo).port}/introspect`;
  });
  afterAll(() => new Promise((resolve) => as.close(resolve)));

  const rs = () =>
    new ResourceServer({
      resource: 'http://h/mcp',
      issuer: AS,
      introspection: { url: asUrl, clientId: 'rs', clientSecret: 's3cret' },
    });

  it('accepts an active token for this resource, and keeps the answer a while', async () => {
    const server = rs();
    const before = calls;
    const first = await server.authenticate({ authorization: 'Bearer good' });
    expect(first).toMatchObject({ auth: { subject: 'carol', clientId: 'c', scopes: ['mcp'] } });
    await server.authenticate({ authorization: 'Bearer good' });
    expect(calls - before).toBe(1);
  });

  it('refuses an inactive token and one for another audience', async () => {
    const server = rs();
    for (const token of ['nope', 'elsewhere']) {
      const out = await server.authenticate({ authorization: `Bearer ${token}` });
      expect(out).toMatchObject({ refused: { status: 401 } });
    }
  });

  it('answers 503 when introspection fails', async () => {
    const server = new ResourceServer({
      resource: 'http://h/mcp',
      issuer: AS,
      introspection: { url: asUrl, clientId: 'rs', clientSecret: 'wrong' },
    });
    const out = await server.authenticate({ authorization: 'Bearer good' });
    expect(out).toMatchObject({ refused: { status: 503 } });
  });

  const introspector = (extra: Record<string, number> = {}) =>
    new Introspector(
      { url: asUrl, clientId: 'rs', clientSecret: 's3cret', ...extra },
      AS,
      () => 'http://h/mcp',
    );

  it('asks once for the same token checked at once', async () => {
    const check = introspector();
    const before = calls;
    const all = await Promise.all([1, 2, 3, 4, 5].map(() => check.verify('good')));
    expect(all.map((a) => a.subject)).toEqual(['carol', 'carol', 'carol', 'carol', 'carol']);
    expect(calls - before).toBe(1);
  });

  it('caps the calls under way: past the cap, 503 rather than one more call', async () => {
    const check = introspector({ maxConcurrent: 1 });
    const [first, second] = await Promise.allSettled([check.verify('good'), check.verify('x1')]);
    expect(first.status).toBe('fulfilled');
    expect((second as PromiseRejectedResult).reason).toBeInstanceOf(TokenUnverifiable);
  });

  it('keeps inactive answers apart: bad tokens never push a valid one out', async () => {
    const check = introspector({ maxCached: 2, maxCachedInactive: 1 });
    await check.verify('good');
    const before = calls;
    for (const bad of ['b1', 'b2', 'b3', 'b4'])
      await expect(check.verify(bad)).rejects.toBeInstanceOf(TokenRejected);
    await check.verify('good');
    expect(calls - before).toBe(4);
  });

  it('refuses an active answer for a refresh token', async () => {
    await expect(introspector().verify('refresh')).rejects.toBeInstanceOf(TokenRejected);
  });
});
