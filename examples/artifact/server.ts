// A tool whose result is a large generated file: too big to embed, so it is linked as an
// artifact (mcpkit://artifacts/...) that the host reads, in parts when it must.
// Run: npx tsx examples/artifact/server.ts (stdio)
import { createServer, serveStdio, text } from 'mcpkit';

const server = createServer({ name: 'reports', version: '1.0.0' });
server.tool(
  'export-rows',
  {
    description: 'Exports the rows as CSV',
    input: { type: 'object', properties: { rows: { type: 'integer', minimum: 1 } } },
  },
  (args, ctx) => {
    const rows = args.rows ?? 50_000;
    let csv = 'id,value\n';
    for (let i = 0; i < rows; i++) csv += `${i},${(i * 7) % 1000}\n`;
    return ctx.result(
      text(`Exported ${rows} rows.`),
      ctx.attach({ name: 'rows.csv', mimeType: 'text/csv', text: csv }), // embedded when small
    );
  },
);

await serveStdio(server).closed;
