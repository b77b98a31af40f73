import { META } from './meta-keys.js';
import { eraOf, type Era } from './versions.js';

/** What the edge knows about a request when it classifies it. */
export interface EraClues {
  /** The request's method. */
  method: string;
  /** The request's params (its `_meta` is what marks 2026-07-28). */
  params: unknown;
  /** The `MCP-Protocol-Version` header where the transport has headers; null or absent otherwise. */
  headerVersion?: string | null | undefined;
  /** Whether the connection has a 2025-11-25 session (stdio after initialize, Mcp-Session-Id). */
  inSession: boolean;
}

/**
 * The era a request belongs to, decided once at the edge: `_meta.protocolVersion` or a version
 * header that is not a 2025-era revision (even an unknown one) means the stateless 2026-07-28
 * wire; `initialize` or a session means 2025-11-25; with neither, 2026-07-28 (whose checks then
 * explain what is missing).
 */
export function requestEra(clues: EraClues): Era {
  const params = clues.params;
  const meta =
    typeof params === 'object' && params !== null
      ? (params as Record<string, unknown>)['_meta']
      : undefined;
  if (typeof meta === 'object' && meta !== null && !Array.isArray(meta)) {
    if (META.protocolVersion in meta) return 'modern';
  }
  const header = clues.headerVersion;
  if (typeof header === 'string' && eraOf(header.trim()) !== 'legacy') return 'modern';
  if (clues.method === 'initialize' || clues.inSession) return 'legacy';
  return 'modern';
}
