// A tool that asks the user before it acts: ctx.ask is an MRTR round in 2026-07-28 (the client
// answers, the call is retried with the answer) and a server-to-client request in 2025-11-25.
// Run: npx tsx examples/ask/server.ts (stdio)
import { createServer, serveStdio } from 'mcpkit';

const server = createServer({ name: 'ask', version: '1.0.0' });
server.tool(
  'delete-note',
  {
    description: 'Deletes a note after the user confirms',
    input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
  async ({ name }, ctx) => {
    const { confirm } = await ctx.ask({
      confirm: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: `Delete the note "${name}"?`,
          requestedSchema: {
            type: 'object',
            properties: { sure: { type: 'boolean' } },
            required: ['sure'],
          },
        },
      },
    });
    const content = confirm['content'] as { sure?: boolean } | undefined;
    return confirm['action'] === 'accept' && content?.sure ? `Deleted ${name}.` : 'Kept it.';
  },
);

await serveStdio(server).closed;
