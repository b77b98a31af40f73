#!/usr/bin/env node
// Starts test/conformance/client-entry.ts for the conformance suite's client scenarios. The
// extension scenarios mcpkit does not implement (see README, "Signing in") exit here before tsx
// and the library are loaded, so the others start in time.
const UNSUPPORTED = new Set([
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/enterprise-managed-authorization',
  'auth/wif-jwt-bearer',
]);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
if (UNSUPPORTED.has(scenario)) {
  console.error(`[client] ${scenario}: not supported by mcpkit (see README, "Signing in")`);
  process.exit(2);
}
const { register } = await import('tsx/esm/api');
register();
await import('./client-entry.ts');
