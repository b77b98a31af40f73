/** The value options of `mcpkit serve`: one row each, with its bounds and its transport. */
import { parseDuration, parseSize } from './values.js';

/** The options of `ServeArgs` that take a number (bytes, a count or milliseconds). */
export type ValueKey =
  | 'blockBudgetBytes'
  | 'resultBudgetBytes'
  | 'pageSize'
  | 'maxLineBytes'
  | 'maxBodyBytes'
  | 'maxResponseBytes'
  | 'cacheBytes'
  | 'readTimeoutMs'
  | 'maxStalledReads'
  | 'readWorkers'
  | 'partBytes'
  | 'maxDepth'
  | 'maxInFlight'
  | 'maxQueuedBytes'
  | 'maxListenQueueBytes'
  | 'maxListenQueueTotalBytes'
  | 'maxListens'
  | 'maxListenUris'
  | 'maxListenPendingUris'
  | 'maxEncodedReadBytes'
  | 'maxResponseTotalBytes'
  | 'writeTimeoutMs'
  | 'bodyTimeoutMs'
  | 'headerTimeoutMs'
  | 'maxBodyTotalBytes'
  | 'maxSessions'
  | 'sessionIdleMs'
  | 'maxFiles'
  | 'searchMaxFileBytes'
  | 'searchTimeoutMs'
  | 'watchDebounceMs';

export interface ValueOption {
  key: ValueKey;
  kind: 'size' | 'count' | 'duration';
  min: number;
  /** The largest value accepted (counts and durations). */
  max?: number;
  /** Only meaningful with this transport. */
  only?: 'stdio' | 'http';
  /** Why the minimum is what it is, for the error message. */
  why?: string;
}

/**
 * The smallest message cap: 1 KiB of it is kept for the envelope, and the rest must hold a
 * result (the tools list alone is over 1 KiB).
 */
export const MIN_MESSAGE_CAP_BYTES = 64 * 1024;

const CAP_WHY = '1k of it is kept for the message envelope and results need the rest';
const DAY_MS = 86_400_000;

export const VALUE_OPTIONS: Readonly<Record<string, ValueOption>> = {
  '--block-budget': { key: 'blockBudgetBytes', min: 1, kind: 'size' },
  '--result-budget': { key: 'resultBudgetBytes', min: 1, kind: 'size' },
  '--page-size': { key: 'pageSize', min: 1, max: 10_000, kind: 'count' },
  '--max-line-bytes': {
    key: 'maxLineBytes',
    min: MIN_MESSAGE_CAP_BYTES,
    kind: 'size',
    only: 'stdio',
    why: CAP_WHY,
  },
  '--max-body-bytes': {
    key: 'maxBodyBytes',
    min: MIN_MESSAGE_CAP_BYTES,
    kind: 'size',
    only: 'http',
    why: CAP_WHY,
  },
  '--max-response-bytes': {
    key: 'maxResponseBytes',
    min: MIN_MESSAGE_CAP_BYTES,
    kind: 'size',
    why: CAP_WHY,
  },
  '--part-bytes': { key: 'partBytes', min: 1024, kind: 'size' },
  '--cache-bytes': { key: 'cacheBytes', min: 0, kind: 'size' },
  '--read-timeout': { key: 'readTimeoutMs', min: 10, max: 3_600_000, kind: 'duration' },
  '--max-stalled-reads': { key: 'maxStalledReads', min: 1, max: 10_000, kind: 'count' },
  '--read-workers': { key: 'readWorkers', min: 0, max: 1_000, kind: 'count' },
  '--max-depth': { key: 'maxDepth', min: 8, max: 10_000, kind: 'count' },
  '--max-in-flight': { key: 'maxInFlight', min: 1, max: 100_000, kind: 'count', only: 'stdio' },
  '--max-queued-bytes': {
    key: 'maxQueuedBytes',
    min: MIN_MESSAGE_CAP_BYTES,
    kind: 'size',
    only: 'stdio',
  },
  '--max-listen-queue-bytes': { key: 'maxListenQueueBytes', min: 1024, kind: 'size' },
  '--max-listen-queue-total-bytes': { key: 'maxListenQueueTotalBytes', min: 1024, kind: 'size' },
  '--max-listens': { key: 'maxListens', min: 1, max: 1_000_000, kind: 'count' },
  '--max-listen-uris': { key: 'maxListenUris', min: 1, max: 1_000_000, kind: 'count' },
  '--max-listen-pending-uris': {
    key: 'maxListenPendingUris',
    min: 1,
    max: 1_000_000,
    kind: 'count',
  },
  '--max-encoded-read-bytes': { key: 'maxEncodedReadBytes', min: 0, kind: 'size' },
  '--max-response-total-bytes': {
    key: 'maxResponseTotalBytes',
    min: MIN_MESSAGE_CAP_BYTES,
    kind: 'size',
  },
  '--write-timeout': {
    key: 'writeTimeoutMs',
    min: 100,
    max: DAY_MS,
    kind: 'duration',
    only: 'http',
  },
  '--body-timeout': { key: 'bodyTimeoutMs', min: 100, max: DAY_MS, kind: 'duration', only: 'http' },
  '--header-timeout': {
    key: 'headerTimeoutMs',
    min: 100,
    max: DAY_MS,
    kind: 'duration',
    only: 'http',
  },
  '--max-body-total-bytes': {
    key: 'maxBodyTotalBytes',
    min: MIN_MESSAGE_CAP_BYTES,
    kind: 'size',
    only: 'http',
  },
  '--max-sessions': { key: 'maxSessions', min: 1, max: 1_000_000, kind: 'count', only: 'http' },
  '--session-idle': {
    key: 'sessionIdleMs',
    min: 1000,
    max: DAY_MS,
    kind: 'duration',
    only: 'http',
  },
  '--max-files': { key: 'maxFiles', min: 1, max: 100_000_000, kind: 'count' },
  '--search-max-file-bytes': { key: 'searchMaxFileBytes', min: 1, kind: 'size' },
  '--search-timeout': { key: 'searchTimeoutMs', min: 10, max: DAY_MS, kind: 'duration' },
  '--watch-debounce': { key: 'watchDebounceMs', min: 10, max: 60_000, kind: 'duration' },
};

function describeDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** The option's value, or the message saying what is wrong with `raw`. */
export function parseValue(name: string, option: ValueOption, raw: string): number | string {
  if (option.kind === 'count') {
    const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
    const max = option.max ?? Number.MAX_SAFE_INTEGER;
    if (!Number.isSafeInteger(n) || n < option.min || n > max) {
      return `${name} expects a whole number from ${option.min} to ${max}, got ${JSON.stringify(raw)}`;
    }
    return n;
  }
  if (option.kind === 'duration') {
    const ms = parseDuration(raw);
    const max = option.max ?? Number.MAX_SAFE_INTEGER;
    if (ms === undefined)
      return `${name} expects a duration such as 10s, 500ms, 2m or 1h, got ${JSON.stringify(raw)}`;
    if (ms < option.min || ms > max)
      return `${name} must be from ${describeDuration(option.min)} to ${describeDuration(max)}, got ${JSON.stringify(raw)}`;
    return ms;
  }
  const bytes = parseSize(raw);
  if (bytes === undefined)
    return `${name} expects a size such as 65536, 512k, 1m or 4mib, got ${JSON.stringify(raw)}`;
  if (bytes < option.min) {
    const min =
      option.min >= 1024 ? `${option.min / 1024}k (${option.min} bytes)` : `${option.min} bytes`;
    return `${name} must be at least ${min}${option.why ? `: ${option.why}` : ''}, got ${JSON.stringify(raw)}`;
  }
  return bytes;
}
