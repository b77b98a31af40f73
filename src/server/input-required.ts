import type { InputRequests } from '../protocol/types.js';

/**
 * Ends a 2026-07-28 round early: `ctx.ask()` throws it when an answer is missing, and the
 * dispatcher turns it into an `InputRequiredResult` with a signed `requestState`. The handler
 * runs again on the client's retry, with the answers.
 *
 * Deliberately not an `Error`: it is control flow, not a failure, so handler code that reports
 * errors (`catch (e) { if (e instanceof Error) … }`) passes it on untouched. Tool handlers that
 * catch everything must rethrow it (`isInputRequired(e)`).
 */
export class InputRequiredSignal {
  constructor(
    readonly inputRequests: InputRequests,
    readonly answers: Record<string, unknown>,
    readonly userState: unknown,
  ) {}
}

export function isInputRequired(value: unknown): value is InputRequiredSignal {
  return value instanceof InputRequiredSignal;
}
