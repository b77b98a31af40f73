import { createServer, type McpServer } from '../server/index.js';

const NOTES: Record<string, string> = {
  welcome: '# Welcome\n\nThis server is built with mcpkit. Read notes, search them, or ask for a summary prompt.\n',
  'http-vs-stdio': '# HTTP or stdio?\n\nUse stdio for a local host that starts the server; Streamable HTTP for a shared one.\n',
};

/** A small example server: notes as resources, a search tool and a prompt. */
export function createNotesServer(): McpServer {
  const server = createServer({ name: 'mcpkit-example', version: '0.1.0', instructions: 'Notes about mcpkit.' });
  server.resource('note://{name}', {
    name: 'note',
    description: 'A note by name',
    mimeType: 'text/markdown',
    list: () => Object.keys(NOTES).map((name) => ({ uri: `note://${name}`, name, mimeType: 'text/markdown' })),
    complete: { name: (value) => Object.keys(NOTES).filter((n) => n.startsWith(value)) },
  }, (_uri, { name }) => (typeof name === 'string' ? NOTES[name] : undefined));
  server.tool('search', {
    description: 'Finds notes that mention a word',
    input: { type: 'object', properties: { query: { type: 'string', minLength: 1 } }, required: ['query'] },
  }, ({ query }: { query: string }) => {
    const hits = Object.entries(NOTES).filter(([, body]) => body.toLowerCase().includes(query.toLowerCase()));
    return {
      content: [
        { type: 'text', text: hits.length ? `${hits.length} note(s) mention "${query}".` : `No note mentions "${query}".` },
        ...hits.map(([name, body]) => ({ type: 'resource_link' as const, uri: `note://${name}`, name, mimeType: 'text/markdown', size: body.length })),
      ],
    };
  });
  server.prompt('summarize', {
    description: 'Summarize one note',
    arguments: [{ name: 'name', description: 'The note', required: true }],
    complete: { name: (value) => Object.keys(NOTES).filter((n) => n.startsWith(value)) },
  }, ({ name }) => ({
    messages: [
      { role: 'user', content: { type: 'resource', resource: { uri: `note://${String(name)}`, mimeType: 'text/markdown', text: NOTES[String(name)] ?? '' } } },
      { role: 'user', content: { type: 'text', text: 'Summarize the note above in two sentences.' } },
    ],
  }));
  return server;
}
