/**
 * The client the official conformance suite drives (`conformance client --command ...`): mcpkit's
 * own `McpClient` over `HttpClientTransport`. The suite gives the scenario, the revision and an
 * optional context in the environment, and the mock server's URL as the last argument.
 * Run: node --import tsx test/conformance/client-entry.ts <url>
 *
 * Scenario code only picks which public calls to make; headers, `_meta`, retries, MRTR rounds,
 * x-mcp-header mirroring, SSE resumption and defaults are the library's.
 */
import { OAuthClient, type OAuthClientOptions } from '../../src/auth/client/index.js';
import { McpClient } from '../../src/client/index.js';
import type { Tool } from '../../src/protocol/index.js';
import { HttpClientTransport } from '../../src/transports/http/client/index.js';
import { HeadlessProvider } from './headless-provider.js';

type Obj = Record<string, unknown>;

const url = process.argv[process.argv.length - 1] as string;
const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
const version = process.env['MCP_CONFORMANCE_PROTOCOL_VERSION'] ?? '2025-11-25';
const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as {
  toolCalls?: { name: string; arguments: Obj }[];
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
};

/** The suite's fixed Client ID Metadata Document URL (its AS accepts it without fetching). */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/** auth/* scenarios: what the suite hands the client (pre-registered or machine credentials). */
function oauthOptions(): OAuthClientOptions {
  const credentials = {
    ...(context.client_id === undefined ? {} : { clientId: context.client_id }),
    ...(context.client_secret === undefined ? {} : { clientSecret: context.client_secret }),
    ...(context.private_key_pem === undefined
      ? {}
      : {
          privateKey: {
            key: context.private_key_pem,
            algorithm: context.signing_algorithm ?? 'ES256',
          },
        }),
  };
  if (scenario.startsWith('auth/client-credentials-')) {
    return { grant: 'client_credentials', ...credentials };
  }
  return {
    provider: new HeadlessProvider('http://localhost:3000/callback'),
    clientName: 'mcpkit-conformance-client',
    clientMetadataUrl: CIMD_URL,
    ...credentials,
  };
}

/** Work a scenario does while an input request is being answered (a request in mid-MRTR). */
let duringInput: (() => Promise<void>) | undefined;

const client = new McpClient({
  // The default requester (node:http on Node), keep-alive: the suite runs ~40 clients and their
  // mocks at once, and a client that reads an answer late may reuse a socket the mock has already
  // timed out; the requester sends such a request again on a new connection.
  transport: new HttpClientTransport({
    url,
    ...(scenario.startsWith('auth/') ? { auth: new OAuthClient(oauthOptions()) } : {}),
  }),
  clientInfo: { name: 'mcpkit-conformance-client', version: '0.1.0' },
  era: version === '2026-07-28' ? 'modern' : 'legacy',
  // Accept with nothing filled in: the client's SEP-1034 defaults complete the answer.
  handlers: {
    elicitation: async () => {
      await duringInput?.();
      return { action: 'accept', content: {} };
    },
    sampling: () => ({
      role: 'assistant',
      content: { type: 'text', text: '' },
      model: 'none',
    }),
    roots: () => ({ roots: [] }),
  },
  requestTimeoutMs: 20_000,
  onWarning: (w) => console.error(`[client] warning ${w.code}: ${w.message}`),
});

/** Arguments that satisfy a tool's required string properties (the suite does not check them). */
function placeholderArgs(tool: Tool): Obj {
  const required = (tool.inputSchema?.['required'] ?? []) as string[];
  return Object.fromEntries(required.map((k) => [k, 'x']));
}

const scenarios: Record<string, () => Promise<void>> = {
  async initialize() {
    await client.listTools();
  },
  async tools_call() {
    const [tool] = await client.listTools();
    if (tool) await client.callTool(tool.name, { a: 2, b: 3 });
  },
  async 'request-metadata'() {
    await client.listTools();
  },
  async 'sep-2322-client-request-state'() {
    await client.listTools();
    // An unrelated call made while test_mrtr_echo_state waits for its input must stay plain.
    duringInput = async () => {
      duringInput = undefined;
      await client.callTool('test_mrtr_unrelated', {});
    };
    await client.callTool('test_mrtr_echo_state', {});
    await client.callTool('test_mrtr_no_state', {});
    await client.callTool('test_mrtr_no_result_type', {});
  },
  async 'http-standard-headers'() {
    for (const tool of await client.listTools()) await client.callTool(tool.name, {});
    const [resource] = await client.listResources();
    if (resource) await client.readResource(resource.uri);
    const [prompt] = await client.listPrompts();
    if (prompt) await client.getPrompt(prompt.name);
  },
  async 'http-custom-headers'() {
    await client.listTools();
    for (const call of context.toolCalls ?? []) await client.callTool(call.name, call.arguments);
  },
  async 'http-invalid-tool-headers'() {
    // The client drops the tools with invalid x-mcp-header annotations; call what is left.
    for (const tool of await client.listTools()) {
      await client.callTool(tool.name, placeholderArgs(tool));
    }
  },
  async 'json-schema-ref-no-deref'() {
    await client.listTools();
  },
  async 'json-schema-2020-12-preservation'() {
    const tools = await client.listTools();
    const fixture = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    if (!fixture) throw new Error('json_schema_2020_12_tool is not listed');
    await client.callTool('json_schema_echo', { schema: fixture.inputSchema });
  },
  async 'elicitation-sep1034-client-defaults'() {
    await client.listTools();
    await client.callTool('test_client_elicitation_defaults', {});
  },
  async 'sse-retry'() {
    await client.listTools();
    await client.callTool('test_reconnection', {});
  },
};

/** Every auth/* scenario: sign in on the first 401, list the tools, call one (step-up on 403). */
async function signedIn(): Promise<void> {
  const [tool] = await client.listTools();
  if (tool) await client.callTool(tool.name, {});
}

const run = scenarios[scenario] ?? (scenario.startsWith('auth/') ? signedIn : undefined);
if (!run) {
  console.error(`[client] no scenario ${JSON.stringify(scenario)}`);
  process.exit(2);
}
let code = 0;
try {
  await client.connect();
  await run();
} catch (error) {
  console.error('[client] failed:', error);
  code = 1;
}
await client.close().catch(() => undefined);
process.exit(code);
