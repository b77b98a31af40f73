// "sdk": the official SDK v2 server over node:http, wired as in /work/notes/sdk-v2.md.
import { createServer } from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { MIME, SERVER_INFO, TEXT_1K, URI } from '../lib/payload.mjs';

// The SDK calls the factory once per HTTP request (stateless handler); that is its documented use.
const factory = () => {
  const server = new McpServer(SERVER_INFO);
  server.registerResource('doc', URI, { mimeType: MIME }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: MIME, text: TEXT_1K }],
  }));
  return server;
};
const node = toNodeHandler(createMcpHandler(factory));
const server = createServer((req, res) => void node(req, res));
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
