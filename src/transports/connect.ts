/**
 * `mcpkit/connect`: an `McpClient` connected in one call, over stdio when given a `command`,
 * over Streamable HTTP when given a `url` (on Node.js through `node:http` with a keep-alive
 * agent, unless `fetch` or `requester: 'fetch'` is given: see `HttpClientOptions.requester`).
 *
 * @example
 * const client = await connect({ command: 'mcpkit', args: ['serve', './docs', '--stdio'] });
 * const remote = await connect({ url: 'https://example.com/mcp', headers: { authorization: `Bearer ${token}` } });
 *
 * @module mcpkit/connect
 */
import { McpClient, type McpClientOptions } from '../client/index.js';
import { HttpClientTransport } from './http/client/client-transport.js';
import type { HttpClientOptions } from './http/client/client-options.js';
import { StdioClientTransport, type StdioClientOptions } from './stdio/client/client-transport.js';

type ClientOnly = Omit<McpClientOptions, 'transport'>;

export type ConnectOptions =
  (StdioClientOptions & { client?: ClientOnly }) | (HttpClientOptions & { client?: ClientOnly });

export async function connect(options: ConnectOptions): Promise<McpClient> {
  const { client: clientOptions, ...rest } = options;
  const transport =
    'command' in rest && rest.command !== undefined
      ? new StdioClientTransport(rest as StdioClientOptions)
      : new HttpClientTransport(rest as HttpClientOptions);
  return new McpClient({ ...clientOptions, transport }).connect();
}
