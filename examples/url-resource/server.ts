// Resources backed by URLs, fetched through mcpkit's SSRF guard: `docs://{name}` reads
// DOCS_BASE/{name}.md. The guard refuses loopback, private and cloud-metadata addresses (every
// redirect hop too) unless GUARD_ALLOW lists them, and caps size and time.
// Run: DOCS_BASE=https://example.com/docs/ npx tsx examples/url-resource/server.ts (stdio)
import { createServer, serveStdio } from 'mcpkit';
import { createGuard, GuardError } from 'mcpkit/guard';

const BASE =
  process.env['DOCS_BASE'] ??
  'https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/main/';
const guard = createGuard({
  allow: (process.env['GUARD_ALLOW'] ?? '').split(',').filter(Boolean),
  maxBytes: 1 << 20,
  timeoutMs: 10_000,
});

const server = createServer({ name: 'docs', version: '1.0.0' });
server.resource(
  'docs://{name}',
  { name: 'doc', mimeType: 'text/markdown' },
  async (_uri, { name }) => {
    // The variable is decoded and checked (no `/`, no `..`); encoded again into the URL path.
    try {
      const answer = await guard.fetch(new URL(`${encodeURIComponent(name)}.md`, BASE));
      return { mimeType: 'text/markdown', text: new TextDecoder().decode(answer.bytes) };
    } catch (error) {
      // A 404 there is "not found" here; a refused address or any other failure is an error.
      if (error instanceof GuardError && error.details.status === 404) return undefined;
      throw error;
    }
  },
);

await serveStdio(server).closed;
