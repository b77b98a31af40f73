// A 2025-11-25-only stdio server for test/e2e/bridge-era.test.ts: plain Node, hand-written
// JSON-RPC, no mcpkit. `tools/call greet` asks the client for a name (elicitation/create) while
// the call is open, then answers "Hello, NAME!". argv[2]: a file where it appends one line per
// event ("cancelled ID" when the client cancels a call, "error ID MESSAGE" when its elicitation
// was refused).
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const events = process.argv[2];
const note = (line) => events && appendFileSync(events, `${line}\n`);
const send = (message) =>
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

const asked = new Map(); // our request id -> the tools/call id it serves
const open = new Set(); // tools/call ids still open
let next = 0;

const TOOL = {
  name: 'greet',
  description: 'Greets whoever answers',
  inputSchema: { type: 'object', properties: { times: { type: 'number' } } },
};

function onRequest({ id, method, params }) {
  if (method === 'initialize')
    return send({
      id,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'legacy-eliciting', version: '0.0.1' },
      },
    });
  if (method === 'ping') return send({ id, result: {} });
  if (method === 'tools/list') return send({ id, result: { tools: [TOOL] } });
  if (method === 'tools/call' && params?.name === 'greet') {
    const ask = `s${++next}`;
    asked.set(ask, id);
    open.add(id);
    return send({
      id: ask,
      method: 'elicitation/create',
      params: {
        message: 'What is your name?',
        requestedSchema: {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
        },
      },
    });
  }
  send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
}

function onResponse({ id, result, error }) {
  const call = asked.get(id);
  asked.delete(id);
  if (call === undefined || !open.has(call)) return;
  open.delete(call);
  if (error) {
    note(`error ${call} ${error.message}`);
    return send({
      id: call,
      result: { content: [{ type: 'text', text: error.message }], isError: true },
    });
  }
  const name = result?.action === 'accept' ? result.content?.name : `(${result?.action})`;
  send({ id: call, result: { content: [{ type: 'text', text: `Hello, ${name}!` }] } });
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return send({ id: null, error: { code: -32700, message: 'Parse error' } });
  }
  if (message.method === 'notifications/cancelled') {
    const id = message.params?.requestId;
    if (open.delete(id)) note(`cancelled ${id}`);
    return;
  }
  if (message.method !== undefined && message.id !== undefined) return onRequest(message);
  if (message.method === undefined) return onResponse(message);
});
