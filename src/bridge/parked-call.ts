/**
 * One request of a 2026-07-28 host served by a 2025-11-25 upstream that asks for input: the
 * upstream's request stays open across the host's rounds, and the upstream's server-to-client
 * requests (elicitation, sampling, roots) wait here until the host's retry brings its
 * `inputResponses`.
 */
import { McpKitError, ProtocolError } from '../errors/index.js';
import type { Progress } from '../client/index.js';
import type { InputRequests } from '../protocol/index.js';
import { INPUT_KEY_META } from '../protocol/meta-keys.js';
import type { Peer } from '../server/transport.js';
import { inputKinds, type InputKind } from './input-lanes.js';

type Obj = Record<string, unknown>;

const CAPABILITY: Readonly<Record<string, InputKind>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

const MAX_KEY_CHARS = 128;

/** Input requests one call keeps waiting at most: more fail back to the upstream at once. */
export const MAX_INPUTS_PER_CALL = 16;
/** Bytes of one input request's params (serialised), and of all those waiting in one call. */
export const MAX_INPUT_BYTES = 1024 * 1024;
export const MAX_ROUND_BYTES = 4 * 1024 * 1024;

/** The longest a timer waits (setTimeout fires at once past it): longer bounds are cut to it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** How many more gather waits one round may take while the upstream keeps asking. */
const MAX_GATHER_WAITS = 5;

interface Waiting {
  method: string;
  params: Obj;
  bytes: number;
  resolve: (result: Obj) => void;
  reject: (error: Error) => void;
}

export type Round =
  { kind: 'complete'; result: Obj } | { kind: 'input'; inputRequests: InputRequests };

/** What a retry must repeat: the method, its target, the arguments (any key order), the caller. */
export interface Binding {
  method: string;
  target: unknown;
  args: unknown;
  caller: string;
}

type Outcome = { ok: true; result: Obj } | { ok: false; error: unknown };

export class ParkedCall {
  /** Aborts the upstream's request: expiry, the host gone, the bridge closing. */
  private readonly cancel = new AbortController();
  private readonly waiting = new Map<string, Waiting>();
  private seq = 0;
  private outcome: Outcome | undefined;
  private wake: (() => void) | undefined;
  /** Where the current round's progress goes (the host's token, its request's stream). */
  private progressTo: ((progress: Progress) => void) | undefined;

  constructor(
    /** The host connection that made the request: only it may answer. */
    readonly peer: Peer,
    /** Method, target, arguments and caller (what the retry must repeat). */
    readonly binding: Binding,
    /** The capabilities the host declared on its latest round. */
    public capabilities: Obj,
    start: (signal: AbortSignal, call: ParkedCall) => Promise<Obj>,
  ) {
    start(this.cancel.signal, this).then(
      (result) => this.settle({ ok: true, result }),
      (error: unknown) => this.settle({ ok: false, error }),
    );
  }

  /** The upstream's request has ended (answered, failed or cancelled). */
  get settled(): boolean {
    return this.outcome !== undefined || this.cancel.signal.aborted;
  }

  /** The upstream asks: the answer comes with the host's next round, or the request fails. */
  ask(method: string, params: Obj): Promise<Obj> {
    const capability = CAPABILITY[method];
    if (capability === undefined || !inputKinds(this.capabilities).includes(capability))
      return Promise.reject(
        new ProtocolError(
          -32601,
          `the host does not support ${method} (no ${capability ?? method} capability)`,
        ),
      );
    if (this.outcome !== undefined || this.cancel.signal.aborted)
      return Promise.reject(ProtocolError.internal(`${method}: the request it belongs to ended`));
    // The upstream client holds 64 server requests per session: one call keeps at most 16.
    if (this.waiting.size >= MAX_INPUTS_PER_CALL)
      return Promise.reject(
        ProtocolError.internal(
          `${method}: the request it belongs to waits for ${MAX_INPUTS_PER_CALL} inputs already (the bridge's limit per call)`,
        ),
      );
    const bytes = Buffer.byteLength(JSON.stringify(params));
    if (bytes > MAX_INPUT_BYTES || this.waitingBytes() + bytes > MAX_ROUND_BYTES)
      return Promise.reject(
        ProtocolError.invalidParams(
          `${method}: params is ${bytes} bytes serialised; the bridge keeps ${MAX_INPUT_BYTES} bytes per input request and ${MAX_ROUND_BYTES} per call waiting for input`,
          { field: 'params' },
        ),
      );
    this.seq++;
    const key = this.keyFor(capability, params);
    return new Promise<Obj>((resolve, reject) => {
      this.waiting.set(key, { method, params, bytes, resolve, reject });
      this.wake?.();
    });
  }

  private waitingBytes(): number {
    let total = 0;
    for (const { bytes } of this.waiting.values()) total += bytes;
    return total;
  }

  /**
   * The input's key: the one an mcpkit upstream names (`_meta["dev.mcpkit/inputKey"]`, as its
   * 2026-07-28 side would), when it is short and not waiting already; else the kind and a count.
   */
  private keyFor(capability: string, params: Obj): string {
    const named = (params['_meta'] as Obj | undefined)?.[INPUT_KEY_META];
    if (typeof named === 'string' && named.length > 0 && named.length <= MAX_KEY_CHARS)
      if (!this.waiting.has(named)) return named;
    let key = `${capability}-${this.seq}`;
    while (this.waiting.has(key)) key = `${capability}-${++this.seq}`;
    return key;
  }

  /** The host's answers, by the keys it was shown; other keys are ignored. */
  answer(responses: unknown): void {
    if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) return;
    for (const [key, waiting] of [...this.waiting]) {
      if (!Object.hasOwn(responses, key)) continue;
      const response = (responses as Obj)[key];
      if (typeof response !== 'object' || response === null || Array.isArray(response)) continue;
      this.waiting.delete(key);
      waiting.resolve(response as Obj);
    }
  }

  /** Forwards the upstream's progress to the current round's request, when it asked for it. */
  progress(progress: Progress): void {
    this.progressTo?.(progress);
  }

  /**
   * Waits for the upstream's final answer or its next questions (those that come together,
   * `gatherMs` apart at most), within `timeoutMs` (0: no limit). A timeout or the host going
   * away cancels the upstream's request.
   */
  async next(
    gatherMs: number,
    timeoutMs: number,
    signal: AbortSignal,
    progressTo?: (progress: Progress) => void,
  ): Promise<Round> {
    this.progressTo = progressTo;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort = (): void => undefined;
    const ended = new Promise<never>((_, reject) => {
      const fail = (error: McpKitError): void => {
        this.abort(error.message);
        reject(error);
      };
      if (timeoutMs > 0)
        timer = setTimeout(
          () =>
            fail(
              new McpKitError(
                'REQUEST_TIMEOUT',
                `the upstream gave no answer within ${timeoutMs} ms`,
              ),
            ),
          Math.min(timeoutMs, MAX_TIMER_MS),
        );
      onAbort = () => fail(new McpKitError('REQUEST_CANCELLED', 'the host cancelled the request'));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([this.round(gatherMs), ended]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      this.progressTo = undefined;
    }
  }

  /** Fails what waits and cancels the upstream's request. */
  abort(why: string): void {
    for (const [key, waiting] of this.waiting) {
      this.waiting.delete(key);
      waiting.reject(ProtocolError.internal(`${waiting.method}: ${why}`));
    }
    this.cancel.abort();
  }

  private async round(gatherMs: number): Promise<Round> {
    for (;;) {
      if (this.outcome !== undefined) {
        if (this.outcome.ok) return { kind: 'complete', result: this.outcome.result };
        throw this.outcome.error;
      }
      if (this.waiting.size > 0) {
        await this.gather(gatherMs);
        if (this.outcome === undefined && this.waiting.size > 0) return this.questions();
        continue;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  /** Waits while the upstream keeps asking, so that questions asked together go together. */
  private async gather(gatherMs: number): Promise<void> {
    for (let i = 0; i <= MAX_GATHER_WAITS && this.outcome === undefined; i++) {
      const before = this.seq;
      await new Promise((resolve) => setTimeout(resolve, gatherMs));
      if (this.seq === before) return;
    }
  }

  private questions(): Round {
    const inputRequests: InputRequests = {};
    for (const [key, { method, params }] of this.waiting)
      Object.defineProperty(inputRequests, key, {
        value: { method, params },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return { kind: 'input', inputRequests };
  }

  private settle(outcome: Outcome): void {
    this.outcome = outcome;
    for (const [key, waiting] of this.waiting) {
      this.waiting.delete(key);
      waiting.reject(ProtocolError.internal(`${waiting.method}: the request it belongs to ended`));
    }
    this.wake?.();
  }
}
