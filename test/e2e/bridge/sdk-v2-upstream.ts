/**
 * An upstream written with the official SDK v2 (`@modelcontextprotocol/server`), over stdio in
 * the era the host's first message opens (both eras). Serves real-content.ts.
 * Run: node --import tsx test/e2e/bridge/sdk-v2-upstream.ts
 */
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import {
  INTRO,
  NOTES_MIME,
  NOTES_TEXT,
  NOTES_URI,
  REPORT_MIME,
  REPORT_PDF,
  REPORT_URI,
} from './real-content.js';

const pdf = REPORT_PDF.toString('base64');

function build(): McpServer {
  const server = new McpServer(
    { name: 'bridge-sdk-v2-upstream', version: '2.4.0-test' },
    { capabilities: { tools: {}, resources: {} } },
  );
  server.registerResource('notes', NOTES_URI, { mimeType: NOTES_MIME }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: NOTES_MIME, text: NOTES_TEXT }],
  }));
  server.registerResource('report', REPORT_URI, { mimeType: REPORT_MIME }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: REPORT_MIME, blob: pdf }],
  }));
  server.registerTool('links', { description: 'Links to the notes and the report' }, async () => ({
    content: [
      { type: 'text', text: INTRO },
      { type: 'resource_link', uri: NOTES_URI, name: 'notes', mimeType: NOTES_MIME },
      // With its size: over stdio, --extract-pdf reads only a PDF link that declares one.
      {
        type: 'resource_link',
        uri: REPORT_URI,
        name: 'report',
        mimeType: REPORT_MIME,
        size: REPORT_PDF.length,
      },
    ],
  }));
  server.registerTool(
    'embedded',
    { description: 'The notes and the report, embedded' },
    async () => ({
      content: [
        { type: 'text', text: INTRO },
        { type: 'resource', resource: { uri: NOTES_URI, mimeType: NOTES_MIME, text: NOTES_TEXT } },
        { type: 'resource', resource: { uri: REPORT_URI, mimeType: REPORT_MIME, blob: pdf } },
      ],
    }),
  );
  return server;
}

serveStdio(build);
