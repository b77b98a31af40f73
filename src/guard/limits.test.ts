import { execFileSync } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { McpKitError } from '../errors/index.js';
import { createGuard, guardedFetch } from './guarded-fetch.js';
import { GuardError } from './guard-error.js';

// Size, time and cancellation, against servers on 127.0.0.1 only.
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const open: Server[] = [];

async function listen(handler: Handler, server: Server = createServer()): Promise<string> {
  server.on('request', handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const server of open.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const allow = ['127.0.0.1'];

async function failure(promise: Promise<unknown>): Promise<McpKitError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpKitError);
  return error as McpKitError;
}

/** Writes `chunks` chunks of 1 KiB without a Content-Length; reports on the latest request. */
function chunked(chunks: number) {
  const state = { closedEarly: false, sent: 0 };
  const handler: Handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.on('close', () => (state.closedEarly = !res.writableFinished));
    state.sent = 0;
    const tick = () => {
      if (res.destroyed) return;
      if (state.sent === chunks) return void res.end();
      state.sent += 1;
      res.write(Buffer.alloc(1024, 7), () => setTimeout(tick, 1));
    };
    tick();
  };
  return { state, handler };
}

describe('the size cap', () => {
  it('refuses on Content-Length before reading the body', async () => {
    const origin = await listen((_req, res) =>
      res.writeHead(200, { 'content-length': '2000' }).end(Buffer.alloc(2000)),
    );
    const error = await failure(guardedFetch(origin, { allow, maxBytes: 1000 }));
    expect(error.code).toBe('GUARD_TOO_LARGE');
    expect(error.message).toContain('Content-Length says 2000');
  });

  it('counts bytes without Content-Length and cuts the body off (socket closed)', async () => {
    const { state, handler } = chunked(1000);
    const origin = await listen(handler);
    const error = await failure(guardedFetch(origin, { allow, maxBytes: 8 * 1024 }));
    expect(error.code).toBe('GUARD_TOO_LARGE');
    expect(error.message).toContain('cut off');
    await expect.poll(() => state.closedEarly).toBe(true);
    expect(state.sent).toBeLessThan(1000);
  });

  it('takes a body of exactly maxBytes, and a call can lower the cap but not raise it', async () => {
    const { handler } = chunked(4);
    const origin = await listen(handler);
    const guard = createGuard({ allow, maxBytes: 4096 });
    expect((await guard.fetch(origin)).bytes.length).toBe(4096);
    expect((await failure(guard.fetch(origin, { maxBytes: 4095 }))).code).toBe('GUARD_TOO_LARGE');
    const raised = await guard.fetch(origin, { maxBytes: 1 << 20 });
    expect(raised.bytes.length).toBe(4096);
    await expect(guard.fetch(origin, { maxBytes: -1 })).rejects.toThrow(RangeError);
  });

  it('caps decoded bytes: gzip and br are undone, a compression bomb is cut off', async () => {
    const small = gzipSync(Buffer.from('hello, gzip'));
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024));
    const origin = await listen((req, res) => {
      const body =
        req.url === '/bomb' ? bomb : req.url === '/br' ? brotliCompressSync('hi br') : small;
      const encoding = req.url === '/br' ? 'br' : 'gzip';
      res.writeHead(200, { 'content-encoding': encoding, 'content-length': body.length }).end(body);
    });
    const guard = createGuard({ allow, maxBytes: 64 * 1024 });
    expect(new TextDecoder().decode((await guard.fetch(`${origin}/`)).bytes)).toBe('hello, gzip');
    expect(new TextDecoder().decode((await guard.fetch(`${origin}/br`)).bytes)).toBe('hi br');
    expect(bomb.length).toBeLessThan(64 * 1024);
    const cut = await failure(guard.fetch(`${origin}/bomb`));
    expect(cut.message).toContain('cut off');
    expect(cut.code).toBe('GUARD_TOO_LARGE');
  });

  it('deflate: zlib-wrapped and raw are both undone, a bomb in either is cut off', async () => {
    const bodies: Record<string, Buffer> = {
      '/zlib': deflateSync('hello, zlib deflate'),
      '/raw': deflateRawSync('hello, raw deflate'),
      '/zlib-bomb': deflateSync(Buffer.alloc(4 * 1024 * 1024)),
      '/raw-bomb': deflateRawSync(Buffer.alloc(4 * 1024 * 1024)),
      '/garbage': Buffer.from('this is not deflate at all'),
      '/empty': Buffer.alloc(0),
    };
    const origin = await listen((req, res) => {
      const body = bodies[req.url ?? ''] ?? Buffer.alloc(0);
      // Sent a byte at a time for the small ones: the header may arrive split.
      res.writeHead(200, { 'content-encoding': 'deflate' });
      if (body.length > 64) {
        res.end(body);
        return;
      }
      let at = 0;
      const next = (): void => {
        if (at >= body.length) res.end();
        else res.write(body.subarray(at, ++at), next);
      };
      next();
    });
    const guard = createGuard({ allow, maxBytes: 64 * 1024 });
    const text = async (path: string) =>
      new TextDecoder().decode((await guard.fetch(`${origin}${path}`)).bytes);
    expect(await text('/zlib')).toBe('hello, zlib deflate');
    expect(await text('/raw')).toBe('hello, raw deflate');
    for (const bomb of ['/zlib-bomb', '/raw-bomb']) {
      expect(bodies[bomb]?.length).toBeLessThan(64 * 1024);
      const cut = await failure(guard.fetch(`${origin}${bomb}`));
      expect(cut.code).toBe('GUARD_TOO_LARGE');
      expect(cut.message).toContain('cut off');
    }
    const garbage = await failure(guard.fetch(`${origin}/garbage`));
    expect(garbage.code).toBe('FETCH_FAILED');
    expect(garbage.message).toContain('neither zlib-wrapped nor raw DEFLATE');
    expect((await failure(guard.fetch(`${origin}/empty`))).code).toBe('FETCH_FAILED');
  });

  it('fails on a content coding it cannot decode, and on a body shorter than announced', async () => {
    const origin = await listen((req, res) => {
      if (req.url === '/zstd') res.writeHead(200, { 'content-encoding': 'zstd' }).end('x');
      else {
        res.writeHead(200, { 'content-length': '100' });
        res.write('only ten b', () => res.destroy());
      }
    });
    const zstd = await failure(guardedFetch(`${origin}/zstd`, { allow }));
    expect(zstd.code).toBe('FETCH_FAILED');
    expect(zstd.message).toContain('"zstd"');
    expect((await failure(guardedFetch(`${origin}/short`, { allow }))).code).toBe('FETCH_FAILED');
  });
});

describe('the time limit covers the whole chain', () => {
  it('times out a body that stalls (GUARD_TIMEOUT) and closes the socket', async () => {
    let closed = false;
    const origin = await listen((_req, res) => {
      res.writeHead(200, { 'content-length': '10' }).write('12345');
      res.on('close', () => (closed = true));
    });
    const started = Date.now();
    const error = await failure(guardedFetch(origin, { allow, timeoutMs: 200 }));
    expect(error.code).toBe('GUARD_TIMEOUT');
    expect(error.message).toContain('200 ms');
    expect(Date.now() - started).toBeLessThan(2000);
    await expect.poll(() => closed).toBe(true);
  });

  it('counts every hop against one deadline', async () => {
    // Each hop answers after 120 ms: each is under the limit, the chain of three is not.
    const origin = await listen((req, res) => {
      const n = Number(req.url?.slice(1));
      setTimeout(() => {
        if (n === 0) res.writeHead(200).end('done');
        else res.writeHead(302, { location: `/${n - 1}` }).end();
      }, 120);
    });
    const guard = createGuard({ allow, timeoutMs: 300 });
    expect((await guard.fetch(`${origin}/1`)).status).toBe(200);
    const error = await failure(guard.fetch(`${origin}/3`));
    expect(error.code).toBe('GUARD_TIMEOUT');
  });
});

describe('cancellation', () => {
  it('stops on the call signal or the guard signal, and leaves no listener behind', async () => {
    const origin = await listen(() => {}); // never answers
    const guardSignal = new AbortController();
    const guard = createGuard({ allow, signal: guardSignal.signal });
    const call = new AbortController();
    const pending = guard.fetch(origin, { signal: call.signal });
    setTimeout(() => call.abort(), 50);
    const error = await failure(pending);
    expect(error.code).toBe('REQUEST_CANCELLED');
    expect(getEventListeners(guardSignal.signal, 'abort')).toHaveLength(0);

    const again = guard.fetch(origin);
    setTimeout(() => guardSignal.abort(), 50);
    expect((await failure(again)).code).toBe('REQUEST_CANCELLED');
    expect((await failure(guard.fetch(origin))).code).toBe('REQUEST_CANCELLED');
  });

  it("passes an McpKitError reason through as it is (the caller's own deadline)", async () => {
    const origin = await listen(() => {});
    const reason = new McpKitError('REQUEST_TIMEOUT', 'turn over');
    const pending = guardedFetch(origin, { allow, signal: AbortSignal.abort(reason) });
    expect(await failure(pending)).toBe(reason);
  });
});

// A certificate for public.test, made with openssl when the machine has it.
function selfSigned(): { key: Buffer; cert: Buffer } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'guard-tls-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=public.test',
      '-addext', 'subjectAltName=DNS:public.test',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' }); // prettier-ignore
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('https', () => {
  const pair = selfSigned();

  it.skipIf(pair === undefined)(
    'sends the URL name as SNI to the checked address and verifies the certificate',
    async () => {
      const names: string[] = [];
      const server = createTlsServer({
        ...pair!,
        SNICallback: (name, done) => {
          names.push(name);
          done(null);
        },
      });
      const origin = await listen((_req, res) => res.end('secret'), server);
      const port = new URL(origin).port;
      const lookup = async () => [{ address: '127.0.0.1', family: 4 as const }];
      const error = await failure(guardedFetch(`https://public.test:${port}/`, { allow, lookup }));
      expect(error).toBeInstanceOf(GuardError);
      expect(error.code).toBe('FETCH_FAILED');
      expect(error.message).toMatch(/self[- ]signed/);
      expect(names).toEqual(['public.test']);
    },
  );
});
