// Fastify 5: it parses JSON bodies itself, so the parsed body is handed over as the third
// argument; reply.hijack() leaves the answer to mcpkit. Run: npx tsx examples/mounting/fastify.ts
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'mcpkit/node';
import { exitOnListenError, notesServer, PORT } from './notes-server.js';

const fastify = Fastify();
const mcp = toNodeHandler(notesServer());
fastify.all('/mcp', (request, reply) => {
  reply.hijack();
  mcp(request.raw, reply.raw, request.body);
});

await fastify.listen({ port: PORT, host: '127.0.0.1' }).catch(exitOnListenError);
console.log(`http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}/mcp`);
