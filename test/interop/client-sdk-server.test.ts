/**
 * Interop: McpClient against a server written with the official SDK v2
 * (`@modelcontextprotocol/server` 2.4.0, `@modelcontextprotocol/node` 2.1.2), spawned as a real
 * process, over stdio and over HTTP on 127.0.0.1, in both eras: detection must pick 2026-07-28,
 * and a client pinned to 2025 gets 2025-11-25 (stdio: pinned per connection; HTTP: the SDK's
 * stateless legacy fallback on the same endpoint).
 */
import { ownServerSuite } from './own-server-suite.js';
import { MODERN } from './client-helpers.js';
import { SDK_SERVER_INFO } from './servers/sdk-server.js';

ownServerSuite({
  label: 'SDK v2 server',
  script: 'test/interop/servers/sdk-server.ts',
  serverInfo: SDK_SERVER_INFO,
  // McpServer lists tools and prompts in one page; the server pages resources/list itself.
  paged: ['resources/list'],
  cases: [
    { transport: 'stdio', era: 'auto', expectEra: 'modern', expectVersion: MODERN },
    { transport: 'stdio', era: 'legacy', expectEra: 'legacy', expectVersion: '2025-11-25' },
    { transport: 'http', era: 'auto', expectEra: 'modern', expectVersion: MODERN },
    { transport: 'http', era: 'legacy', expectEra: 'legacy', expectVersion: '2025-11-25' },
  ],
});
