/** What a replayed answer depends on besides the request's body: the transport's setting. */
import type { HttpExchange } from './exchange.js';

/**
 * What `checkEnvelope` reads of a 2026-07-28 request besides its body, as one string: the
 * headers its answer may depend on (Mcp-Param-* are not here: a tool that mirrors arguments in
 * headers never has its answers replayed).
 */
export function replaySettingOf(ex: HttpExchange): string {
  const h = (name: string): string => ex.header(name) ?? '\u0000';
  return `${h('mcp-method')}\n${h('mcp-name')}\n${h('mcp-protocol-version')}\n${ex.header('mcp-session-id') === undefined ? '' : 'session'}`;
}
