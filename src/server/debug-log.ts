/** The opt-in debug log (`MCPKIT_DEBUG`), the one place the engine writes to stderr. */
import type { DecisionRecord } from '../content/assemble.js';

/** Whether MCPKIT_DEBUG names `topic` (comma-separated topics, or `*`). Read per call: tests set it. */
export function debugging(topic: string): boolean {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env?.['MCPKIT_DEBUG'];
  if (!value) return false;
  return value.split(',').some((t) => t.trim() === topic || t.trim() === '*');
}

/** One readable line per decision, for the debug log. */
export function describeDecision(method: string, record: DecisionRecord): string {
  const d = record.decision;
  return `mcpkit policy: ${method} ${record.name}${record.uri ? ` <${record.uri}>` : ''} -> ${d.kind} (${d.reason}): ${d.detail}`;
}
