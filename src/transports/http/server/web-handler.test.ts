import { afterAll, describe, expect, it, vi } from 'vitest';
import { initializeRequest, legacy, modern } from '../../../testing/messages.js';
import { SseReader, until } from '../../../testing/sse.js';
import { createE2eServer } from '../../../testing/e2e-server.js';
import type { Peer } from '../../../server/transport.js';
import { createServer } from '../../../server/server.js';
import { createHttpHandler } from './web-handler.js';

const URL_ = 'http://127.0.0.1/mcp';
const MAX_BODY = 1024;
const aborted: string[] = [];
const late = new Map<string, boolean>();
const server = createE2eServer({
  onAbort: (tag) => aborted.push(tag),
  onLate: (tag, was) => late.set(tag, was),
});
const handle = createHttpHandler(server, { maxBodyBytes: MAX_BODY });

afterAll(() => {
  handle.close();
  server.close();
});

type Json = Record<string, unknown>;
type RpcError = { id: unknown; error: { code: number; message: string; data?: unknown } };

function headersFor(
  body: unknown,
  patch: Record<string, string | null> = {},
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
  };
  const m = body as { method?: unknown; params?: Json } | null;
  if (typeof m?.method === 'string') headers['mcp-method'] = m.method;
  if (m?.method === 'tools/call') headers['mcp-name'] = String(m.params?.['name']);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete headers[k];
    else headers[k] = v;
  }
  return headers;
}

const post = (body: unknown, patch: Record<string, string | null> = {}, init: RequestInit = {}) =>
  handle(
    new Request(URL_, {
      method: 'POST',
      headers: headersFor(typeof body === 'string' ? null : body, patch),
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...init,
    }),
  );

const call = (name: string, args: Json, meta: Json = {}) =>
  modern('tools/call', { name, arguments: args, _meta: meta });

describe('createHttpHandler (web-standard Request -> Response)', () => {
  it.each([
    {
      name: 'malformed JSON',
      send: () => post('{"a":'),
      status: 400,
      code: -32700,
      message: /^Parse error/,
    },
    {
      name: 'a body over maxBodyBytes (declared length)',
      send: () => post(call('echo', { text: 'x'.repeat(MAX_BODY) })),
      status: 413,
      code: -32600,
      message: new RegExp(`exceeds ${MAX_BODY} bytes \\(maxBodyBytes\\)`),
    },
    {
      name: 'a body over maxBodyBytes (streamed, no length)',
      send: () => {
        const bytes = new TextEncoder().encode(
          JSON.stringify(call('echo', { text: 'x'.repeat(4 * MAX_BODY) })),
        );
        const body = new ReadableStream<Uint8Array>({
          start(c) {
            for (let at = 0; at < bytes.length; at += 512) c.enqueue(bytes.subarray(at, at + 512));
            c.close();
          },
        });
        return post('', {}, { body, duplex: 'half' } as RequestInit);
      },
      status: 413,
      code: -32600,
      message: /maxBodyBytes/,
    },
    {
      name: 'a wrong Content-Type',
      send: () => post(modern('tools/list'), { 'content-type': 'text/plain' }),
      status: 415,
      code: -32600,
      message: /Content-Type/,
    },
    {
      name: 'an Accept with neither JSON nor SSE',
      send: () => post(modern('tools/list'), { accept: 'text/html' }),
      status: 406,
      code: -32600,
      message: /Accept/,
    },
    {
      name: 'GET without a session',
      send: () => handle(new Request(URL_)),
      status: 405,
      code: -32600,
      message: /POST only/,
    },
    {
      name: 'PUT',
      send: () => handle(new Request(URL_, { method: 'PUT', body: '{}' })),
      status: 405,
      code: -32600,
      message: /PUT not allowed/,
    },
    {
      name: 'another path',
      send: () => handle(new Request('http://127.0.0.1/other', { method: 'POST' })),
      status: 404,
      code: -32600,
      message: /\/mcp/,
    },
    {
      name: 'a foreign Origin',
      send: () => post(modern('tools/list'), { origin: 'https://evil.example' }),
      status: 403,
      code: -32600,
      message: /Origin "https:\/\/evil\.example" is not allowed/,
    },
    {
      name: 'a foreign Host',
      send: () => post(modern('tools/list'), { host: 'evil.example' }),
      status: 403,
      code: -32600,
      message: /Host "evil\.example" is not allowed/,
    },
    {
      name: 'an unknown method',
      send: () => post(modern('nope/nope')),
      status: 404,
      code: -32601,
      message: /nope\/nope/,
    },
    {
      name: 'a missing _meta',
      send: () => post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      status: 400,
      code: -32602,
      message: /params\._meta/,
    },
    {
      name: 'an Mcp-Name mismatch',
      send: () => post(call('echo', { text: 'a' }), { 'mcp-name': 'slow' }),
      status: 400,
      code: -32020,
      message: /Mcp-Name/,
    },
    {
      name: 'v999',
      send: () =>
        post(
          modern('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': 'v999' } }),
          { 'mcp-protocol-version': 'v999' },
        ),
      status: 400,
      code: -32022,
      message: /v999/,
    },
    {
      name: 'subscriptions/listen without text/event-stream in Accept',
      send: () =>
        post(modern('subscriptions/listen', { notifications: { toolsListChanged: true } }), {
          accept: 'application/json',
        }),
      status: 406,
      code: -32600,
      message: /subscriptions\/listen.*text\/event-stream/,
    },
  ])('$name -> $status / $code', async ({ send, status, code, message }) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json');
    const json = (await res.json()) as RpcError;
    expect(json.error.code).toBe(code);
    expect(json.error.message).toMatch(message);
  });

  it('answers a notification with 202 and no body', async () => {
    const res = await post({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1 },
    });
    expect(res.status).toBe(202);
    expect(res.body).toBeNull();
  });

  it('answers a plain request with one line of JSON', async () => {
    const req = call('echo', { text: 'web' });
    const res = await post(req);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const text = await res.text();
    expect(text).not.toContain('\n');
    expect(JSON.parse(text)).toMatchObject({
      id: req.id,
      result: { content: [{ type: 'text', text: 'web' }] },
    });
  });

  it('switches to SSE for progress: progress events, then the result, then the stream ends', async () => {
    const req = call('progress', { steps: 2 }, { progressToken: 7 });
    const res = await post(req);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const messages = await new SseReader(res.body).rest();
    expect(messages.map((m) => m['method'] ?? m['id'])).toEqual([
      'notifications/progress',
      'notifications/progress',
      req.id,
    ]);
    expect(messages[1]).toMatchObject({ params: { progressToken: 7, progress: 2, total: 2 } });
  });

  it.each([
    { how: 'the request signal aborts', end: (_r: SseReader, a: AbortController) => a.abort() },
    { how: 'the response body is cancelled', end: (r: SseReader) => r.cancel() },
  ])(
    'subscriptions/listen streams acknowledged + list_changed, and ends when $how',
    async ({ end }) => {
      const baseline = server.listenerCount;
      const req = modern('subscriptions/listen', { notifications: { toolsListChanged: true } });
      const abort = new AbortController();
      const res = await post(req, {}, { signal: abort.signal });
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const events = new SseReader(res.body);
      const tag = { 'io.modelcontextprotocol/subscriptionId': req.id };
      expect(await events.next()).toMatchObject({
        method: 'notifications/subscriptions/acknowledged',
        params: { _meta: tag },
      });
      expect(server.listenerCount).toBe(baseline + 1);
      server.notifyListChanged('tools');
      expect(await events.next()).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: tag },
      });
      await end(events, abort);
      await until(() => server.listenerCount === baseline, 'the listener to be removed');
    },
  );

  it('cancels a slow request when the request signal aborts (client went away)', async () => {
    const req = call('slow', { tag: 'web-cancelled', ms: 5000 });
    const abort = new AbortController();
    const pending = post(req, {}, { signal: abort.signal });
    await until(() => server.isHandling(req.id), 'the slow call to be in flight');
    abort.abort();
    await until(() => aborted.includes('web-cancelled'), 'the slow handler to see the abort');
    await pending.catch(() => undefined);
  });

  it('aborts ctx.signal when the handler first looks at it after the request signal aborted', async () => {
    const req = call('late', { tag: 'web-late', ms: 200 });
    const abort = new AbortController();
    const pending = post(req, {}, { signal: abort.signal });
    await until(() => server.isHandling(req.id), 'the late call to be in flight');
    abort.abort();
    await until(() => late.has('web-late'), 'the late handler to look at its signal');
    expect(late.get('web-late')).toBe(true);
    await pending.catch(() => undefined);
  });

  it('runs a legacy session: initialize -> session id, tools/list, DELETE, then 404', async () => {
    const init = await post(initializeRequest(), { 'mcp-protocol-version': null });
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id');
    expect(session).toBeTruthy();
    const headers = { 'mcp-session-id': session!, 'mcp-protocol-version': '2025-11-25' };
    const list = legacy('tools/list', {});
    const listed = await post(list, headers);
    expect(await listed.json()).toMatchObject({
      id: list.id,
      result: { tools: expect.any(Array) },
    });
    const del = await handle(
      new Request(URL_, { method: 'DELETE', headers: { 'mcp-session-id': session! } }),
    );
    expect(del.status).toBe(200);
    const after = await post(legacy('tools/list', {}), headers);
    expect(after.status).toBe(404);
    expect(((await after.json()) as RpcError).error.message).toMatch(/Session not found/);
  });
});

describe('createHttpHandler: sessions, errors and closing', () => {
  const legacyHeaders = { 'mcp-protocol-version': null, 'mcp-method': null };
  const postTo = (
    h: (r: Request) => Promise<Response>,
    body: unknown,
    patch: Record<string, string | null> = {},
    init: RequestInit = {},
  ) =>
    h(
      new Request(URL_, {
        method: 'POST',
        headers: headersFor(body, patch),
        body: JSON.stringify(body),
        ...init,
      }),
    );

  it('opens no session for an initialize notification (no id), and closes refused ones', async () => {
    const s = createServer({ name: 'w', version: '1' });
    const h = createHttpHandler(s, { maxSessions: 2 });
    const baseline = s.connectionCount;
    const { id: _id, ...notification } = initializeRequest();
    for (let i = 0; i < 5; i++) {
      const res = await postTo(h, notification, legacyHeaders);
      expect(res.status).toBe(202);
    }
    const bad = await postTo(h, legacy('initialize', { protocolVersion: 5 }), legacyHeaders);
    expect(bad.status).toBe(200);
    expect(((await bad.json()) as RpcError).error.code).toBe(-32602);
    // No session was opened: none is named (a client keeping that id would send it again
    // with its next initialize, and get 404 for a session that never existed).
    expect(bad.headers.get('mcp-session-id')).toBeNull();
    expect(s.connectionCount).toBe(baseline);
    h.close();
  });

  it('counts sessions being initialized against maxSessions', async () => {
    const s = createServer({ name: 'w', version: '1' });
    const h = createHttpHandler(s, { maxSessions: 2 });
    const baseline = s.connectionCount;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => postTo(h, initializeRequest(), legacyHeaders)),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 503, 503, 503, 503]);
    expect(s.connectionCount).toBe(baseline + 2);
    h.close(); // the sessions and the stateless peer
    expect(s.connectionCount).toBe(0);
  });

  it('answers JSON-RPC errors of a 2025-11-25 session with HTTP 200 (404 means: no such session)', async () => {
    const s = createServer({ name: 'w', version: '1' });
    const h = createHttpHandler(s);
    const init = await postTo(h, initializeRequest(), legacyHeaders);
    const session = init.headers.get('mcp-session-id')!;
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    for (const [method, code] of [
      ['tasks/list', -32601],
      ['server/discover', -32601],
      ['constructor', -32601],
      ['resources/read', -32602],
    ] as const) {
      const req = legacy(method, {});
      const res = await postTo(h, req, headers);
      expect(res.status, method).toBe(200);
      expect(await res.json()).toMatchObject({ id: req.id, error: { code } });
    }
    const modernUnknown = await postTo(h, modern('tasks/list'));
    expect(modernUnknown.status).toBe(404);
    h.close();
  });

  it('answers a modern request for a prototype member name with -32601 / 404', async () => {
    const s = createServer({ name: 'w', version: '1', onError: () => undefined });
    const h = createHttpHandler(s);
    for (const method of ['constructor', 'toString', '__proto__']) {
      const req = modern(method);
      const res = await postTo(h, req);
      expect(res.status, method).toBe(404);
      expect(await res.json()).toMatchObject({ id: req.id, error: { code: -32601 } });
    }
    h.close();
  });

  it('answers a JSON -32603 for a result that cannot be encoded', async () => {
    const s = createServer({ name: 'w', version: '1' });
    s.tool('bigint', {}, () => ({
      content: [{ type: 'text', text: 'x' }],
      structuredContent: { n: 10n },
    }));
    const h = createHttpHandler(s);
    const req = call('bigint', {});
    const res = await postTo(h, req);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toMatchObject({
      id: req.id,
      error: { code: -32603, message: expect.stringMatching(/could not be encoded/) },
    });
    // Over SSE too (progress first, then the result).
    s.tool('bigint-sse', {}, (_a, ctx) => {
      ctx.progress(1);
      return { content: [{ type: 'text', text: 'x' }], structuredContent: { n: 1n } };
    });
    const req2 = call('bigint-sse', {}, { progressToken: 1 });
    const res2 = await postTo(h, req2);
    const messages = await new SseReader(res2.body).rest();
    expect(messages.at(-1)).toMatchObject({ id: req2.id, error: { code: -32603 } });
    h.close();
  });

  it('drops notifications sent after the response, starting no SSE switch and no timer', async () => {
    const s = createServer({ name: 'w', version: '1' });
    let later: Promise<void> | undefined;
    s.tool('outlives', {}, (_a, ctx) => {
      later = (async () => {
        await new Promise((r) => setTimeout(r, 10));
        ctx.progress(1, 2, 'still working');
        ctx.log('info', 'late log');
      })();
      return 'gave up waiting';
    });
    const live = new Set<unknown>();
    const realSet = globalThis.setInterval;
    const realClear = globalThis.clearInterval;
    const spySet = vi.spyOn(globalThis, 'setInterval').mockImplementation(((
      ...args: Parameters<typeof setInterval>
    ) => {
      const t = realSet(...args);
      live.add(t);
      return t;
    }) as typeof setInterval);
    const spyClear = vi.spyOn(globalThis, 'clearInterval').mockImplementation(((
      t: Parameters<typeof clearInterval>[0],
    ) => {
      live.delete(t);
      realClear(t);
    }) as typeof clearInterval);
    try {
      const h = createHttpHandler(s, { keepAliveMs: 5 });
      const req = call('outlives', {}, { progressToken: 'p' });
      const res = await postTo(h, req);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toMatchObject({ id: req.id, result: expect.any(Object) });
      await later;
      expect(live.size).toBe(0);
      h.close();
    } finally {
      spySet.mockRestore();
      spyClear.mockRestore();
      for (const t of live) realClear(t as never);
    }
  });

  it('does not keep a close handler per GET stream a legacy client reopened', async () => {
    const s = createServer({ name: 'w', version: '1' });
    const h = createHttpHandler(s);
    // Every connection after the handler's own stateless one is a session's.
    const connect = s.connect.bind(s);
    const peers: Peer[] = [];
    s.connect = (options) => {
      const p = connect(options);
      peers.push(p);
      return p;
    };
    const init = await postTo(h, initializeRequest(), legacyHeaders);
    const session = init.headers.get('mcp-session-id')!;
    const peer = peers.find((p) => p.session)!;
    // Counts the close handlers registered and not yet removed.
    let registered = 0;
    const onClose = peer.onClose.bind(peer);
    peer.onClose = (handler) => {
      registered++;
      const off = onClose(handler);
      let removed = false;
      return () => {
        if (!removed) registered--;
        removed = true;
        off();
      };
    };
    for (let i = 0; i < 5; i++) {
      const res = await h(
        new Request(URL_, {
          method: 'GET',
          headers: { accept: 'text/event-stream', 'mcp-session-id': session },
        }),
      );
      expect(res.status).toBe(200);
      const events = new SseReader(res.body);
      await events.nextBlock();
      await events.cancel();
    }
    await until(() => registered === 0, 'every GET stream to drop its close handler');
    // The last GET stream still ends when the session closes.
    const res = await h(
      new Request(URL_, {
        method: 'GET',
        headers: { accept: 'text/event-stream', 'mcp-session-id': session },
      }),
    );
    const events = new SseReader(res.body);
    await events.nextBlock();
    h.close();
    expect(await events.next()).toBeUndefined();
  });

  it('close() ends every stateless request, even several with the same id', async () => {
    const s = createServer({ name: 'w', version: '1' });
    const h = createHttpHandler(s);
    const req = {
      ...modern('subscriptions/listen', { notifications: { toolsListChanged: true } }),
    };
    const readers = await Promise.all(
      [0, 1, 2].map(async () => {
        const events = new SseReader((await postTo(h, { ...req, id: 1 })).body);
        expect(await events.next()).toMatchObject({
          method: 'notifications/subscriptions/acknowledged',
        });
        return events;
      }),
    );
    expect(s.listenerCount).toBe(3);
    h.close();
    expect(s.listenerCount).toBe(0);
    for (const events of readers) expect(await events.next(1000)).toBeUndefined();
  });

  it('server.close() ends a listen stream with its SubscriptionsListenResult', async () => {
    const s = createServer({ name: 'w', version: '1' });
    const h = createHttpHandler(s);
    const req = modern('subscriptions/listen', { notifications: { toolsListChanged: true } });
    const events = new SseReader((await postTo(h, req)).body);
    expect(await events.next()).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
    });
    s.close();
    expect(await events.rest(1000)).toEqual([
      {
        jsonrpc: '2.0',
        id: req.id,
        result: {
          _meta: expect.objectContaining({ 'io.modelcontextprotocol/subscriptionId': req.id }),
          resultType: 'complete',
        },
      },
    ]);
    h.close();
  });

  it('answers a read encoded once with its own copy of the bytes: one answer cannot change the next', async () => {
    const own = createServer({ name: 'once', version: '1' });
    const version = {};
    own.resource('mem://doc', { name: 'doc', mimeType: 'text/plain' }, async (uri) => {
      const { versionedRead } = await import('../../../server/versioned-read.js');
      return versionedRead({ contents: [{ uri, mimeType: 'text/plain', text: 'héllo' }] }, version);
    });
    const h = createHttpHandler(own);
    const read = async (id: number) => {
      const body = { ...modern('resources/read', { uri: 'mem://doc' }), id };
      const res = await h(
        new Request(URL_, {
          method: 'POST',
          headers: { ...headersFor(body), 'mcp-name': 'mem://doc' },
          body: JSON.stringify(body),
        }),
      );
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (id > 0) expect(Number(res.headers.get('content-length'))).toBe(bytes.byteLength);
      return bytes;
    };
    await read(0); // a version's first answer is a text, not kept: the next ones are bytes
    const first = await read(1);
    first.fill(0); // the client's copy, spoilt
    const second = new TextDecoder().decode(await read(2));
    expect(JSON.parse(second)).toMatchObject({ id: 2, result: { contents: [{ text: 'héllo' }] } });
    h.close();
    own.close();
  });
});
