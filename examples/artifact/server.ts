// A tool whose result is a generated file, embedded while it fits the block budget (1 MiB by
// default: the default 50,000 rows, about 480 KB, are embedded) and linked beyond it as an
// artifact (mcpkit://artifacts/...) that the host reads, in parts when it must (rows: 200000,
// about 2 MB, is linked). Run: npx tsx examples/artifact/server.ts (stdio)
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
      ctx.attach({ name: 'rows.csv', mimeType: 'text/csv', text: csv }), // embedded when it fits, else linked
    );
  },
);

await serveStdio(server).closed;
