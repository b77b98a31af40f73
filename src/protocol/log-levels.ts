import type { LoggingLevel } from '../protocol/types.js';

const LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** The rank of a logging level (higher is more severe); -1 for none or an unknown one. */
export function levelRank(level: string | undefined): number {
  return level === undefined ? -1 : LEVELS.indexOf(level as LoggingLevel);
}
