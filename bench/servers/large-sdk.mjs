// "sdk" of the large-resources case: the official SDK v2 server over node:http, serving one file
// as a blob resource. Usage: node large-sdk.mjs <file> <uri>. It reads and encodes the file for
// each request, as an SDK server does (the SDK has no cache of its own).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { SERVER_INFO } from '../lib/payload.mjs';

const [file, uri] = process.argv.slice(2);
const MIME = 'application/octet-stream';

// The SDK calls the factory once per HTTP request (stateless handler); that is its documented use.
const factory = () => {
  const server = new McpServer(SERVER_INFO);
  server.registerResource('big', uri, { mimeType: MIME }, async (u) => ({
    contents: [{ uri: u.href, mimeType: MIME, blob: (await readFile(file)).toString('base64') }],
  }));
  return server;
};
const node = toNodeHandler(createMcpHandler(factory));
const server = createServer((req, res) => void node(req, res));
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
