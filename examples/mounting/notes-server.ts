// The MCP server the mounting examples serve: notes as resources, and a tool that adds one.
import { createServer, type McpServer } from 'mcpkit/server';

export function notesServer(): McpServer {
  const notes = new Map([['hello', '# Hello\n']]);
  const server = createServer({ name: 'notes', version: '1.0.0' });
  server.resource('note://{name}', { name: 'note', mimeType: 'text/markdown' }, (_uri, { name }) =>
    notes.get(String(name)),
  );
  server.tool(
    'add-note',
    {
      description: 'Adds a note',
      input: {
        type: 'object',
        properties: { name: { type: 'string' }, text: { type: 'string' } },
        required: ['name', 'text'],
      },
    },
    ({ name, text }: { name: string; text: string }) => {
      notes.set(name, text);
      return `note://${encodeURIComponent(name)}`;
    },
  );
  return server;
}

/** The port to listen on: PORT, else 3333 (0 picks a free one). */
export const PORT = Number(process.env['PORT'] ?? 3333);
