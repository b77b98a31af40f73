// The same notes server with mcpkit.
import { createServer, serveStdio } from 'mcpkit';
import { z } from 'zod';

const notes = new Map([['hello', '# Hello\n']]);

const server = createServer({ name: 'notes', version: '1.0.0' });
server.resource('note://{name}', { name: 'note', mimeType: 'text/markdown' }, (_uri, { name }) =>
  notes.get(name),
); // undefined: "not found", with the right code for each era
server.tool(
  'shout',
  { description: 'Upper-cases a text', input: z.object({ text: z.string() }) },
  ({ text }) => text.toUpperCase(),
);
server.prompt(
  'greet',
  { arguments: [{ name: 'who', required: true }] },
  ({ who }) => `Say hello to ${who}.`,
);

await serveStdio(server).closed;
