/** 2025-11-25 server-to-client requests (ping, sampling, elicitation, roots), answered. */
import { ProtocolError } from '../errors/index.js';
import type { Implementation, JSONRPCRequest } from '../protocol/index.js';
import { answerInput } from './input-handlers.js';
import type { InputHandlers } from './input-handlers.js';
import type { Warn } from './result-check.js';
import type { ClientTransport } from './transport.js';

type Obj = Record<string, unknown>;

export async function answerServerRequest(
  request: JSONRPCRequest,
  deps: {
    transport: ClientTransport;
    handlers: InputHandlers | undefined;
    serverInfo: Implementation | undefined;
    headers: Record<string, string>;
    warn: Warn;
  },
): Promise<void> {
  const reply = async (body: { result: Obj } | { error: Obj }): Promise<void> => {
    try {
      await deps.transport.respond({ jsonrpc: '2.0', id: request.id, ...body } as never, {
        headers: deps.headers,
      });
    } catch (error) {
      deps.warn({
        code: 'RESPONSE_UNSENT',
        message: `the answer to ${request.method} could not be sent: ${String(error)}`,
      });
    }
  };
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
