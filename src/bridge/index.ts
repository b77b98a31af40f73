/**
 * `mcpkit bridge` as a library: an MCP server that fronts one upstream MCP server, mirroring it
 * in either era and rewriting results for what a host surfaces (see docs/bridge.md).
 */
export { createBridge } from './create-bridge.js';
export type { Bridge, CreateBridgeOptions } from './create-bridge.js';
export { BridgeServer, DEFAULT_MAX_LINK_BYTES } from './bridge-server.js';
export type { BridgeOptions } from './bridge-server.js';
export { Upstream } from './upstream.js';
export { freeName, LIST_TOOL, READ_TOOL } from './own-tools.js';
