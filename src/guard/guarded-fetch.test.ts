import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createGuard, guardedFetch } from './guarded-fetch.js';
import { GuardError } from './guard-error.js';
import type { GuardLookup } from './options.js';

// Servers on 127.0.0.1 and 127.0.0.2 only; names resolve through stubs, never through DNS.
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface TestServer {
  port: number;
  origin: string;
  hits: Array<{ url: string; headers: IncomingMessage['headers'] }>;
}
const open: Server[] = [];

async function listen(host: string, handler: Handler, port = 0): Promise<TestServer> {
  const hits: TestServer['hits'] = [];
  const server = createServer((req, res) => {
    hits.push({ url: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  open.push(server);
  const bound = (server.address() as AddressInfo).port;
  return { port: bound, origin: `http://${host}:${bound}`, hits };
}

afterEach(async () => {
  for (const server of open.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function text(body: string, type = 'text/plain; charset=utf-8'): Handler {
  return (_req, res) => res.writeHead(200, { 'content-type': type }).end(body);
}

function stub(answers: (hostname: string, call: number) => string[]) {
  const calls: string[] = [];
  const lookup: GuardLookup = async (hostname) => {
    calls.push(hostname);
    return answers(hostname, calls.length).map((address) => ({ address, family: 4 as const }));
  };
  return { lookup, calls };
}

async function failure(promise: Promise<unknown>): Promise<GuardError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GuardError);
  return error as GuardError;
}

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('guardedFetch against 127.0.0.1', () => {
  it('refuses loopback unless the allow-list names it; nothing is sent when refused', async () => {
    const server = await listen('127.0.0.1', text('hello'));
    const error = await failure(guardedFetch(`${server.origin}/doc`));
    expect(error.code).toBe('GUARD_BLOCKED');
    expect(error.message).toContain('127.0.0.1 is loopback');
    expect(server.hits).toEqual([]);

    const got = await guardedFetch(`${server.origin}/doc?x=1#frag`, { allow: ['127.0.0.1'] });
    expect(got).toMatchObject({
      url: `${server.origin}/doc?x=1#frag`,
      status: 200,
      mimeType: 'text/plain',
      redirects: [],
      address: '127.0.0.1',
    });
    expect(got.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(decode(got.bytes)).toBe('hello');
    expect(got.bytes).toBeInstanceOf(Uint8Array);
    expect(server.hits.map((h) => h.url)).toEqual(['/doc?x=1']);
  });

  it('sends GET with the given headers, and a Host header naming the URL host', async () => {
    const server = await listen('127.0.0.1', text('ok'));
    await createGuard({ allow: ['127.0.0.1'], headers: { 'X-Token': 'abc' } }).fetch(server.origin);
    expect(server.hits[0]?.headers).toMatchObject({
      host: `127.0.0.1:${server.port}`,
      'x-token': 'abc',
      accept: '*/*',
    });
  });

  it('fails with FETCH_FAILED naming the status on a non-2xx answer', async () => {
    const server = await listen('127.0.0.1', (req, res) => {
      if (req.url === '/moved') res.writeHead(302).end();
      else res.writeHead(404).end('no');
    });
    const guard = createGuard({ allow: ['127.0.0.1'] });
    const missing = await failure(guard.fetch(`${server.origin}/x`));
    expect(missing.code).toBe('FETCH_FAILED');
    expect(missing.message).toContain('404 Not Found');
    expect(missing.details).toMatchObject({ status: 404, address: '127.0.0.1' });
    // A redirect status without Location is an answer, not a hop.
    expect((await failure(guard.fetch(`${server.origin}/moved`))).details.status).toBe(302);
  });

  it('fails with FETCH_FAILED when nothing listens', async () => {
    const server = await listen('127.0.0.1', text(''));
    const closed = open.pop()!;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(guardedFetch(server.origin, { allow: ['127.0.0.1'] }));
    expect(error.code).toBe('FETCH_FAILED');
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('connecting to the checked address', () => {
  it('resolves public.test once through the stub and connects to that address', async () => {
    const server = await listen('127.0.0.1', text('via name'));
    const { lookup, calls } = stub(() => ['127.0.0.1']);
    const url = `http://public.test:${server.port}/a`;

    const refused = await failure(guardedFetch(url, { lookup }));
    expect(refused.code).toBe('GUARD_BLOCKED');
    expect(refused.message).toContain('"public.test" resolves to 127.0.0.1, which is loopback');
    expect(server.hits).toEqual([]);

    const got = await guardedFetch(url, { lookup, allow: ['127.0.0.1'] });
    expect(decode(got.bytes)).toBe('via name');
    expect(got.address).toBe('127.0.0.1');
    expect(server.hits[0]?.headers.host).toBe(`public.test:${server.port}`);
    expect(calls).toEqual(['public.test', 'public.test']); // one lookup per fetch, none by net

    const byName = await guardedFetch(url, { lookup, allow: ['public.test'] });
    expect(byName.status).toBe(200);
  });

  it('is not fooled by DNS rebinding: the second answer is never asked for', async () => {
    // Two servers on one port: 127.0.0.2 stands for the public address the first answer gives,
    // 127.0.0.1 for the internal one a second lookup would give.
    const checked = await listen('127.0.0.2', text('checked'));
    const internal = await listen('127.0.0.1', text('internal'), checked.port);
    const { lookup, calls } = stub((_name, call) => (call === 1 ? ['127.0.0.2'] : ['127.0.0.1']));
    const got = await guardedFetch(`http://rebind.test:${checked.port}/`, {
      lookup,
      allow: ['127.0.0.2'],
    });
    expect(decode(got.bytes)).toBe('checked');
    expect(got.address).toBe('127.0.0.2');
    expect(calls).toEqual(['rebind.test']);
    expect(internal.hits).toEqual([]);
  });
});

describe('redirects', () => {
  it('checks every hop: a chain into 127.0.0.2 is refused unless allowed', async () => {
    const target = await listen('127.0.0.2', text('inside'));
    const start = await listen('127.0.0.1', (req, res) => {
      if (req.url === '/start') res.writeHead(302, { location: '/hop' }).end();
      else res.writeHead(301, { location: `${target.origin}/end` }).end();
    });
    const refused = await failure(guardedFetch(`${start.origin}/start`, { allow: ['127.0.0.1'] }));
    expect(refused.code).toBe('GUARD_BLOCKED');
    expect(refused.details).toMatchObject({ address: '127.0.0.2', reason: 'loopback' });
    expect(refused.message).toContain(`redirect 2, from "${start.origin}/hop"`);
    expect(target.hits).toEqual([]);

    const got = await guardedFetch(`${start.origin}/start`, {
      allow: ['127.0.0.1', '127.0.0.2'],
    });
    expect(got.url).toBe(`${target.origin}/end`);
    expect(got.redirects).toEqual([`${start.origin}/hop`, `${target.origin}/end`]);
    expect(got.address).toBe('127.0.0.2');
    expect(decode(got.bytes)).toBe('inside');
  });

  it('looks each hop up on its own', async () => {
    const b = await listen('127.0.0.2', text('b'));
    const a = await listen('127.0.0.1', (_req, res) =>
      res.writeHead(307, { location: `http://b.test:${b.port}/` }).end(),
    );
    const { lookup, calls } = stub((name) => (name === 'a.test' ? ['127.0.0.1'] : ['127.0.0.2']));
    const got = await guardedFetch(`http://a.test:${a.port}/`, {
      lookup,
      allow: ['127.0.0.0/8'],
    });
    expect(decode(got.bytes)).toBe('b');
    expect(calls).toEqual(['a.test', 'b.test']);
  });

  it.each([301, 302, 303, 307, 308])('follows %i with GET', async (status) => {
    const methods: string[] = [];
    const server = await listen('127.0.0.1', (req, res) => {
      methods.push(req.method ?? '');
      if (req.url === '/') res.writeHead(status, { location: '/next' }).end();
      else text('next')(req, res);
    });
    const got = await guardedFetch(`${server.origin}/`, { allow: ['127.0.0.1'] });
    expect(decode(got.bytes)).toBe('next');
    expect(methods).toEqual(['GET', 'GET']);
  });

  it('caps the number of redirects (GUARD_REDIRECT_LIMIT)', async () => {
    // /r/N redirects to /r/N-1; /r/0 answers.
    const server = await listen('127.0.0.1', (req, res) => {
      const n = Number(req.url?.split('/')[2]);
      if (n === 0) text('done')(req, res);
      else res.writeHead(302, { location: `/r/${n - 1}` }).end();
    });
    const guard = createGuard({ allow: ['127.0.0.1'], maxRedirects: 3 });
    expect((await guard.fetch(`${server.origin}/r/3`)).redirects).toHaveLength(3);
    const over = await failure(guard.fetch(`${server.origin}/r/4`));
    expect(over.code).toBe('GUARD_REDIRECT_LIMIT');
    expect(over.message).toContain('more than 3 time(s)');
    const none = createGuard({ allow: ['127.0.0.1'], maxRedirects: 0 });
    expect((await failure(none.fetch(`${server.origin}/r/1`))).code).toBe('GUARD_REDIRECT_LIMIT');
  });

  it.each([
    ['file:///etc/passwd'],
    ['gopher://127.0.0.1:70/_x'],
    ['http://user:secret@127.0.0.1/'],
    ['http://[bad/'],
  ])('refuses a redirect to %s (GUARD_BAD_URL)', async (location) => {
    const server = await listen('127.0.0.1', (_req, res) => res.writeHead(302, { location }).end());
    const error = await failure(guardedFetch(server.origin, { allow: ['127.0.0.1'] }));
    expect(error.code).toBe('GUARD_BAD_URL');
    expect(error.message).toContain('redirect 1');
    expect(server.hits).toHaveLength(1);
  });

  it('drops authorization and cookie headers when a redirect leaves the origin', async () => {
    const other = await listen('127.0.0.2', text('other'));
    const start = await listen('127.0.0.1', (req, res) => {
      if (req.url === '/') res.writeHead(302, { location: '/same' }).end();
      else res.writeHead(302, { location: `${other.origin}/` }).end();
    });
    const headers = { authorization: 'Bearer t', cookie: 'a=b', 'x-keep': '1' };
    await guardedFetch(`${start.origin}/`, { allow: ['127.0.0.0/8'], headers });
    expect(start.hits[1]?.headers).toMatchObject({ authorization: 'Bearer t', cookie: 'a=b' });
    expect(other.hits[0]?.headers.authorization).toBeUndefined();
    expect(other.hits[0]?.headers.cookie).toBeUndefined();
    expect(other.hits[0]?.headers['x-keep']).toBe('1');
  });
});
