// A prompt that embeds the file it cannot do without and links the ones the model may read.
// Run: npx tsx examples/prompt-files/server.ts (stdio)
import { createServer, serveStdio, text } from 'mcpkit';

const files: Record<string, string> = {
  'spec.md': '# Spec\nThe service answers within 100 ms.\n',
  'changelog.md': '# Changelog\n- 1.1: faster answers\n',
};

const server = createServer({ name: 'review', version: '1.0.0' });
server.resource(
  'doc:///{name}',
  { name: 'doc', mimeType: 'text/markdown' },
  (_uri, { name }) => files[name],
);
server.prompt(
  'check-spec',
  { description: 'Checks the changelog against the spec' },
  async (_args, ctx) =>
    ctx.messages(
      { role: 'user', content: await ctx.embed('doc:///spec.md') }, // always inline
      { role: 'user', content: await ctx.link('doc:///changelog.md') }, // read on demand
      { role: 'user', content: text('Does the changelog keep the spec? Read it if needed.') },
    ),
);

await serveStdio(server).closed;
