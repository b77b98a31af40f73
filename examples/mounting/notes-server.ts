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

/**
 * Ends the example with one clear line and exit 1 when it cannot listen (the port is taken, say),
 * instead of a stack trace.
 */
export function exitOnListenError(error: Error & { code?: string }): never {
  const why =
    error.code === 'EADDRINUSE'
      ? `port ${PORT} on 127.0.0.1 is already in use: stop what listens there, or set PORT (PORT=0 picks a free one)`
      : error.message;
  console.error(`cannot listen: ${why}`);
  process.exit(1);
}
