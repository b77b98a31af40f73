import { describe, expect, it } from 'vitest';
import { withPreEncoded } from '../protocol/pre-encoded.js';
import { initializeRequest, modern } from '../testing/messages.js';
import { connectInMemory } from '../transports/memory.js';
import { versionedRead } from './encoded-reads.js';
import {
  MAX_REPLAY_ENTRIES,
  MAX_REPLAY_KEY_CHARS,
  ReplayLane,
  plainRequest,
  splitRequestText,
} from './replay-lane.js';
import { createServer } from './server.js';

const encoded = (result: Record<string, unknown>) => withPreEncoded(result, JSON.stringify(result));

describe('splitRequestText', () => {
  const head = '{"jsonrpc":"2.0","id":';
  it('cuts an integer or a plain string id off the usual head, and keeps the rest as it is', () => {
    expect(splitRequestText(`${head}42,"method":"m"}`)).toEqual({ id: 42, rest: '"method":"m"}' });
    expect(splitRequestText(`${head}-7,"x":1}`)).toEqual({ id: -7, rest: '"x":1}' });
    expect(splitRequestText(`${head}0,"x":1}`)).toEqual({ id: 0, rest: '"x":1}' });
    expect(splitRequestText(`${head}"a-b c",{}`)).toEqual({ id: 'a-b c', rest: '{}' });
    expect(splitRequestText(`${head}"",{}`)).toEqual({ id: '', rest: '{}' });
  });

  it('refuses what JSON would read otherwise or what it cannot tell without parsing', () => {
    for (const text of [
      '{"id":1,"jsonrpc":"2.0"}', // another order
      '{ "jsonrpc":"2.0","id":1,"x":1}', // whitespace
      `${head}01,"x":1}`, // a leading zero is not JSON
      `${head}-0,"x":1}`,
      `${head}1.5,"x":1}`,
      `${head}1e3,"x":1}`,
      `${head}1234567890123456,"x":1}`, // past 15 digits
      `${head}-,"x":1}`,
      `${head}"a\\"b","x":1}`, // an escape
      `${head}"é","x":1}`, // not printable ASCII
      `${head}"a`, // unterminated
      `${head}null,"x":1}`,
      `${head}7}`, // no rest
    ])
      expect(splitRequestText(text), text).toBeUndefined();
  });
});

describe('plainRequest', () => {
  it('takes only { jsonrpc, id, method, params } of a method whose answers may be kept', () => {
    const ok = { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'a://b' } };
    expect(plainRequest(ok)).toBe(ok);
    expect(plainRequest({ ...ok, extra: true })).toBeUndefined();
    expect(plainRequest({ ...ok, method: 'tools/list' })).toBeUndefined();
    expect(plainRequest({ ...ok, id: 1.5 })).toBeUndefined();
    expect(plainRequest({ ...ok, id: null })).toBeUndefined();
    expect(plainRequest({ ...ok, jsonrpc: '1.0' })).toBeUndefined();
    expect(plainRequest({ ...ok, params: [] })).toBeUndefined();
    expect(plainRequest([ok])).toBeUndefined();
    expect(plainRequest('x')).toBeUndefined();
  });
});

describe('ReplayLane', () => {
  const request = { jsonrpc: '2.0' as const, id: 3, method: 'tools/call', params: { name: 'x' } };

  it('keys by the text when it has the usual shape; a text of another shape gets no key', () => {
    const text = JSON.stringify(request);
    const head = '{"jsonrpc":"2.0","id":3,';
    expect(text.startsWith(head)).toBe(true);
    expect(ReplayLane.keyOf(request, 's', text)).toBe(`s\n${text.slice(head.length)}`);
    const nested = { ...request, params: { name: 'x', arguments: { id: 1 } } };
    expect(ReplayLane.keyOf(nested, 's', JSON.stringify(nested))).toBeUndefined();
    // An escape that may spell "id" (JSON.parse takes the last duplicate, the head shows the first).
    const escaped = `${head}"method":"tools/call","params":{"name":"x"},"\\u0069d":1}`;
    expect(ReplayLane.keyOf(request, 's', escaped)).toBeUndefined();
    expect(ReplayLane.keyOf(request, 's', JSON.stringify(request, null, 1))).toBeUndefined();
    // A text whose id is not the parsed one (a later duplicate wins in JSON.parse).
    expect(ReplayLane.keyOf({ ...request, id: 9 }, 's', text)).toBeUndefined();
    // Without a text (an in-memory caller): by params, in a namespace of its own.
    expect(ReplayLane.keyOf(nested, 's')).toBe(
      `\u0000s\ntools/call\n${JSON.stringify(nested.params)}`,
    );
  });

  it('keeps nothing for a round of an input exchange (requestState, inputResponses)', () => {
    for (const extra of [{ requestState: 'abc' }, { inputResponses: {} }]) {
      const round = { ...request, params: { ...request.params, ...extra } };
      expect(ReplayLane.keyOf(round, '')).toBeUndefined();
      expect(ReplayLane.keyOf(round, '', JSON.stringify(round))).toBeUndefined();
    }
  });

  it('a freshness check that throws counts as stale, never escapes', () => {
    const lane = new ReplayLane();
    let throws = false;
    lane.set('k', encoded({ a: 1 }), () => {
      if (throws) throw new Error('generation failed');
      return true;
    });
    throws = true;
    expect(() => lane.get('k')).not.toThrow();
    expect(lane.size).toBe(0);
    lane.set('k2', encoded({ a: 1 }), () => {
      throw new Error('at once');
    });
    expect(lane.size).toBe(0);
  });

  it('keeps no key longer than MAX_REPLAY_KEY_CHARS', () => {
    const long = { ...request, params: { name: 'x'.repeat(MAX_REPLAY_KEY_CHARS) } };
    expect(ReplayLane.keyOf(long, '')).toBeUndefined();
    expect(ReplayLane.keyOf(long, '', JSON.stringify(long))).toBeUndefined();
  });

  it('answers while fresh, forgets once not, and keeps only encoded answers', () => {
    const lane = new ReplayLane();
    let fresh = true;
    const result = encoded({ content: [] });
    lane.set('k', result, () => fresh);
    expect(lane.get('k')).toBe(result);
    fresh = false;
    expect(lane.get('k')).toBeUndefined();
    expect(lane.size).toBe(0);
    lane.set('plain', { content: [] }, () => true);
    lane.set('stale', encoded({}), () => false);
    expect(lane.size).toBe(0);
  });

  it(`keeps at most ${MAX_REPLAY_ENTRIES} answers, the oldest going first`, () => {
    const lane = new ReplayLane();
    const result = encoded({ a: 1 });
    for (let i = 0; i <= MAX_REPLAY_ENTRIES; i++) lane.set(`k${i}`, result, () => true);
    expect(lane.size).toBe(MAX_REPLAY_ENTRIES);
    expect(lane.get('k0')).toBeUndefined();
    expect(lane.get(`k${MAX_REPLAY_ENTRIES}`)).toBe(result);
  });

  it('keeps at most 1 MiB of characters per answer (a sixteenth of the lane)', () => {
    const lane = new ReplayLane();
    lane.set('big', encoded({ t: 'x'.repeat(1024 * 1024) }), () => true);
    expect(lane.size).toBe(0);
    lane.set('ok', encoded({ t: 'x'.repeat(512 * 1024) }), () => true);
    expect(lane.size).toBe(1);
  });
});

/** A read whose handler names its version, with a validity the test controls. */
function readSetup() {
  const state = { text: 'one', version: {}, valid: true, reads: 0 };
  const server = createServer({ name: 's', version: '1' });
  const validity = {
    get valid() {
      return state.valid;
    },
  };
  server.resource('mem://doc', { name: 'doc', mimeType: 'text/plain' }, (uri) => {
    state.reads++;
    return versionedRead(
      { contents: [{ uri, mimeType: 'text/plain', text: state.text }] },
      state.version,
      validity,
    );
  });
  const change = (text: string) => {
    state.text = text;
    state.version = {};
    state.valid = false;
  };
  return { server, conn: connectInMemory(server), state, change };
}

const textOf = (answer: unknown) =>
  (answer as { result: { contents: Array<{ text: string }> } }).result.contents[0]?.text;

describe('replays of a read', () => {
  it('answer the same read again without the handler while its validity holds, with each id', async () => {
    const { conn, state } = readSetup();
    const request = modern('resources/read', { uri: 'mem://doc' });
    const first = await conn.send({ ...request, id: 1 });
    const second = await conn.send({ ...request, id: 'two' });
    expect(state.reads).toBe(1);
    expect(second).toMatchObject({ id: 'two', result: { contents: [{ text: 'one' }] } });
    expect((second as { result: unknown }).result).toBe((first as { result: unknown }).result);
  });

  it('run the handler again once the validity is lost, and serve the new version', async () => {
    const { conn, state, change } = readSetup();
    const request = modern('resources/read', { uri: 'mem://doc' });
    await conn.send(request);
    change('two');
    expect(textOf(await conn.send(request))).toBe('two');
    expect(state.reads).toBe(2);
    // Not valid when built: not kept either; once valid, kept again.
    state.valid = true;
    await conn.send(request);
    expect(textOf(await conn.send(request))).toBe('two');
    expect(state.reads).toBe(3);
  });

  it('are not made without a validity, for other params, nor for a caller with authInfo', async () => {
    const { conn, state } = readSetup();
    const request = modern('resources/read', { uri: 'mem://doc' });
    await conn.send(request, { authInfo: { user: 'a' } });
    await conn.send(request, { authInfo: { user: 'a' } });
    expect(state.reads).toBe(2);
    await conn.send(request);
    await conn.send(modern('resources/read', { uri: 'mem://doc', _meta: { 'x.y/z': 1 } }));
    expect(state.reads).toBe(4);
  });

  it('end when a registration changes', async () => {
    const { server, conn, state } = readSetup();
    const request = modern('resources/read', { uri: 'mem://doc' });
    await conn.send(request);
    await conn.send(request);
    expect(state.reads).toBe(1);
    server.resource('mem://other', { name: 'other' }, () => 'x');
    await conn.send(request);
    expect(state.reads).toBe(2);
  });

  it('a modern read on a connection that also opened a 2025-11-25 session is still replayed', async () => {
    const { conn, state } = readSetup();
    await conn.send(initializeRequest());
    const request = modern('resources/read', { uri: 'mem://doc' });
    await conn.send({ ...request, id: 1 });
    expect(textOf(await conn.send({ ...request, id: 2 }))).toBe('one');
    expect(state.reads).toBe(1);
  });

  it('a legacy (2025-11-25) read is never replayed', async () => {
    const { conn, state } = readSetup();
    await conn.send(initializeRequest());
    const read = { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'mem://doc' } };
    await conn.send(read);
    await conn.send({ ...read, id: 2 });
    expect(state.reads).toBe(2);
  });

  it('peer.replay answers a request text with its own id, and only the same text', async () => {
    const { server, state } = readSetup();
    const peer = server.connect({ transport: 'memory', send: () => undefined });
    const request = modern('resources/read', { uri: 'mem://doc' });
    const text = (id: number) => JSON.stringify({ ...request, id });
    expect(peer.replay(text(1))).toBeUndefined();
    await peer.handle(JSON.parse(text(1)), { text: text(1) });
    expect(peer.replay(text(5))).toMatchObject({ id: 5, result: { contents: [{ text: 'one' }] } });
    expect(peer.replay(text(5).replace('mem://doc', 'mem://doX'))).toBeUndefined();
    // Another setting (the transport's headers) is another key.
    expect(peer.replay(text(5), 'other headers')).toBeUndefined();
    expect(state.reads).toBe(1);
  });
});

describe('the same read arriving while one runs', () => {
  function gated(versioned: boolean) {
    let reads = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = createServer({ name: 's', version: '1' });
    const version = {};
    server.resource('mem://slow', { name: 'slow', mimeType: 'text/plain' }, async (uri) => {
      reads++;
      await gate;
      const result = { contents: [{ uri, mimeType: 'text/plain', text: 'slow' }] };
      return versioned ? versionedRead(result, version, { valid: true }) : result;
    });
    return {
      server,
      conn: connectInMemory(server),
      reads: () => reads,
      release: () => release(),
    };
  }
  const ask = (id: number) => ({ ...modern('resources/read', { uri: 'mem://slow' }), id });

  it('waits for it and shares its encoded answer, each with its own id', async () => {
    const { conn, reads, release } = gated(true);
    const answers = [1, 2, 3, 4, 5].map((id) => conn.send(ask(id)));
    await new Promise((r) => setTimeout(r, 10));
    expect(reads()).toBe(1);
    release();
    const done = await Promise.all(answers);
    expect(done.map((a) => (a as { id: number }).id)).toEqual([1, 2, 3, 4, 5]);
    for (const a of done) expect(textOf(a)).toBe('slow');
  });

  it('a waiting one that is cancelled gets no answer at once; the others still get theirs', async () => {
    const { conn, reads, release } = gated(true);
    const first = conn.send(ask(1));
    const waiting = conn.send(ask(2));
    const gone = new AbortController();
    const dropped = conn.send(ask(3), { signal: gone.signal });
    await new Promise((r) => setTimeout(r, 10));
    await conn.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 2, _meta: modern('x', {}).params._meta },
    });
    gone.abort();
    // Both settle while the read is still held.
    expect(await waiting).toBeUndefined();
    expect(await dropped).toBeUndefined();
    release();
    expect(textOf(await first)).toBe('slow');
    expect(textOf(await conn.send(ask(4)))).toBe('slow');
    expect(reads()).toBe(1);
  });

  it('a waiting one whose signal is already aborted ends at once, out of the in-flight table', async () => {
    const { server, release } = gated(true);
    const peer = server.connect({ transport: 'memory', send: () => undefined });
    const first = peer.handle(ask(1));
    await new Promise((r) => setTimeout(r, 10));
    const late = peer.handle(ask(2), { signal: AbortSignal.abort() });
    expect(await late).toBeUndefined();
    expect([...peer.inflight.keys()]).toEqual([1]);
    release();
    expect(textOf(await first)).toBe('slow');
    expect(peer.inflight.size).toBe(0);
  });

  it('closing the connection ends the waiting ones too', async () => {
    const { server, release } = gated(true);
    const peer = server.connect({ transport: 'memory', send: () => undefined });
    const first = peer.handle(ask(1));
    const waiting = peer.handle(ask(2));
    await new Promise((r) => setTimeout(r, 10));
    peer.close();
    // At once, while the read is still held.
    expect(await waiting).toBeUndefined();
    release();
    expect(await first).toBeUndefined();
  });

  it('one waiting under the id of the one running leaves that id to it (stateless HTTP reuses ids)', async () => {
    const { server, reads, release } = gated(true);
    const peer = server.connect({ transport: 'memory', send: () => undefined });
    const signal = new AbortController();
    const first = peer.handle(ask(1));
    const twin = peer.handle(ask(1), { signal: signal.signal });
    await new Promise((r) => setTimeout(r, 10));
    const running = peer.inflight.get(1);
    expect(running).toBeDefined();
    // Cancelling id 1 reaches the one running; the twin then runs the read itself.
    await peer.handle({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, _meta: modern('x', {}).params._meta },
    });
    release();
    expect(await first).toBeUndefined();
    expect(textOf(await twin)).toBe('slow');
    expect(reads()).toBe(2);
    expect(peer.inflight.size).toBe(0);
  });

  it('runs on its own once the answers of that read proved not to be kept encoded', async () => {
    const { conn, reads, release } = gated(false);
    const first = [1, 2].map((id) => conn.send(ask(id)));
    await new Promise((r) => setTimeout(r, 10));
    release();
    await Promise.all(first);
    expect(reads()).toBe(2); // the second waited, then ran itself
    await Promise.all([3, 4, 5].map((id) => conn.send(ask(id))));
    expect(reads()).toBe(5);
  });
});

/** A memoised tool and a plain one whose runs the test releases. */
function toolSetup() {
  let generation = 1;
  const runs: string[] = [];
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const server = createServer({ name: 's', version: '1' });
  const input = { type: 'object', properties: { q: { type: 'string' } } } as const;
  server.tool('kept', { input, memo: { generation: () => generation } }, async (args) => {
    runs.push(`kept ${String(args['q'])}`);
    await gate;
    return `kept ${String(args['q'])} @${generation}`;
  });
  server.tool('plain', { input }, async (args) => {
    runs.push(`plain ${String(args['q'])}`);
    await gate;
    return `plain ${String(args['q'])}`;
  });
  server.tool(
    'mirrored',
    {
      input: { type: 'object', properties: { q: { type: 'string', 'x-mcp-header': 'Q' } } },
      memo: { generation: () => generation },
    },
    (args) => (runs.push(`mirrored ${String(args['q'])}`), 'm'),
  );
  return {
    server,
    conn: connectInMemory(server),
    runs,
    bump: () => generation++,
    hold: () => {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
  };
}

const call = (name: string, q: string, id: number) => ({
  ...modern('tools/call', { name, arguments: { q } }),
  id,
});

describe('replays of a memoised tool', () => {
  it('answer while the generation holds, and run it again once it moves', async () => {
    const { conn, runs, bump } = toolSetup();
    await conn.send(call('kept', 'a', 1));
    await conn.send(call('kept', 'a', 2));
    expect(runs).toEqual(['kept a']);
    bump();
    const after = await conn.send(call('kept', 'a', 3));
    expect(JSON.stringify(after)).toContain('kept a @2');
    expect(runs).toEqual(['kept a', 'kept a']);
  });

  it('never for a tool that mirrors an argument in a header (its check is not in the key)', async () => {
    const { server } = toolSetup();
    const peer = server.connect({ transport: 'memory', send: () => undefined });
    await peer.handle(call('mirrored', 'a', 1));
    expect(peer.replays.size).toBe(0);
    await peer.handle(call('kept', 'a', 2));
    expect(peer.replays.size).toBe(1);
  });

  it('first calls run side by side, memoised or not (their gates and caps answer each one)', async () => {
    const { conn, runs, hold, release } = toolSetup();
    hold();
    const answers = [1, 2, 3].map((id) => conn.send(call('kept', 'f', id)));
    await new Promise((r) => setTimeout(r, 10));
    expect(runs).toEqual(['kept f', 'kept f', 'kept f']);
    release();
    expect((await Promise.all(answers)).map((a) => (a as { id: number }).id)).toEqual([1, 2, 3]);
  });

  it('calls arriving while a stale answer is rebuilt wait for it and share the new one', async () => {
    const { conn, runs, bump, hold, release } = toolSetup();
    await conn.send(call('kept', 'g', 1));
    bump();
    hold();
    const answers = [2, 3, 4].map((id) => conn.send(call('kept', 'g', id)));
    await new Promise((r) => setTimeout(r, 10));
    expect(runs).toEqual(['kept g', 'kept g']);
    release();
    const done = await Promise.all(answers);
    expect(done.map((a) => (a as { id: number }).id)).toEqual([2, 3, 4]);
    for (const a of done) expect(JSON.stringify(a)).toContain('kept g @2');
  });

  it('calls run side by side, each on its own (their gates and caps answer each one)', async () => {
    const { conn, runs, hold, release } = toolSetup();
    await conn.send(call('plain', 'c', 1));
    hold();
    const answers = [2, 3, 4].map((id) => conn.send(call('plain', 'c', id)));
    await new Promise((r) => setTimeout(r, 10));
    expect(runs).toEqual(['plain c', 'plain c', 'plain c', 'plain c']);
    release();
    expect((await Promise.all(answers)).map((a) => (a as { id: number }).id)).toEqual([2, 3, 4]);
  });
});

describe('replays never outlive what the full path would answer', () => {
  it('a template that passed on the URI before the one that answered: no replay of that answer', async () => {
    let firstHas = false;
    const server = createServer({ name: 's', version: '1' });
    server.resource('mem://{+p}', { name: 'first' }, () =>
      firstHas ? 'from the first' : undefined,
    );
    server.resource('mem://x/{+q}', { name: 'second' }, (uri) =>
      versionedRead({ contents: [{ uri, text: 'from the second' }] }, {}, { valid: true }),
    );
    const conn = connectInMemory(server);
    const request = modern('resources/read', { uri: 'mem://x/f' });
    expect(textOf(await conn.send(request))).toBe('from the second');
    firstHas = true;
    expect(textOf(await conn.send(request))).toBe('from the first');
  });

  it('a registration made while the handler ran: its answer is not kept', async () => {
    const server = createServer({ name: 's', version: '1' });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const memo = { generation: () => 1 };
    const remove = server.tool('t', { memo }, async () => (await gate, 'v1'));
    const conn = connectInMemory(server);
    const first = conn.send({ ...modern('tools/call', { name: 't' }), id: 1 });
    await new Promise((r) => setTimeout(r, 10));
    remove();
    server.tool('t', { memo }, () => 'v2');
    release();
    expect(JSON.stringify(await first)).toContain('v1');
    const again = await conn.send({ ...modern('tools/call', { name: 't' }), id: 2 });
    expect(JSON.stringify(again)).toContain('v2');
  });

  it('a read that waited for the same read: the new version when it changed meanwhile', async () => {
    const state = { text: 'old', valid: true, version: {} as object };
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = createServer({ name: 's', version: '1' });
    server.resource('mem://d', { name: 'd' }, async (uri) => {
      const text = state.text;
      const version = state.version;
      await gate;
      return versionedRead({ contents: [{ uri, text }] }, version, {
        get valid() {
          return state.valid && state.version === version;
        },
      });
    });
    const conn = connectInMemory(server);
    const ask = (id: number) => conn.send({ ...modern('resources/read', { uri: 'mem://d' }), id });
    const leader = ask(1);
    await new Promise((r) => setTimeout(r, 10));
    state.text = 'new';
    state.version = {};
    const follower = ask(2);
    release();
    expect(textOf(await leader)).toBe('old');
    expect(textOf(await follower)).toBe('new');
  });
});
