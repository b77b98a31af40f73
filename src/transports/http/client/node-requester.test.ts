import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../../../testing/sse.js';
import { Abort } from './client-abort.js';
import { resolveClientOptions } from './client-options.js';
import { FetchRequester, type HttpRequest, type HttpRequester } from './client-requester.js';
import { NodeRequester, nodeModules } from './node-requester.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Served {
  url: string;
  /** Connections opened, and how many of them closed. */
  sockets: Socket[];
  closed: () => number;
  seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
}

const servers: Server[] = [];
const requesters: HttpRequester[] = [];

afterEach(async () => {
  for (const requester of requesters.splice(0)) requester.close();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function serve(handler: Handler): Promise<Served> {
  const sockets: Socket[] = [];
  let closed = 0;
  const seen: Served['seen'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.push(socket);
    socket.on('close', () => closed++);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, sockets, closed: () => closed, seen };
}

const node = (): NodeRequester => {
  const modules = nodeModules();
  if (!modules) throw new Error('this test needs Node.js >= 20.16');
  const requester = new NodeRequester(modules);
  requesters.push(requester);
  return requester;
};
const fetchRequester = (): FetchRequester => new FetchRequester(globalThis.fetch);

const request = (url: string, more: Partial<HttpRequest> = {}): HttpRequest => ({
  method: 'GET',
  url: new URL(url),
  headers: {},
  signal: new Abort(),
  ...more,
});

async function readAll(answer: { read(): Promise<Uint8Array | undefined> }): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const chunk = await answer.read();
    if (chunk === undefined) return text + decoder.decode();
    text += decoder.decode(chunk, { stream: true });
  }
}

describe.each([
  ['node', node],
  ['fetch', fetchRequester],
] as const)('requester %s', (_name, make) => {
  it('sends method, path, query, headers and body; gives status, headers and body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(201, 'Made', [
        ['content-type', 'application/json'],
        ['x-many', 'a'],
        ['x-many', 'b'],
      ]);
      res.end('{"ok":true}');
    });
    const answer = await make().request(
      request(`${server.url}?q=1#frag`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-extra': 'é1' },
        body: '{"hé":1}',
      }),
    );
    expect([answer.status, answer.statusText]).toEqual([201, 'Made']);
    expect(answer.header('content-type')).toBe('application/json');
    expect(answer.header('x-many')).toBe('a, b');
    expect(answer.header('x-none')).toBeNull();
    expect(await answer.readText(1000)).toBe('{"ok":true}');
    const [seen] = server.seen;
    expect(seen).toMatchObject({ method: 'POST', url: '/mcp?q=1', body: '{"hé":1}' });
    expect(seen?.headers['content-length']).toBe(String(Buffer.byteLength('{"hé":1}')));
    expect(seen?.headers['x-extra']).toBe('é1');
  });

  it('reads a body in chunks as they arrive, and many chunks whole with readText', async () => {
    let more: (() => void) | undefined;
    const server = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      if (req.url === '/mcp?whole') {
        res.write('\ufeffone ');
        setTimeout(() => res.write('two '), 5);
        return void setTimeout(() => res.end('three'), 10);
      }
      res.write('first');
      more = () => res.end('second');
    });
    const requester = make();
    const streamed = await requester.request(request(server.url));
    expect(new TextDecoder().decode(await streamed.read())).toBe('first');
    more?.();
    expect(await readAll(streamed)).toBe('second');
    expect(await streamed.read()).toBeUndefined();
    const whole = await requester.request(request(`${server.url}?whole`));
    expect(await whole.readText(100)).toBe('one two three');
  });

  it('readText stops past the cap: undefined, and the connection closes', async () => {
    let carrier: Socket | undefined;
    const server = await serve((req, res) => {
      carrier = req.socket;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('x'.repeat(5000)); // and never ends
    });
    const answer = await make().request(request(server.url));
    expect(await answer.readText(4096)).toBeUndefined();
    // The connection that carried the body, not a count: fetch may open a spare connection
    // (Node 24's closes it too).
    await until(() => carrier?.destroyed === true, 'the socket to close');
  });

  it('cancel of an unfinished body closes its connection; a finished one is kept', async () => {
    const server = await serve((req, res) => {
      res.writeHead(200);
      if (req.url === '/mcp?done') return void res.end('all');
      res.write('part');
    });
    const requester = make();
    const done = await requester.request(request(`${server.url}?done`));
    await new Promise((r) => setTimeout(r, 20));
    await done.cancel();
    await new Promise((r) => setTimeout(r, 20));
    await requester.request(request(`${server.url}?done`)).then((a) => a.readText(10));
    expect(server.sockets).toHaveLength(1);
    const part = await requester.request(request(server.url));
    expect(new TextDecoder().decode(await part.read())).toBe('part');
    await part.cancel();
    await until(() => server.closed() === 1, 'the socket to close');
  });

  it('an abort rejects the pending request, or the next read, with its reason', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/mcp?body') {
        res.writeHead(200);
        res.write('some');
      }
    });
    const requester = make();
    const waiting = new Abort();
    const pending = requester.request(request(server.url, { signal: waiting }));
    await until(() => server.seen.length === 1, 'the request');
    waiting.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    const reading = new Abort();
    const answer = await requester.request(request(`${server.url}?body`, { signal: reading }));
    await answer.read();
    const next = answer.read();
    reading.abort();
    await expect(next).rejects.toMatchObject({ name: 'AbortError' });
    await until(() => server.closed() === 2, 'both sockets to close');
    const early = new Abort();
    early.abort(new Error('before'));
    await expect(requester.request(request(server.url, { signal: early }))).rejects.toThrow(
      'before',
    );
  });

  it('a body cut by the server rejects the read; a refused connection rejects', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('short');
      setTimeout(() => res.destroy(), 10);
    });
    const answer = await make().request(request(server.url));
    await expect(readAll(answer)).rejects.toBeInstanceOf(Error);
    const gone = await serve(() => undefined);
    servers.pop()?.close();
    await new Promise((r) => setTimeout(r, 10));
    const refused = make().request(request(gone.url));
    await expect(refused).rejects.toBeInstanceOf(Error);
  });

  it('decodes a gzip body, as fetch does, the cap counting decoded bytes', async () => {
    const bomb = gzipSync(Buffer.alloc(1 << 20));
    const server = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(req.url === '/mcp?bomb' ? bomb : gzipSync('{"zipped":true}'));
    });
    const requester = make();
    expect(await (await requester.request(request(server.url))).readText(100)).toBe(
      '{"zipped":true}',
    );
    expect(await readAll(await requester.request(request(server.url)))).toBe('{"zipped":true}');
    // A few KiB on the wire (Content-Length), 1 MiB decoded: past a 64 KiB cap.
    const answer = await requester.request(request(`${server.url}?bomb`));
    expect(Number(answer.header('content-length'))).toBeLessThan(64 * 1024);
    expect(await answer.readText(64 * 1024)).toBeUndefined();
  });
});

describe('NodeRequester', () => {
  it('keeps one connection alive across requests, and drops it on close()', async () => {
    const server = await serve((_req, res) => res.end('ok'));
    const requester = node();
    for (let i = 0; i < 3; i++) {
      expect(await (await requester.request(request(server.url))).readText(10)).toBe('ok');
    }
    expect(server.sockets).toHaveLength(1);
    requester.close();
    await until(() => server.closed() === 1, 'the idle socket to close');
    expect(await (await requester.request(request(server.url))).readText(10)).toBe('ok');
    expect(server.sockets).toHaveLength(2);
  });

  it('gives up a connection silent for idleTimeoutMs', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200);
      res.write('then nothing');
    });
    const modules = nodeModules();
    if (!modules) throw new Error('this test needs Node.js >= 20.16');
    const requester = new NodeRequester(modules, { idleTimeoutMs: 50 });
    requesters.push(requester);
    const answer = await requester.request(request(server.url));
    await expect(readAll(answer)).rejects.toThrow(/no data from the server for 0.05 s/);
  });

  it('refuses a URL with credentials, as fetch does', async () => {
    await expect(node().request(request('http://u:p@127.0.0.1:9/mcp'))).rejects.toThrow(
      /includes credentials/,
    );
  });
});

describe('choosing the requester', () => {
  const url = 'http://127.0.0.1:9/mcp';
  it("takes node:http on Node unless fetch is given or 'fetch' is asked for", () => {
    expect(resolveClientOptions({ url }).requester).toBeInstanceOf(NodeRequester);
    expect(resolveClientOptions({ url, requester: 'node' }).requester).toBeInstanceOf(
      NodeRequester,
    );
    expect(resolveClientOptions({ url, requester: 'fetch' }).requester).toBeInstanceOf(
      FetchRequester,
    );
    const fetch = globalThis.fetch;
    expect(resolveClientOptions({ url, fetch }).requester).toBeInstanceOf(FetchRequester);
  });

  it('refuses a contradiction or an unknown choice', () => {
    const fetch = globalThis.fetch;
    expect(() => resolveClientOptions({ url, fetch, requester: 'node' })).toThrow(/drop one/);
    expect(() => resolveClientOptions({ url, requester: 'curl' as 'node' })).toThrow(
      /'auto', 'fetch' or 'node'/,
    );
  });
});
