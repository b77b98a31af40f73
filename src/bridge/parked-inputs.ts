/**
 * A 2026-07-28 host in front of a 2025-11-25 upstream: the upstream's server-to-client requests
 * made while it handles the host's `tools/call`, `prompts/get` or `resources/read` become an
 * `input_required` result, and the upstream's request is parked until the host retries with
 * `inputResponses` and the `requestState` (a random token, single use, bound to the host
 * connection, the request and its caller), within a time to live and a bound on parked calls.
 */
import type { Progress } from '../client/index.js';
import { McpKitError, ProtocolError } from '../errors/index.js';
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { callerKey, isAuthInfo, type Peer } from '../server/transport.js';
import { MAX_TIMER_MS, ParkedCall, type Binding } from './parked-call.js';

type Obj = Record<string, unknown>;

/** The methods that may answer `input_required` (SEP-2322). */
export const INPUT_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'prompts/get',
  'resources/read',
]);

export const DEFAULT_MAX_PARKED_INPUTS = 32;
export const DEFAULT_INPUT_TTL_MS = 60_000;
/** Upstream requests this close together are asked of the host in one round. */
export const INPUT_GATHER_MS = 20;

export interface ParkedInputsOptions {
  /** Most calls waiting for a host's input at once (default 32); one more fails clearly. */
  maxParked?: number;
  /** How long a call waits for the host's retry (default 60 s); then it is cancelled upstream. */
  ttlMs?: number;
  /** Each round's wait for the upstream (0: none). */
  timeoutMs: number;
  gatherMs?: number;
}

export interface ParkRequest {
  peer: Peer;
  method: string;
  params: Obj;
  authInfo: unknown;
  signal: AbortSignal;
  capabilities: Obj;
  /** Sends the request upstream (without inputResponses and requestState). */
  start: (signal: AbortSignal, call: ParkedCall) => Promise<Obj>;
  /** The host's progress token's sink for this round, when it gave one. */
  progress?: (progress: Progress) => void;
}

/** Who a request is from, as a parked call is bound to it (the signed-in caller, or none). */
export function callerOf(authInfo: unknown): string {
  return isAuthInfo(authInfo) ? callerKey(authInfo) : JSON.stringify(authInfo ?? null);
}

function bindingOf(method: string, params: Obj, authInfo: unknown): Binding {
  const caller = callerOf(authInfo);
  const target = method === 'resources/read' ? params['uri'] : params['name'];
  return { method, target, args: params['arguments'] ?? {}, caller };
}

interface Parked {
  call: ParkedCall;
  method: string;
  timer: ReturnType<typeof setTimeout>;
}

export class ParkedInputs {
  private readonly parked = new Map<string, Parked>();
  /** Calls whose round is under way (a host request in flight). */
  private readonly active = new Set<ParkedCall>();
  private readonly maxParked: number;
  private readonly ttlMs: number;

  constructor(private readonly options: ParkedInputsOptions) {
    this.maxParked = options.maxParked ?? DEFAULT_MAX_PARKED_INPUTS;
    this.ttlMs = options.ttlMs ?? DEFAULT_INPUT_TTL_MS;
  }

  /** How many calls wait for a host's retry. */
  get size(): number {
    return this.parked.size;
  }

  /**
   * The call an upstream's input request belongs to, when only one can be: a 2025-11-25
   * upstream's request names none. Only while every upstream request open (`live` forwarded
   * ones, and parked calls not ended) is one host's (`oneHost`: one connection and caller): then
   * the one call running a round, or the one parked call when nothing runs. Otherwise undefined:
   * never a guess that could reach another host.
   */
  owner(live: number, oneHost: boolean): ParkedCall | undefined {
    if (!oneHost) return undefined;
    if (live === 1 && this.active.size === 1) return [...this.active][0];
    const open = this.openCalls();
    if (live === 0 && this.active.size === 0 && open.length === 1) return open[0];
    return undefined;
  }

  /** Parked calls whose upstream request is still open. */
  openCalls(): ParkedCall[] {
    return [...this.parked.values()].filter(({ call }) => !call.settled).map(({ call }) => call);
  }

  /** The host connection closed: its parked calls are cancelled upstream now, not at expiry. */
  drop(peer: Peer): void {
    for (const [token, { call, timer }] of this.parked) {
      if (call.peer !== peer) continue;
      clearTimeout(timer);
      this.parked.delete(token);
      call.abort('the host closed its connection');
    }
  }

  /** Runs one round of the host's request: the upstream's final result, or input_required. */
  async run(request: ParkRequest): Promise<Obj> {
    const { peer, method, params } = request;
    const binding = bindingOf(method, params, request.authInfo);
    const state = params['requestState'];
    let call: ParkedCall;
    if (typeof state === 'string') {
      call = this.resume(state, peer, binding);
      call.capabilities = request.capabilities;
      call.answer(params['inputResponses']);
    } else {
      call = new ParkedCall(peer, binding, request.capabilities, request.start);
    }
    this.active.add(call);
    let round;
    try {
      round = await call.next(
        this.options.gatherMs ?? INPUT_GATHER_MS,
        this.options.timeoutMs,
        request.signal,
        request.progress,
      );
    } catch (error) {
      if (typeof state === 'string' && error instanceof McpKitError && error.code === 'PEER_CLOSED')
        throw ProtocolError.invalidParams(
          'params.requestState: the upstream restarted; send the request again without requestState',
          { field: 'params.requestState' },
        );
      throw error;
    } finally {
      this.active.delete(call);
    }
    if (round.kind === 'complete') return round.result;
    // The host went away between the round and its answer: nobody would get the token.
    if (request.signal.aborted) {
      call.abort('the host cancelled the request');
      throw new McpKitError('REQUEST_CANCELLED', 'the host cancelled the request');
    }
    this.admit(call, method);
    const token = randomBytes(32).toString('base64url');
    const timer = setTimeout(() => this.expire(token), Math.min(this.ttlMs, MAX_TIMER_MS));
    timer.unref?.();
    this.parked.set(token, { call, method, timer });
    return {
      resultType: 'input_required',
      inputRequests: round.inputRequests,
      requestState: token,
    };
  }

  /**
   * Room for one more parked call: at most maxParked in all and a quarter of them per host
   * connection and caller (over stateless HTTP without auth all hosts are one connection and
   * one caller). Calls whose upstream request already ended do not count.
   */
  private admit(call: ParkedCall, method: string): void {
    const open = [...this.parked.values()].filter((p) => !p.call.settled);
    const quota = Math.max(1, Math.floor(this.maxParked / 4));
    const mine = open.filter(
      (p) => p.call.peer === call.peer && p.call.binding.caller === call.binding.caller,
    ).length;
    const full = open.length >= this.maxParked;
    if (!full && mine < quota) return;
    const why = full
      ? `${this.maxParked} calls already wait for a host's input`
      : `this caller has ${quota} calls waiting for input already (a quarter of maxParkedInputs)`;
    call.abort(`the bridge holds too many calls waiting for input`);
    throw new ProtocolError(
      -32603,
      `${method}: the upstream asked for input, but ${why} (maxParkedInputs, --max-parked-inputs); answer or let one expire (${this.ttlMs} ms) first`,
      { maxParkedInputs: this.maxParked, perCaller: quota },
    );
  }

  /** Cancels every parked and active call (the bridge closes). */
  close(): void {
    for (const [token, { call, timer }] of this.parked) {
      clearTimeout(timer);
      this.parked.delete(token);
      call.abort('the bridge is closing');
    }
    for (const call of this.active) call.abort('the bridge is closing');
  }

  /**
   * The parked call a retry names. A token this host connection was not given reads as
   * unknown (it does not tell that the token exists), and stays parked for its own host.
   */
  private resume(token: string, peer: Peer, binding: Binding): ParkedCall {
    const parked = this.parked.get(token);
    if (parked === undefined || parked.call.peer !== peer)
      throw ProtocolError.invalidParams(
        `params.requestState is unknown or has expired (the bridge keeps a call waiting for input ${this.ttlMs} ms, and each requestState answers once): send the request again without it`,
        { field: 'params.requestState' },
      );
    if (!isDeepStrictEqual(parked.call.binding, binding))
      throw ProtocolError.invalidParams(
        `params.requestState belongs to another request (${parked.method} with other arguments, or another caller)`,
        { field: 'params.requestState' },
      );
    clearTimeout(parked.timer);
    this.parked.delete(token);
    return parked.call;
  }

  private expire(token: string): void {
    const parked = this.parked.get(token);
    if (parked === undefined) return;
    this.parked.delete(token);
    parked.call.abort(`the host did not answer within ${this.ttlMs} ms`);
  }
}
