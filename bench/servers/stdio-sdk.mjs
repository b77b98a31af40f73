// "sdk": the official SDK v2 stdio server, wired as in /work/notes/sdk-v2.md.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { MIME, SERVER_INFO, TEXT_1K, URI } from '../lib/payload.mjs';

serveStdio(() => {
  const server = new McpServer(SERVER_INFO);
  server.registerResource('doc', URI, { mimeType: MIME }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: MIME, text: TEXT_1K }],
  }));
  return server;
});
