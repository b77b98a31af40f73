/**
 * Multi round-trip requests (SEP-2322): an `input_required` result is answered through the
 * application's handlers and the request is sent again, with a new id, the original params, the
 * `inputResponses` and the exact `requestState` (omitted when the server gave none).
 */
import { McpKitError } from '../errors/index.js';
import { answerInput } from './input-handlers.js';
import type { InputHandlerContext, InputHandlers } from './input-handlers.js';
import type { Implementation } from '../protocol/index.js';

type Obj = Record<string, unknown>;

/**
 * The final result, and how many input rounds it took: a result reached through a retry must
 * not be cached (it answers inputs, not the plain request).
 */
export async function withInputs(
  method: string,
  params: Obj,
  send: (params: Obj) => Promise<Obj>,
  handlers: InputHandlers | undefined,
  ctx: InputHandlerContext,
  maxRounds: number,
  /** Input requests one round may carry (each runs a handler). */
  maxRequests: number,
  /** The answer to the first send, when the caller already has it. */
  first?: Obj,
): Promise<{ result: Obj; rounds: number }> {
  const { inputResponses: _r, requestState: _s, ...base } = params;
  let current = params;
  for (let round = 0; ; round++) {
    const result = round === 0 && first ? first : await send(current);
    if (result['resultType'] !== 'input_required') return { result, rounds: round };
    if (round === maxRounds) break;
    const requests = (result['inputRequests'] ?? {}) as Record<
      string,
      { method: string; params?: Obj }
    >;
    const count = Object.keys(requests).length;
    if (count > maxRequests) {
      const why = `result.inputRequests carries ${count} input requests, more than ${maxRequests} (maxInputRequests); none was answered`;
      throw new McpKitError('INVALID_RESULT', `${method} answered an invalid result: ${why}`, {
        cause: { field: 'result.inputRequests' },
      });
    }
    // A key such as "__proto__" must stay a key: never assign server-chosen names.
    const responses: Obj = {};
    for (const [key, request] of Object.entries(requests)) {
      const answer = await answerInput(request.method, request.params ?? {}, handlers, ctx);
      Object.defineProperty(responses, key, {
        value: answer,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    current = { ...base };
    if (count > 0) current['inputResponses'] = responses;
    if (typeof result['requestState'] === 'string')
      current['requestState'] = result['requestState'];
  }
  throw new McpKitError(
    'INVALID_RESULT',
    `${method} still asked for input after ${maxRounds} rounds; gave up`,
  );
}

/** What the handlers are told about the request that asked for input. */
export function inputContext(
  method: string,
  params: Obj,
  serverInfo: Implementation | undefined,
  signal: AbortSignal | undefined,
): InputHandlerContext {
  const ctx: InputHandlerContext = { era: 'modern', serverInfo, request: { method, params } };
  if (signal) ctx.signal = signal;
  return ctx;
}
