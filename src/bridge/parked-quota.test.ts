import { describe, expect, it } from 'vitest';
import { McpKitError } from '../errors/index.js';
import type { Peer } from '../server/transport.js';
import type { ParkedCall } from './parked-call.js';
import { ParkedInputs, type ParkRequest } from './parked-inputs.js';

type Obj = Record<string, unknown>;

const elicit = { message: 'who?', requestedSchema: { type: 'object', properties: {} } };

/** A host's tools/call whose upstream asks once, then ends as `end` says (never by default). */
function request(peer: Peer, name: string, end?: Promise<Obj>, extra: Partial<ParkRequest> = {}) {
  let cancelled = false;
  const req: ParkRequest = {
    peer,
    method: 'tools/call',
    params: { name, arguments: {} },
    authInfo: undefined,
    signal: new AbortController().signal,
    capabilities: { elicitation: {} },
    start: (signal: AbortSignal, call: ParkedCall) => {
      signal.addEventListener('abort', () => (cancelled = true));
      void call.ask('elicitation/create', elicit).catch(() => undefined);
      return end ?? new Promise<Obj>(() => undefined);
    },
    ...extra,
  };
  return { req, cancelled: () => cancelled };
}

const peer = (): Peer => ({}) as Peer;

describe('ParkedInputs bounds', () => {
  it('gives one host connection and caller a quarter of maxParkedInputs', async () => {
    const parking = new ParkedInputs({ maxParked: 4, timeoutMs: 0, gatherMs: 1 });
    const one = peer();
    const first = await parking.run(request(one, 'a').req);
    expect(first['resultType']).toBe('input_required');
    const second = request(one, 'b');
    await expect(parking.run(second.req)).rejects.toMatchObject({
      code: -32603,
      message: expect.stringMatching(/maxParkedInputs/),
    });
    expect(second.cancelled()).toBe(true);
    expect((await parking.run(request(peer(), 'c').req))['resultType']).toBe('input_required');
    expect(parking.size).toBe(2);
    parking.close();
  });

  it('does not count calls whose upstream ended, and says to resend after an upstream restart', async () => {
    const parking = new ParkedInputs({ maxParked: 1, timeoutMs: 0, gatherMs: 1 });
    let die: (error: Error) => void = () => undefined;
    const dies = new Promise<Obj>((_, reject) => (die = reject));
    const host = peer();
    const first = await parking.run(request(host, 'a', dies).req);
    die(new McpKitError('PEER_CLOSED', 'the connection closed'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await parking.run(request(peer(), 'b').req))['resultType']).toBe('input_required');
    const retry = request(host, 'a');
    retry.req.params = {
      ...retry.req.params,
      requestState: first['requestState'],
      inputResponses: {},
    };
    await expect(parking.run(retry.req)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(
        /params\.requestState: the upstream restarted; send the request again without requestState/,
      ),
    });
    parking.close();
  });

  it('does not park a call whose host cancelled after the round, before the answer went out', async () => {
    const parking = new ParkedInputs({ timeoutMs: 0, gatherMs: 1 });
    // Not aborted while the round runs, aborted when its answer is about to go out.
    let reads = 0;
    const signal = {
      get aborted() {
        return reads++ > 0;
      },
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    } as unknown as AbortSignal;
    const r = request(peer(), 'a', undefined, { signal });
    await expect(parking.run(r.req)).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    expect(r.cancelled()).toBe(true);
    expect(parking.size).toBe(0);
  });

  it('keeps a call for a time to live or round timeout past what one timer holds (2^31 ms)', async () => {
    const days30 = 30 * 24 * 3600 * 1000;
    const parking = new ParkedInputs({ ttlMs: days30, timeoutMs: days30, gatherMs: 1 });
    const call = request(peer(), 'a');
    const first = await parking.run(call.req);
    expect(first['resultType']).toBe('input_required');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(parking.size).toBe(1);
    expect(call.cancelled()).toBe(false);
    parking.close();
  });
});
