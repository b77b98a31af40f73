#!/usr/bin/env node
// Starts test/conformance/client-entry.ts for the conformance suite's client scenarios. The
// suite starts one client per scenario, all at once; the auth/* ones (OAuth is not implemented
// yet) exit here before tsx and the library are loaded, so the others start in time.
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
if (scenario.startsWith('auth/')) {
  console.error(`[client] ${scenario}: OAuth client not implemented yet`);
  process.exit(2);
}
const { register } = await import('tsx/esm/api');
register();
await import('./client-entry.ts');
