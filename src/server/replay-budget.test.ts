import { describe, expect, it } from 'vitest';
import { withPreEncoded } from '../protocol/pre-encoded.js';
import { initializeRequest, modern } from '../testing/messages.js';
import { versionedRead } from './encoded-reads.js';
import { DEFAULT_MAX_REPLAY_BYTES, ReplayBudget } from './replay-budget.js';
import { MAX_REPLAY_ENTRIES, ReplayLane } from './replay-lane.js';
import { createServer } from './server.js';

const encoded = (result: Record<string, unknown>) => withPreEncoded(result, JSON.stringify(result));
/** An encoded answer of exactly `bytes` bytes. */
const sized = (bytes: number) => encoded({ t: 'x'.repeat(bytes - '{"t":""}'.length) });
const always = () => true;

/** `lane` with `key` kept (`bytes` of answer) and then gone stale: its key held as expired. */
function expired(lane: ReplayLane, key: string, bytes: number): void {
  let fresh = true;
  lane.set(key, sized(bytes), () => fresh);
  fresh = false;
  expect(lane.get(key)).toBeUndefined();
  expect(lane.keysHeld).toBe(1);
}

describe('ReplayBudget', () => {
  it('defaults to 32 MiB and refuses a limit that is not a whole number of bytes', () => {
    expect(new ReplayBudget().limit).toBe(DEFAULT_MAX_REPLAY_BYTES);
    expect(DEFAULT_MAX_REPLAY_BYTES).toBe(32 * 1024 * 1024);
    for (const bad of [-1, 1.5, Number.NaN, Infinity])
      expect(() => new ReplayBudget(bad)).toThrow(/^maxReplayBytes must be a whole number/);
  });

  it('createServer names maxReplayBytes when it is bad', () => {
    expect(() => createServer({ name: 's', version: '1', maxReplayBytes: -5 })).toThrow(
      /maxReplayBytes must be a whole number of bytes, got -5/,
    );
  });
});

describe('replay lanes sharing one budget', () => {
  it('count answers with their keys, and give the room back when they drop them', () => {
    const budget = new ReplayBudget(10_000);
    const lane = new ReplayLane(budget);
    lane.set('k1', sized(300), always);
    expect(budget.size).toBe(302);
    lane.set('k1', sized(400), always); // replaced, not added
    expect(budget.size).toBe(402);
    let fresh = true;
    lane.set('k2', sized(100), () => fresh);
    expect(budget.size).toBe(504);
    fresh = false;
    expect(lane.get('k2')).toBeUndefined();
    // The answer goes; its key stays, as an expired one, until it is rebuilt.
    expect(budget.size).toBe(404);
    expect(lane.takeExpired('k2')).toBe(true);
    expect(budget.size).toBe(402);
    lane.noteUnshared('u1');
    lane.noteUnshared('u1');
    expect(budget.size).toBe(404);
    lane.clear();
    expect(budget.size).toBe(0);
  });

  it('one lane cannot take the room another holds, nor drop its own answers in vain', () => {
    const budget = new ReplayBudget(1600); // an answer of at most 100 bytes with its key
    const a = new ReplayLane(budget);
    const b = new ReplayLane(budget);
    const kept = sized(97);
    for (let i = 10; i < 25; i++) a.set(`a${i}`, kept, always);
    b.set('b01', sized(47), always);
    expect(budget.size).toBe(1550);
    // b makes room from its own answers only: its 50 go, its 100 come.
    b.set('b02', sized(97), always);
    expect(b.get('b01')).toBeUndefined();
    expect(b.get('b02')).toBeDefined();
    expect(budget.size).toBe(1600);
    a.set('a10', sized(57), always); // a shrinks one of its answers: 40 free
    expect(budget.size).toBe(1560);
    // Own 100 and 40 free: room for 100 more once b's own answer goes.
    b.set('b03', sized(97), always);
    expect(b.size).toBe(1);
    expect(b.get('b03')).toBeDefined();
    // Own 20 and 20 free: 100 cannot fit, and b keeps what it has rather than drop it in vain.
    b.set('b03', sized(17), always);
    a.set('a10', sized(97), always);
    a.set('a25', sized(57), always);
    expect(budget.size).toBe(1580);
    b.set('b04', sized(97), always);
    expect(b.get('b03')).toBeDefined();
    expect(b.get('b04')).toBeUndefined();
    for (let i = 10; i <= 25; i++) expect(a.get(`a${i}`)).toBeDefined();
    expect(budget.size).toBe(1580);
  });

  it('keys of unshared answers count too: past the budget the lane drops its own, never in vain', () => {
    const budget = new ReplayBudget(100);
    const a = new ReplayLane(budget);
    const b = new ReplayLane(budget);
    a.noteUnshared('a'.repeat(60));
    b.noteUnshared('b'.repeat(30));
    expect(budget.size).toBe(90);
    b.noteUnshared('c'.repeat(30)); // b drops its own first
    expect(b.isUnshared('c'.repeat(30))).toBe(true);
    expect(b.isUnshared('b'.repeat(30))).toBe(false);
    b.noteUnshared('d'.repeat(50)); // cannot fit even without b's own: not kept, b's stay
    expect(b.isUnshared('d'.repeat(50))).toBe(false);
    expect(b.isUnshared('c'.repeat(30))).toBe(true);
    expect(a.isUnshared('a'.repeat(60))).toBe(true);
    expect(budget.size).toBe(90);
  });

  it('the key of a stale answer is given back once the answer is kept again', () => {
    const budget = new ReplayBudget(10_000);
    const lane = new ReplayLane(budget);
    expired(lane, 'k1', 100);
    lane.set('k1', sized(100), always); // a read rebuilt (reads never ask takeExpired)
    expect(lane.keysHeld).toBe(0);
    expect(budget.size).toBe(102);
  });

  it(`holds at most ${MAX_REPLAY_ENTRIES} unshared keys, and counts exactly those it holds`, () => {
    const budget = new ReplayBudget();
    const lane = new ReplayLane(budget);
    for (let i = 0; i < MAX_REPLAY_ENTRIES + 5; i++) lane.noteUnshared(`key-${i}`);
    expect(lane.keysHeld).toBeLessThanOrEqual(MAX_REPLAY_ENTRIES);
    expect(lane.keysHeld).toBeGreaterThan(0);
    expect(lane.isUnshared(`key-${MAX_REPLAY_ENTRIES + 4}`)).toBe(true);
    let chars = 0;
    for (let i = 0; i < MAX_REPLAY_ENTRIES + 5; i++)
      if (lane.isUnshared(`key-${i}`)) chars += `key-${i}`.length;
    expect(budget.size).toBe(chars);
  });

  it('a rebuilt answer too big to keep still gives its expired key back', () => {
    const budget = new ReplayBudget(1600);
    const lane = new ReplayLane(budget);
    expired(lane, 'k', 90);
    lane.set('k', sized(500), always);
    expect(lane.keysHeld).toBe(0);
    expect(budget.size).toBe(0);
  });

  it('a closed lane gives everything back and keeps nothing more', () => {
    const budget = new ReplayBudget(10_000);
    const lane = new ReplayLane(budget);
    lane.set('k', sized(100), always);
    lane.noteUnshared('u');
    lane.close();
    expect(budget.size).toBe(0);
    lane.set('k', sized(100), always);
    lane.noteUnshared('u');
    expect(lane.size).toBe(0);
    expect(budget.size).toBe(0);
  });

  it('a budget of 0 keeps nothing, and an answer over a sixteenth of it is not kept', () => {
    const none = new ReplayLane(new ReplayBudget(0));
    none.set('k', sized(10), always);
    none.noteUnshared('u');
    expect(none.size).toBe(0);
    expect(none.keysHeld).toBe(0);
    const small = new ReplayLane(new ReplayBudget(1600));
    small.set('big', sized(99), always); // 99 + 3 > 100
    expect(small.size).toBe(0);
    small.set('ok', sized(96), always);
    expect(small.size).toBe(1);
  });
});

/** A server whose read handler counts its runs, and replays within `maxReplayBytes`. */
function counted(maxReplayBytes?: number) {
  const state = { reads: 0 };
  const server = createServer({
    name: 's',
    version: '1',
    ...(maxReplayBytes === undefined ? {} : { maxReplayBytes }),
  });
  const version = {};
  server.resource('mem://{name}', { name: 'doc', mimeType: 'text/plain' }, (uri) => {
    state.reads++;
    return versionedRead(
      { contents: [{ uri, mimeType: 'text/plain', text: 'y'.repeat(500) }] },
      version,
      { valid: true },
    );
  });
  const connect = () => server.connect({ transport: 'memory', send: () => undefined });
  const read = (peer: ReturnType<typeof connect>, name: string, id = 1) =>
    peer.handle({ ...modern('resources/read', { uri: `mem://${name}` }), id });
  return { server, state, connect, read };
}

describe('maxReplayBytes on a server', () => {
  it('bounds what all its connections keep together; a closed one frees its share', async () => {
    const { state, connect, read } = counted(16 * 1024);
    const first = connect();
    // About 700 bytes an answer and its key: 30 of them fill the 16 KiB.
    for (let i = 0; i < 30; i++) await read(first, `f${i}`);
    const second = connect();
    await read(second, 'doc');
    await read(second, 'doc', 2);
    // The first connection holds the room: the second runs its read again.
    const before = state.reads;
    await read(second, 'doc', 3);
    expect(state.reads).toBe(before + 1);
    first.close();
    await read(second, 'doc', 4);
    const kept = state.reads;
    await read(second, 'doc', 5);
    expect(state.reads).toBe(kept);
  });

  it('0 turns replays off: every read runs its handler', async () => {
    const { state, connect, read } = counted(0);
    const peer = connect();
    for (let i = 1; i <= 3; i++) await read(peer, 'doc', i);
    expect(state.reads).toBe(3);
    const on = counted();
    const other = on.connect();
    for (let i = 1; i <= 3; i++) await on.read(other, 'doc', i);
    expect(on.state.reads).toBe(1);
  });
});

describe('replay keys of connections', () => {
  it('a 2025-11-25 session keeps no key, even of reads that fail', async () => {
    const { state, connect, read } = counted();
    const peer = connect();
    await peer.handle(initializeRequest());
    for (let i = 1; i <= 3; i++)
      await peer.handle({
        jsonrpc: '2.0',
        id: i,
        method: 'resources/read',
        params: { uri: `nope://${i}` },
      });
    expect(peer.replays.keysHeld).toBe(0);
    // A modern connection's failed reads are noted (their requests run side by side).
    const modernPeer = connect();
    await read(modernPeer, 'doc');
    await modernPeer.handle({ ...modern('resources/read', { uri: 'nope://1' }), id: 9 });
    expect(modernPeer.replays.keysHeld).toBe(1);
    expect(state.reads).toBe(1);
  });

  it('a close handler that throws does not keep the room from the other connections', async () => {
    const { state, connect, read } = counted(16 * 1024);
    const first = connect();
    for (let i = 0; i < 30; i++) await read(first, `f${i}`);
    first.onClose(() => {
      throw new Error('a transport failed');
    });
    expect(() => first.close()).toThrow('a transport failed');
    const second = connect();
    await read(second, 'doc');
    const kept = state.reads;
    await read(second, 'doc', 2);
    expect(state.reads).toBe(kept);
  });
});
