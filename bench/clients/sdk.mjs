// The official SDK v2 client (@modelcontextprotocol/client), cache bypassed, pinned to 2026-07-28.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { answerCounter } from '../lib/answered.mjs';
import { serveDriver } from '../lib/client-driver.mjs';
import { FILE_URI } from '../lib/client-payload.mjs';
import { VERSION } from '../lib/payload.mjs';

serveDriver({
  async open(spec) {
    let transport;
    let counter;
    if (spec.transport === 'http') transport = new StreamableHTTPClientTransport(new URL(spec.url));
    else {
      transport = new StdioClientTransport({
        command: spec.command,
        args: spec.args,
        stderr: 'pipe',
      });
      transport.stderr.setEncoding('utf8');
      transport.stderr.on('data', (chunk) => counter?.feed(chunk));
    }
    const client = new Client(
      { name: 'bench', version: '1' },
      { versionNegotiation: { mode: { pin: VERSION } } },
    );
    await client.connect(transport);
    if (spec.transport === 'stdio') counter = answerCounter(transport.pid);
    return {
      describe: `SDK client, protocol ${client.getNegotiatedProtocolVersion()}`,
      read: async () =>
        (await client.readResource({ uri: FILE_URI }, { cacheMode: 'bypass' })).contents[0].text,
      count: counter && (() => counter.query()),
      close: () => client.close(),
    };
  },
});
