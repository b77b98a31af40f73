// A correct but slow (or silent) 2026-07-28 stdio server for the tests of `mcpkit audit`: the
// bound on a walk nobody answers, and progress on stderr. Hand-written JSON-RPC, like
// broken-server.mjs. It lists 10 resources, a prompt with 10 required arguments (completions
// offer one value each) and a tool "slow".
// Run: node test/e2e/host/slow-server.mjs [--hang-reads] [--hang-completions]
//        [--complete-ms N] [--call-ms N]
//   --hang-reads, --hang-completions: resources/read, completion/complete never answer;
//   --complete-ms, --call-ms: completion/complete, tools/call answer after N ms.
import { createInterface } from 'node:readline';

const MODERN = '2026-07-28';
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const number = (name) => {
  const i = argv.indexOf(name);
  return i < 0 ? 0 : Number(argv[i + 1]);
};
const HANG_READS = flag('--hang-reads');
const HANG_COMPLETIONS = flag('--hang-completions');
const COMPLETE_MS = number('--complete-ms');
const CALL_MS = number('--call-ms');

const ARGS = Array.from({ length: 10 }, (_, i) => `arg${i}`);
const RESOURCES = Array.from({ length: 10 }, (_, i) => ({
  uri: `slow://r/${i}`,
  name: `r${i}`,
  mimeType: 'text/plain',
  size: `resource ${i}`.length,
}));

const complete = (result) => ({ resultType: 'complete', ...result });
const cacheable = (result) => complete({ ttlMs: 0, cacheScope: 'public', ...result });

/** [result, delay in ms] for one request, 'never' for no answer; throws a JSON-RPC error. */
function handle(method, params) {
  switch (method) {
    case 'server/discover':
      return [
        cacheable({
          supportedVersions: [MODERN],
          capabilities: { tools: {}, prompts: {}, resources: {}, completions: {} },
          _meta: {
            'io.modelcontextprotocol/serverInfo': { name: 'slow-server', version: '0.0.1' },
          },
        }),
        0,
      ];
    case 'tools/list':
      return [cacheable({ tools: [{ name: 'slow', inputSchema: { type: 'object' } }] }), 0];
    case 'prompts/list':
      return [
        cacheable({
          prompts: [
            { name: 'many-args', arguments: ARGS.map((name) => ({ name, required: true })) },
          ],
        }),
        0,
      ];
    case 'resources/list':
      return [cacheable({ resources: RESOURCES }), 0];
    case 'resources/templates/list':
      return [cacheable({ resourceTemplates: [] }), 0];
    case 'resources/read': {
      if (HANG_READS) return 'never';
      const i = RESOURCES.findIndex((r) => r.uri === params.uri);
      if (i < 0) throw { code: -32602, message: 'Resource not found', data: { uri: params.uri } };
      const contents = [{ uri: params.uri, mimeType: 'text/plain', text: `resource ${i}` }];
      return [cacheable({ contents }), 0];
    }
    case 'completion/complete':
      if (HANG_COMPLETIONS) return 'never';
      return [complete({ completion: { values: [`v-${params.argument?.name}`] } }), COMPLETE_MS];
    case 'prompts/get': {
      const missing = ARGS.filter((a) => params.arguments?.[a] !== `v-${a}`);
      if (missing.length > 0)
        throw { code: -32602, message: `missing arguments: ${missing.join(', ')}` };
      return [complete({ messages: [{ role: 'user', content: { type: 'text', text: 'ok' } }] }), 0];
    }
    case 'tools/call':
      return [complete({ content: [{ type: 'text', text: 'done' }] }), CALL_MS];
    default:
      throw { code: -32601, message: `Method not found: ${method}` };
  }
}

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.id === undefined) return;
  let out;
  try {
    out = handle(message.method, message.params ?? {});
  } catch (error) {
    return send({ jsonrpc: '2.0', id: message.id, error });
  }
  if (out === 'never') return;
  const [result, delay] = out;
  setTimeout(() => send({ jsonrpc: '2.0', id: message.id, result }), delay);
});
