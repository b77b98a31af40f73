// "mcpkit": our server over node:http (built output in dist/).
import { createServer as createHttpServer } from 'node:http';
import { createServer } from '../../dist/server/index.js';
import { toNodeHandler } from '../../dist/transports/node.js';
import { MIME, SERVER_INFO, TEXT_1K, URI } from '../lib/payload.mjs';

const server = createServer(SERVER_INFO);
server.resource(URI, { name: 'doc', mimeType: MIME }, () => TEXT_1K);
const http = createHttpServer(toNodeHandler(server));
http.listen(0, '127.0.0.1', () => console.log(http.address().port));
