// "mcpkit": our stdio server (built output in dist/).
import { createServer } from '../../dist/server/index.js';
import { serveStdio } from '../../dist/transports/stdio/server/index.js';
import { MIME, SERVER_INFO, TEXT_1K, URI } from '../lib/payload.mjs';

const server = createServer(SERVER_INFO);
server.resource(URI, { name: 'doc', mimeType: MIME }, () => TEXT_1K);
await serveStdio(server);
