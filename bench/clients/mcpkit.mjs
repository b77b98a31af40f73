// The mcpkit client (dist/client) with its HTTP or stdio transport, cache off, era pinned modern.
// The HTTP transport is built as a user builds it, with the default options: on Node that is
// the node:http request path (`requester: 'auto'`), as `connect({ url })` gives too.
import { McpClient } from '../../dist/client/index.js';
import { HttpClientTransport } from '../../dist/transports/http/client/index.js';
import { StdioClientTransport } from '../../dist/transports/stdio/client/index.js';
import { answerCounter } from '../lib/answered.mjs';
import { serveDriver } from '../lib/client-driver.mjs';
import { FILE_URI } from '../lib/client-payload.mjs';

serveDriver({
  async open(spec) {
    let transport;
    let counter;
    if (spec.transport === 'http') transport = new HttpClientTransport({ url: spec.url });
    else {
      transport = new StdioClientTransport({
        command: spec.command,
        args: spec.args,
        stderr: (chunk) => counter?.feed(chunk),
      });
    }
    const client = await new McpClient({
      transport,
      clientInfo: { name: 'bench', version: '1' },
      era: 'modern',
      cache: false,
    }).connect();
    if (spec.transport === 'stdio') counter = answerCounter(transport.pid);
    return {
      describe: `mcpkit client, era ${client.era} (${client.protocolVersion})`,
      read: async () => (await client.readResource(FILE_URI)).contents[0].text,
      count: counter && (() => counter.query()),
      close: () => client.close(),
    };
  },
});
