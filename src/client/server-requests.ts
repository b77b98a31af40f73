/**
 * 2025-11-25 server-to-client requests (ping, sampling, elicitation, roots), answered; a request
 * while the era is still unknown is refused. `ServerRequestGate` decides which reach here.
 */
import { ProtocolError } from '../errors/index.js';
import type { Era, Implementation, JSONRPCRequest } from '../protocol/index.js';
import { answerInput } from './input-handlers.js';
import type { InputHandlers } from './input-handlers.js';
import type { Warn } from './result-check.js';
import type { ClientTransport } from './transport.js';
import { shown } from './shown.js';

type Obj = Record<string, unknown>;

export interface ServerRequestDeps {
  transport: ClientTransport;
  handlers: InputHandlers | undefined;
  serverInfo: Implementation | undefined;
  /** Only a 2025-11-25 session may carry server requests; undefined while connecting. */
  era: Era | undefined;
  headers: Record<string, string>;
  warn: Warn;
}

/** Resolves once the answer was handed over (or could not be). */
export async function answerServerRequest(
  request: JSONRPCRequest,
  deps: ServerRequestDeps,
): Promise<void> {
  const reply = async (body: { result: Obj } | { error: Obj }): Promise<void> => {
    try {
      await deps.transport.respond({ jsonrpc: '2.0', id: request.id, ...body } as never, {
        headers: deps.headers,
      });
    } catch (error) {
      deps.warn({
        code: 'RESPONSE_UNSENT',
        message: `the answer to ${shown(request.method)} could not be sent: ${String(error)}`,
      });
    }
  };
  if (deps.era !== 'legacy') {
    // The era is not known yet: only 2025-11-25 sessions may carry server requests.
    deps.warn({
      code: 'SERVER_REQUEST_REFUSED',
      message: `the server sent a ${shown(request.method)} request before the era was known; only 2025-11-25 sessions may; refused`,
    });
    return reply({
      error: {
        code: -32601,
        message: `Method not found: ${request.method} (2026-07-28 clients take no requests; ask with input_required)`,
      },
    });
  }
  if (request.method === 'ping') return reply({ result: {} });
  try {
    const params = (request.params ?? {}) as Obj;
    const result = await answerInput(request.method, params, deps.handlers, {
      era: 'legacy',
      serverInfo: deps.serverInfo,
    });
    await reply({ result });
  } catch (error) {
    const e = error instanceof ProtocolError ? error : ProtocolError.internal(String(error));
    const body: Obj = { code: e.code, message: e.message };
    if (e.data !== undefined) body['data'] = e.data;
    await reply({ error: body });
  }
}
