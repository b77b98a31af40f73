/**
 * An upstream written with tmcp (`tmcp`, `@tmcp/transport-stdio`, `@tmcp/adapter-zod`), over
 * stdio (tmcp answers 2026-07-28 requests and `initialize` on one connection). Serves
 * real-content.ts.
 * Run: node --import tsx test/e2e/bridge/tmcp-upstream.ts
 */
import { McpServer } from 'tmcp';
import { resource, tool } from 'tmcp/utils';
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { StdioTransport } from '@tmcp/transport-stdio';
import type { z } from 'zod';
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
const server = new McpServer<z.ZodType>(
  { name: 'bridge-tmcp-upstream', version: '1.20.0-test', description: 'tmcp upstream' },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {}, resources: {} } },
);
server.resource(
  { name: 'notes', description: 'notes', uri: NOTES_URI, mimeType: NOTES_MIME },
  (uri) => resource.text(uri, NOTES_TEXT, NOTES_MIME),
);
server.resource(
  { name: 'report', description: 'report', uri: REPORT_URI, mimeType: REPORT_MIME },
  (uri) => resource.blob(uri, pdf, REPORT_MIME),
);
server.tool({ name: 'links', description: 'Links to the notes and the report' }, () =>
  tool.mix([
    tool.text(INTRO),
    tool.resourceLink({ uri: NOTES_URI, name: 'notes', mimeType: NOTES_MIME }),
    tool.resourceLink({ uri: REPORT_URI, name: 'report', mimeType: REPORT_MIME }),
  ]),
);
server.tool({ name: 'embedded', description: 'The notes and the report, embedded' }, () =>
  tool.mix([
    tool.text(INTRO),
    tool.resource({ uri: NOTES_URI, mimeType: NOTES_MIME, text: NOTES_TEXT }),
    tool.resource({ uri: REPORT_URI, mimeType: REPORT_MIME, blob: pdf }),
  ]),
);
new StdioTransport(server).listen();
