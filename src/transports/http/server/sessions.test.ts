import { describe, expect, it } from 'vitest';
import { initializeRequest, legacy } from '../../../testing/messages.js';
import { SseReader, until } from '../../../testing/sse.js';
import { createServer } from '../../../server/server.js';
import { createHttpHandler, type WebHandler } from './web-handler.js';
import { SessionTable } from './sessions.js';

const URL_ = 'http://127.0.0.1/mcp';
const JSON_POST = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** A server whose `hold` tool answers only when the test lets it go. */
function gatedServer() {
  const s = createServer({ name: 'sessions', version: '1' });
  const gates: Array<() => void> = [];
  s.tool('hold', {}, () => new Promise<string>((done) => gates.push(() => done('held'))));
  return { s, gates };
}

async function initialize(h: WebHandler): Promise<Response> {
  return h(
    new Request(URL_, {
      method: 'POST',
      headers: JSON_POST,
      body: JSON.stringify(initializeRequest()),
    }),
  );
}

async function open(h: WebHandler): Promise<string> {
  const res = await initialize(h);
  expect(res.status).toBe(200);
  await res.body?.cancel();
  const id = res.headers.get('mcp-session-id')!;
  const ready = await inSession(h, id, { jsonrpc: '2.0', method: 'notifications/initialized' });
  expect(ready.status).toBe(202);
  return id;
}

function inSession(h: WebHandler, id: string, body: unknown): Promise<Response> {
  return h(
    new Request(URL_, {
      method: 'POST',
      headers: { ...JSON_POST, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify(body),
    }),
  );
}

/** The status of a tools/list in session `id`: 200 while it lives, 404 once it is gone. */
async function statusOf(h: WebHandler, id: string): Promise<number> {
  const res = await inSession(h, id, legacy('tools/list', {}));
  await res.body?.cancel();
  return res.status;
}

async function getStream(h: WebHandler, id: string): Promise<SseReader> {
  const res = await h(
    new Request(URL_, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': id },
    }),
  );
  expect(res.status).toBe(200);
  const events = new SseReader(res.body);
  expect(await events.nextBlock()).toMatchObject({ comments: ['stream open'] });
  return events;
}

describe('SessionTable: a full table evicts the least recently used idle session', () => {
  it('evicts the LRU idle session; one with a GET stream and recently used ones survive', async () => {
    const { s } = gatedServer();
    const h = createHttpHandler(s, { maxSessions: 3 });
    const a = await open(h);
    const b = await open(h);
    const c = await open(h);
    // a streams; then b and c are used, so a is the least recently used but not idle.
    const stream = await getStream(h, a);
    expect(await statusOf(h, b)).toBe(200);
    expect(await statusOf(h, c)).toBe(200);

    const d = await open(h); // evicts b: the least recently used idle session
    expect(await statusOf(h, b)).toBe(404);
    expect(await statusOf(h, a)).toBe(200);
    expect(await statusOf(h, c)).toBe(200);
    expect(await statusOf(h, d)).toBe(200);

    // Now d is the least recently used idle one (a streams, c and d were used in that order).
    expect(await statusOf(h, c)).toBe(200);
    const e = await open(h);
    expect(await statusOf(h, d)).toBe(404);
    expect(await statusOf(h, e)).toBe(200);
    s.notifyListChanged('tools');
    expect(await stream.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });
    h.close();
    expect(await stream.next()).toBeUndefined();
    s.close();
  });

  it('never evicts a session with a request in flight, nor one still initializing', async () => {
    const { s, gates } = gatedServer();
    const h = createHttpHandler(s, { maxSessions: 2 });
    const a = await open(h);
    const b = await open(h);
    const held = inSession(h, a, legacy('tools/call', { name: 'hold', arguments: {} }));
    await until(() => gates.length > 0, 'the hold call to start');
    // a is the least recently used, but busy: b goes.
    const c = await open(h);
    expect(await statusOf(h, b)).toBe(404);
    gates.shift()!();
    expect(await (await held).json()).toMatchObject({ result: { content: [{ text: 'held' }] } });
    expect(await statusOf(h, a)).toBe(200);
    expect(await statusOf(h, c)).toBe(200);
    h.close();
    s.close();
  });

  it('answers 503 only when no session is idle, and takes new ones again once one is', async () => {
    const { s } = gatedServer();
    const h = createHttpHandler(s, { maxSessions: 1 });
    const a = await open(h);
    const stream = await getStream(h, a);
    const refused = await initialize(h);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({
      error: { code: -32603, message: expect.stringMatching(/maxSessions.*none of them idle/) },
    });
    expect(await statusOf(h, a)).toBe(200);
    // The stream closes: a is idle again, so the next initialize evicts it.
    await stream.cancel();
    let b: string | undefined;
    for (let i = 0; i < 200 && b === undefined; i++) {
      const res = await initialize(h);
      if (res.status === 200) b = res.headers.get('mcp-session-id')!;
      else await new Promise((r) => setTimeout(r, 5));
    }
    expect(b).toBeDefined();
    expect(await statusOf(h, a)).toBe(404);
    expect(await statusOf(h, b!)).toBe(200);
    h.close();
    s.close();
  });

  it('evicts the idle ones of many never-deleted sessions, one per new initialize', async () => {
    const { s } = gatedServer();
    const h = createHttpHandler(s, { maxSessions: 5 });
    const baseline = s.connectionCount;
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) ids.push(await open(h));
    // Only the five newest remain, and no peer of an evicted one is left open.
    expect(s.connectionCount).toBe(baseline + 5);
    for (const id of ids.slice(0, 45)) expect(await statusOf(h, id)).toBe(404);
    for (const id of ids.slice(45)) expect(await statusOf(h, id)).toBe(200);
    h.close();
    s.close();
  });
});

describe('SessionTable: sessions opened by an authenticated caller', () => {
  it('are evicted, swept and closed by the table like any other; only their caller deletes them', async () => {
    const server = createServer({ name: 'sessions', version: '1' });
    const table = new SessionTable(server, 50, 1, 1 << 20);
    const first = table.create('alice')!;
    table.commit(first);
    expect(table.delete(first.id)).toBe(false);
    expect(table.delete(first.id, 'bob')).toBe(false);
    // Full with an idle session of alice's: a new one takes its place.
    const second = table.create('bob');
    expect(second).toBeDefined();
    expect(table.get(first.id, 'alice')).toBeUndefined();
    table.commit(second!);
    expect(server.connectionCount).toBe(1);
    // Idle past sessionIdleMs: swept (polled without get(), which would mark it used).
    await until(() => server.connectionCount === 0, 'the idle session is swept', 2000);
    expect(table.get(second!.id, 'bob')).toBeUndefined();
    const third = table.create('carol')!;
    table.commit(third);
    table.closeAll();
    expect(table.get(third.id, 'carol')).toBeUndefined();
    expect(server.connectionCount).toBe(0);
    server.close();
  });
});
