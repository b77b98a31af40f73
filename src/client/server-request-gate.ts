/**
 * What a server's own requests may cost the client. A 2026-07-28 server has none (the schema has
 * no `ServerRequest`): they are dropped unanswered. A 2025-11-25 server's are answered, but only
 * so many at once: a server that floods requests (and reads none of the replies) must not grow
 * the client's memory or connections, nor delay the answers to the client's own requests.
 */
import type { JSONRPCRequest } from '../protocol/index.js';
import { standardHeaders } from './envelope.js';
import { answerServerRequest, type ServerRequestDeps } from './server-requests.js';
import type { Warn } from './result-check.js';
import { shown } from './shown.js';

/**
 * Server requests being answered at once (a handler running, or its reply not yet handed
 * over); past it, more are dropped unanswered: a server that cannot wait for them is flooding.
 */
export const MAX_SERVER_REQUESTS_IN_FLIGHT = 64;

/** The client's state a server request is answered in; `era` may be the pinned one. */
export type ServerRequestContext = Omit<ServerRequestDeps, 'headers'> & {
  protocolVersion: string | undefined;
};

export class ServerRequestGate {
  private inFlight = 0;
  private refused = 0;
  private dropped = 0;
  private readonly settled = (): void => {
    this.inFlight--;
  };

  constructor(
    private readonly context: () => ServerRequestContext,
    private readonly limit = MAX_SERVER_REQUESTS_IN_FLIGHT,
  ) {}

  /** Answers `request`, drops it, or (the era not known yet) refuses it. */
  readonly take = (request: JSONRPCRequest): void => {
    const { protocolVersion, ...rest } = this.context();
    if (rest.era === 'modern') {
      // Answering would cost a write (an HTTP POST) per request the server makes up.
      this.refused++;
      if (isLogStep(this.refused)) {
        rest.warn({
          code: 'SERVER_REQUEST_REFUSED',
          message: `the server sent a ${shown(request.method)} request, which 2026-07-28 servers may not (input is asked for with input_required); dropped unanswered${count(this.refused)}`,
        });
      }
      return;
    }
    if (this.inFlight >= this.limit) {
      this.dropped++;
      if (isLogStep(this.dropped)) drops(rest.warn, request, this.limit, this.dropped);
      return;
    }
    this.inFlight++;
    const headers = standardHeaders(protocolVersion, request.method, {});
    void answerServerRequest(request, { ...rest, headers }).finally(this.settled);
  };
}

function drops(warn: Warn, request: JSONRPCRequest, limit: number, n: number): void {
  warn({
    code: 'SERVER_REQUEST_DROPPED',
    message: `the server sent a ${shown(request.method)} request while ${limit} of its requests were still being answered; dropped unanswered${count(n)}`,
  });
}

/** Warn at the 1st, 10th, 100th… occurrence: a flood costs a few warnings, not one each. */
function isLogStep(n: number): boolean {
  for (let step = 1; step <= n; step *= 10) if (step === n) return true;
  return false;
}

function count(n: number): string {
  return n === 1 ? '' : ` (${n} so far)`;
}
