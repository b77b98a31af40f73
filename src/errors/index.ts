export { ProtocolError, isProtocolError } from './protocol-error.js';
export { McpKitError, isMcpKitError } from './mcpkit-error.js';
