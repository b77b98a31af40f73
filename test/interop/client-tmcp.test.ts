/**
 * Interop: McpClient against a server written with tmcp (`tmcp` 1.20.0,
 * `@tmcp/transport-stdio` 0.5.0, `@tmcp/transport-http` 0.9.0, `@tmcp/adapter-zod` 0.1.7),
 * spawned as a real process, over stdio and over HTTP on 127.0.0.1. tmcp serves both eras on one
 * connection or endpoint: detection must pick 2026-07-28; `initialize` negotiates 2025-06-18
 * (tmcp 1.20 does not offer 2025-11-25).
 */
import { ownServerSuite } from './own-server-suite.js';
import { MODERN } from './client-helpers.js';
import { TMCP_SERVER_INFO } from './servers/tmcp-server.js';

ownServerSuite({
  label: 'tmcp server',
  script: 'test/interop/servers/tmcp-server.ts',
  serverInfo: TMCP_SERVER_INFO,
  paged: ['tools/list', 'resources/list', 'prompts/list'],
  cases: [
    { transport: 'stdio', era: 'auto', expectEra: 'modern', expectVersion: MODERN },
    { transport: 'stdio', era: 'legacy', expectEra: 'legacy', expectVersion: '2025-06-18' },
    { transport: 'http', era: 'auto', expectEra: 'modern', expectVersion: MODERN },
    { transport: 'http', era: 'legacy', expectEra: 'legacy', expectVersion: '2025-06-18' },
  ],
});
