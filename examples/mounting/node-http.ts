// node:http alone: the handler answers at /mcp (404 elsewhere). Run: npx tsx examples/mounting/node-http.ts
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'mcpkit/node';
import { exitOnListenError, notesServer, PORT } from './notes-server.js';

// Bound the request head yourself: node's default headersTimeout is 60 s.
const http = createServer({ headersTimeout: 15_000 }, toNodeHandler(notesServer()));
http.once('error', exitOnListenError);
http.listen(PORT, '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
});
