// Notes as resources behind a URI template: listed, completed, read by name and revision.
// Run: npx tsx examples/notes/server.ts (stdio)
import { createServer, serveStdio } from 'mcpkit';

const notes: Record<string, string[]> = {
  hello: ['# Hello\n', '# Hello, world\n'],
  todo: ['- buy milk\n'],
};

const server = createServer({ name: 'notes', version: '1.0.0' });
server.resource(
  'note://{name}{?rev}',
  {
    name: 'note',
    mimeType: 'text/markdown',
    list: () => Object.keys(notes).map((name) => ({ uri: `note://${name}`, name })),
    complete: { name: (prefix) => Object.keys(notes).filter((n) => n.startsWith(prefix)) },
  },
  (_uri, { name, rev }) => {
    const revisions = notes[name];
    if (!revisions) return undefined; // "not found"
    const at = rev === undefined ? revisions.length - 1 : Number(rev);
    return revisions[at]; // undefined for a revision that does not exist
  },
);

await serveStdio(server).closed;
